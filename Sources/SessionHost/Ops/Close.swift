import Wire

extension SessionHost {
  /// `close`: the session ends; its watchers get `closed` with reason `closed`.
  func close(_ name: String, _ c: OpContext) throws(ProtocolError) -> ReplyBody {
    _ = try c.session(name)
    closeSession(name, reason: "closed")
    return .empty
  }
}
