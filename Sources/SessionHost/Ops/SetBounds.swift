import Primitives
import Wire

extension SessionHost {
  /// `set_bounds`: new reference bounds for a scene (nil: none); collision behaviors that
  /// translate them into a boundary collide with the new ones from the next step.
  func setBounds(_ bounds: Rect?, of name: String, _ c: OpContext) throws(ProtocolError)
    -> ReplyBody
  {
    try c.scene(name).setBounds(bounds)
    return .empty
  }
}
