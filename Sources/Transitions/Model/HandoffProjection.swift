import Dynamics
import Primitives

extension DynamicAnimator {
  /// The decay that receives the item a release handed off, and where it stops the item: the
  /// behavior that moves it (`exactMover(ofItemNamed:)`) when that is a decay, and its resting
  /// point (`DecayBehavior.restingPoint(of:)`); nil otherwise. The `handoff` event's `decay`
  /// and `projection`.
  func decayProjection(of identifier: String) -> (decay: DecayModel, projection: Point)? {
    guard let (item, mover) = exactMover(ofItemNamed: identifier),
      let decay = mover as? DecayBehavior, let projection = decay.restingPoint(of: item)
    else { return nil }
    return (decay.model, projection)
  }
}
