import Wire

/// `close`: the session ends; its watchers get `closed` with reason `closed`.
extension CloseRequest: AnySessionOp {
  func run(on s: Session, _ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    c.host.closeSession(session, reason: "closed")
    return .empty
  }
}
