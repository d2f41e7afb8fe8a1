import Wire

extension SessionHost {
  /// `swipe`: a swipe for the transition, with where it started and how fast, when known.
  func swipe(_ swipe: SwipeRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let (s, t) = try c.transition(swipe.session)
    s.queue(t.swipe(swipe.direction, at: swipe.point, velocity: swipe.velocity))
    return .empty
  }
}
