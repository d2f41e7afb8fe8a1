/// `remove_item`: remove an item by id. The reply is empty.
public struct RemoveItemRequest: SessionOpRequest {
  public static let name = "remove_item"
  public static let fields: [StaticString] = ["session", "item"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String
  public var item: String

  public init(session: String, item: String) {
    self.session = session
    self.item = item
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(session: try fields.requiredName("session"), item: try fields.requiredName("item"))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("item", item)
  }
}
