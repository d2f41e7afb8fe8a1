import Primitives
import Wire

/// `items_in_rect`: the animated items whose frames meet a rectangle (UIKit's itemsInRect:), in
/// the order of the session's items. Works on transitions too.
extension ItemsInRectRequest: AnySessionOp {
  func run(on s: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
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
