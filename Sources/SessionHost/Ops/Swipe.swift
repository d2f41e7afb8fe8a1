import Transitions
import Wire

/// `swipe`: a swipe for the transition, with where it started and how fast, when known; the
/// reply says whether the transition took it (a taken swipe starts a new gesture cycle).
extension SwipeRequest: TransitionOp {
  func run(on s: Session, _ t: Transition, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let taken = t.swipe(direction, at: point, velocity: velocity)
    if taken {
      s.outcome = nil
      s.startSkipping()
    }
    return .input(taken: taken)
  }
}
