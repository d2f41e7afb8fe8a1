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
enum SetItemOp {
  static let fields: [StaticString] = ["session", "item", "center", "angle"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .setItem(
      SetItemRequest(
        session: try fields.requiredName("session"), item: try fields.requiredName("item"),
        center: try fields.point("center"), angle: try fields.number("angle", in: Limits.angle)))
  }

  static func write(_ set: SetItemRequest, to encoder: inout RequestEncoder) {
    encoder.word("item", set.item)
    encoder.point("center", set.center)
    encoder.number("angle", set.angle)
  }
}
