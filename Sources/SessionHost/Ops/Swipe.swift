import Wire

extension SessionHost {
  /// `swipe`: a swipe for the transition, with where it started and how fast, when known; the
  /// reply says whether the transition took it (a taken swipe starts a new gesture cycle).
  func swipe(_ swipe: SwipeRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let (s, t) = try c.transition(swipe.session)
    let taken = t.swipe(swipe.direction, at: swipe.point, velocity: swipe.velocity)
    if taken { s.outcome = nil }
    return .input(taken: taken)
  }
}
