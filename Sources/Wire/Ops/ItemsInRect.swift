import Primitives

/// `items_in_rect` (extension): the ids of the items whose frames meet `rect` `[x, y, w, h]`
/// (UIDynamicAnimator itemsInRect:; `w`, `h` in `Limits.selectionSide`), in the scene's order;
/// a transition's items too.
public struct ItemsInRectRequest: SessionOpRequest {
  public static let name = "items_in_rect"
  public static let fields: [StaticString] = ["session", "rect"]
  public static let target = OpTarget.session
  public static let changesStepCost = false
  public var session: String
  public var rect: Rect

  public init(session: String, rect: Rect) {
    self.session = session
    self.rect = rect
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"),
      rect: try fields.requiredSelectionRect("rect"))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.key("rect")
    encoder.numbers([rect.minX, rect.minY, rect.size.width, rect.size.height])
  }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .itemsInRect(items: try fields.strings("items"))
  }
}
