import Wire

extension SessionHost {
  /// `tap`: a tap for the transition.
  func tap(_ tap: TapRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let (s, t) = try c.transition(tap.session)
    s.queue(t.tap(at: tap.point))
    return .empty
  }
}
