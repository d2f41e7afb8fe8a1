import Wire

extension SessionHost {
  /// `get`: the animator's time, whether it runs, and the items with their sizes.
  func get(_ name: String, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    let s = try c.session(name)
    return .get(t: s.animator.elapsedTime, running: s.animator.isRunning, items: s.states())
  }
}
