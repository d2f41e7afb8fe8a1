import Primitives

/// `set_item`: move and/or turn an item; with neither it only re-reads the item's state.
public struct SetItemRequest: Equatable, Sendable {
  public var session: String
  public var item: String
  public var center: Point?
  public var angle: Double?

  public init(session: String, item: String, center: Point? = nil, angle: Double? = nil) {
    self.session = session
    self.item = item
    self.center = center
    self.angle = angle
  }
}

/// The reply is empty.
extension SetItemRequest: SessionOpRequest {
  public static let name = "set_item"
  public static let fields: [StaticString] = ["session", "item", "center", "angle"]
  public static let target = OpTarget.scene
  public static let changesStepCost = false

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"), item: try fields.requiredName("item"),
      center: try fields.point("center"), angle: try fields.number("angle", in: Limits.angle))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("item", item)
    encoder.point("center", center)
    encoder.number("angle", angle)
  }
}
