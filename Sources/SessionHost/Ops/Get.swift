import Dynamics
import Wire

/// `get`: the animator's time, whether it runs, the items with their sizes and shapes, and
/// (extension) the reference bounds and a transition's parameters.
extension GetRequest: AnySessionOp {
  func run(on s: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    var details = SessionDetails(bounds: s.animator.referenceBounds, params: s.params)
    switch s.content {
    case .scene(let scene): details.groups = scene.groupSpecs
    case .transition(let t):
      if let motion = t.motionInForce {
        details.motion = SessionMotion(
          spring: motion.spring.map { ($0.set, $0.parameters) }, decay: motion.decay)
      }
    }
    var states = s.states()
    for (index, item) in zip(states.indices, s.items) { states[index].shape = item.shape }
    return .get(
      t: s.animator.time, running: s.animator.isRunning, items: states, details: details)
  }
}
