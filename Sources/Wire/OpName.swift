/// The `op` words of protocol version 1, and the one place they are spelt.
///
/// `Op.kind` gives a request's word, `RequestDecoder` dispatches on it (and suggests the closest
/// one for a misspelt op, so the order of the cases decides ties), `RequestEncoder` writes it,
/// and `ServerMessageDecoder` uses it to read the reply to a request of that op.
public enum OpName: String, CaseIterable, Sendable {
  case hello, open, gesture, tap, swipe, step, get, watch, close, list, debug
  case addItem = "add_item"
  case removeItem = "remove_item"
  case addBehavior = "add_behavior"
  case removeBehavior = "remove_behavior"
  case removeAllBehaviors = "remove_all_behaviors"
  case setBehavior = "set_behavior"
  case setItem = "set_item"
  case addVelocity = "add_velocity"
  /// Extension: a scene's behaviors with their current values.
  case behaviors
  /// Extension: add an item group (UIDynamicItemGroup) to a scene.
  case addGroup = "add_group"
  /// Extension: remove an item group.
  case removeGroup = "remove_group"
  /// Extension: the items whose frames meet a rectangle (UIDynamicAnimator itemsInRect:).
  case itemsInRect = "items_in_rect"
  /// Extension: change a scene's reference bounds.
  case setBounds = "set_bounds"
}
