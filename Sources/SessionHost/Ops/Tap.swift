import Wire

extension SessionHost {
  /// `tap`: a tap for the transition.
  func tap(_ tap: TapRequest, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let (s, t) = try c.transition(tap.session)
    t.tap(at: tap.point)
    s.queue(t.takeEvents())
    return .empty
  }
}
