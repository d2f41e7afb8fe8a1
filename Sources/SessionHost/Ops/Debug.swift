import Wire

extension SessionHost {
  /// `debug`: starts (the peer watches, and gets the geometry after each frame it receives) or
  /// stops the debug stream; the reply to `enable` holds the geometry now.
  func debug(_ name: String, enable: Bool, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let s = try c.session(name)
    if enable { s.addWatcher(c.peer) }
    s.setDebug(c.peer, enabled: enable)
    return enable ? .debug(s.debugGeometry) : .empty
  }
}
