import Wire

/// `debug`: starts (the peer watches, and gets the geometry after each frame it receives) or
/// stops the debug stream; the reply to `enable` holds the geometry now. A scene whose geometry
/// would pass `Limits.maxDebugBytes` (estimated from its counts before anything is built) is
/// `out_of_range`, and its stream does not start.
extension DebugRequest: AnySessionOp {
  func run(on s: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    guard enable else {
      s.setDebug(c.peer, enabled: false)
      return .empty
    }
    let estimate = DebugGeometry.estimatedBytes(
      of: s.animator, ids: DebugGeometry.itemIDBytes(of: s.animator))
    let geometry = estimate <= Limits.maxDebugBytes ? s.debugGeometry : nil
    guard let geometry, geometry.leftOut == 0 else {
      let contacts = geometry.map { " and its \($0.contacts.count + $0.leftOut) contacts" } ?? ""
      throw ProtocolError(
        .outOfRange,
        "the debug geometry of '\(session)' would take up to \(estimate) bytes for its behaviors"
          + "\(contacts), more than the \(Limits.maxDebugBytes) a debug message may be (their "
          + "item lists are long); remove some behaviors or use get and behaviors")
    }
    s.addWatcher(c.peer)
    s.setDebug(c.peer, enabled: true)
    return .debug(geometry)
  }
}
