/// `add_item`: add an item to a scene session. The reply is empty.
public struct AddItemRequest: SessionOpRequest {
  public static let name = "add_item"
  public static let fields: [StaticString] = ["session", "item"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String
  public var item: ItemSpec

  public init(session: String, item: ItemSpec) {
    self.session = session
    self.item = item
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    let session = try fields.requiredName("session")
    let item = try fields.requiredObject("item", owner: "an item")
    return Self(session: session, item: try ItemSpec(item))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.key("item")
    encoder.item(item)
  }
}
