import Wire

extension SessionHost {
  /// `watch`: the peer gets the session's events from now on; the reply holds the items.
  func watch(_ name: String, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let s = try c.session(name)
    s.addWatcher(c.peer)
    return .watch(items: s.states())
  }
}
