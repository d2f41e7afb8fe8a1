import Dynamics
import Primitives

extension DynamicAnimator {
  /// Where the item a release handed off comes to rest when a decay receives it: the resting
  /// point (`DecayBehavior.restingPoint(of:)`) when the behavior that moves it
  /// (`exactMover(ofItemNamed:)`) is a decay; nil otherwise. The `handoff` event's `projection`.
  func decayProjection(of identifier: String) -> Point? {
    guard let (item, mover) = exactMover(ofItemNamed: identifier),
      let decay = mover as? DecayBehavior
    else { return nil }
    return decay.restingPoint(of: item)
  }
}
