import Wire

extension SessionHost {
  /// `tap`: a tap for the transition; the reply says whether it took it (a taken tap starts a
  /// new gesture cycle).
  func tap(_ tap: TapRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let (s, t) = try c.transition(tap.session)
    let taken = t.tap(at: tap.point)
    if taken { s.outcome = nil }
    return .input(taken: taken)
  }
}
