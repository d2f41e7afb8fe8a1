import Primitives
import Transitions
import Wire

/// `gesture`: one pan sample for the transition; a release hands the finger's velocity over
/// (`handoff`, before the reply).
extension GestureRequest: TransitionOp {
  func run(on s: Session, _ t: Transition, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    if sample.phase == .began { s.outcome = nil }
    s.queue(t.handle(sample, now: s.inputTime))
    return .empty
  }
}
