import Wire

/// `list`: the sessions opened at or after `from`, in the order they were opened, from what each
/// last published (so it never waits for a job); at most `limit` of them and
/// `Limits.maxListBytes` of summaries (at least one), with `next` when some are left.
extension ListRequest: DaemonOp {
  func run(_ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    let limit = self.limit ?? Limits.maxSessions
    let from = UInt64(self.from)
    let candidates = c.host.sessions.values.filter { $0.openingNumber >= from }
      .sorted { $0.openingNumber < $1.openingNumber }
    var page = SessionPage([])
    var bytes = 0
    for session in candidates {
      let summary = session.summary
      let size = SessionPage.bytes(of: summary)
      if page.sessions.count == limit
        || (!page.sessions.isEmpty && bytes + size > Limits.maxListBytes)
      {
        page.next = Int(session.openingNumber)
        break
      }
      page.sessions.append(summary)
      bytes += size
    }
    return .list(page)
  }
}
