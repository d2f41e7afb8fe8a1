import Primitives
import Wire

extension SessionHost {
  /// `items_in_rect`: the animated items whose frames meet a rectangle (UIKit's itemsInRect:),
  /// in the order of the session's items. Works on transitions too.
  func itemsInRect(_ rect: Rect, of name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    let s = try c.session(name)
    switch s.content {
    case .scene(let scene):
      return .itemsInRect(items: scene.items(in: rect))
    case .transition(let t):
      let found = Set(t.animator.items(in: rect).map(ObjectIdentifier.init))
      return .itemsInRect(
        items: t.items.filter { found.contains(ObjectIdentifier($0)) }.map(\.identifier))
    }
  }
}
