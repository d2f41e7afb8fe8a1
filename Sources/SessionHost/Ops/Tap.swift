import Transitions
import Wire

/// `tap`: a tap for the transition; the reply says whether it took it (a taken tap starts a new
/// gesture cycle).
extension TapRequest: TransitionOp {
  func run(on s: Session, _ t: Transition, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let taken = t.tap(at: point)
    if taken {
      s.outcome = nil
      s.startSkipping()
    }
    return .input(taken: taken)
  }
}
