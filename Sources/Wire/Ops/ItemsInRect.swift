import Primitives

/// `items_in_rect` (extension): the ids of the items whose frames meet `rect` `[x, y, w, h]`
/// (UIDynamicAnimator itemsInRect:; `w`, `h` in `Limits.selectionSide`), in the scene's order.
enum ItemsInRectOp {
  static let fields: [StaticString] = ["session", "rect"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .itemsInRect(
      session: try fields.requiredName("session"),
      rect: try fields.requiredSelectionRect("rect"))
  }

  static func write(_ rect: Rect, to encoder: inout RequestEncoder) {
    encoder.key("rect")
    encoder.numbers([rect.minX, rect.minY, rect.size.width, rect.size.height])
  }

  static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .itemsInRect(items: try fields.strings("items"))
  }
}
