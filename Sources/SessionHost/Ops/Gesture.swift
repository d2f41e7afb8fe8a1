import Primitives
import Transitions
import Wire

extension SessionHost {
  /// `gesture`: one pan sample for the transition; a release hands the finger's velocity over
  /// (`handoff`, before the reply).
  func gesture(_ g: GestureRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let (s, t) = try c.transition(g.session)
    let event = GestureEvent(
      phase: g.phase, point: g.point, time: g.t, velocity: g.velocity, estimator: g.estimator)
    if g.phase == .began { s.outcome = nil }
    s.queue(t.handle(event, now: s.inputTime))
    return .empty
  }
}
