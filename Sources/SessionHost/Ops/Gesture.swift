import Primitives
import Transitions
import Wire

/// `gesture`: one pan sample for the transition; a release hands the finger's velocity over
/// (`handoff`, before the reply).
extension GestureRequest: TransitionOp {
  func run(on s: Session, _ t: Transition, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let event = GestureEvent(
      phase: phase, point: point, time: self.t, velocity: velocity, estimator: estimator)
    if phase == .began { s.outcome = nil }
    s.queue(t.handle(event, now: s.inputTime))
    return .empty
  }
}
