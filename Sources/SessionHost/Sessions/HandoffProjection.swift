import Dynamics
import Primitives

extension DynamicAnimator {
  /// Where the item a release handed off comes to rest when a decay receives it: the resting
  /// point (`DecayBehavior.restingPoint(of:)`) of the last decay in the behavior tree holding
  /// the item (the one that moves it), unless a spring after it moves it instead; nil when none
  /// does. The `handoff` event's `projection`.
  func decayProjection(of identifier: String) -> Point? {
    var mover: DynamicBehavior?
    func visit(_ behavior: DynamicBehavior) {
      switch behavior {
      case let d as DecayBehavior where d.items.contains(where: { $0.identifier == identifier }):
        mover = d
      case let s as SpringBehavior where s.items.contains(where: { $0.identifier == identifier }):
        mover = s
      default:
        break
      }
      for child in behavior.childBehaviors { visit(child) }
    }
    for behavior in behaviors { visit(behavior) }
    guard let decay = mover as? DecayBehavior,
      let item = decay.items.first(where: { $0.identifier == identifier })
    else { return nil }
    return decay.restingPoint(of: item)
  }
}
