import Wire

/// `watch`: the peer gets the session's events from now on; the reply holds the items, the
/// time, whether it runs and the outcome already reported (so that a client waiting for `pause`
/// or `done` knows when it has already come).
extension WatchRequest: AnySessionOp {
  func run(on s: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    s.addWatcher(c.peer)
    return .watch(
      t: s.animator.time, running: s.animator.isRunning, outcome: s.outcome,
      items: s.states())
  }
}
