import Glibc
import Wire

/// A connection and the output its lines go to.
struct DaemonClient {
  let connection: DaemonConnection
  var output: Output
  let timeout: Double
  /// Records every line sent and received (`dynctl record`).
  var trace: TraceLines?

  /// Sends `op`, prints its events and (unless `quietReply`, for requests dynctl makes on its
  /// own account) its reply; throws `.errorReply` for an error reply. Returns the reply's body.
  @discardableResult
  func request(
    _ op: Op, quietReply: Bool = false, onEvent: (Message) -> Void = { _ in }
  ) throws(Failure) -> ReplyBody {
    let id = connection.nextID()
    let reply = try send(
      line: Request(id: id, op: op).encodedLine, awaiting: AwaitedReply(id: id, op: op.kind),
      quietReply: quietReply, onEvent: onEvent)
    return reply.content.replyBody ?? .empty
  }

  /// The `list` entry of `session` (nil when there is none), asked page by page, quietly.
  func summary(of session: String) throws(Failure) -> SessionSummary? {
    var from = 0
    while true {
      guard case .list(let page) = try request(Op(ListRequest(from: from)), quietReply: true)
      else { return nil }
      if let found = page.sessions.first(where: { $0.session == session }) { return found }
      guard let next = page.next else { return nil }
      from = next
    }
  }

  /// Sends one line, prints its events and reply; throws `.errorReply` for an error reply. The
  /// reply must answer `awaited` and is read as the reply to its op (`ServerMessageDecoder`).
  @discardableResult
  func send(
    line: String, awaiting awaited: AwaitedReply, quietReply: Bool = false,
    onEvent: (Message) -> Void = { _ in }
  ) throws(Failure) -> Message {
    trace?.sent(line)
    let reply = try connection.exchange(line, awaiting: awaited, timeout: timeout) {
      (event) throws(Failure) in
      trace?.received(event)
      output.event(event)
      onEvent(event)
    }
    trace?.received(reply)
    if !quietReply || output.json || !reply.ok { output.reply(reply) }
    if let error = reply.error { throw .errorReply(code: error.code, message: error.message) }
    return reply
  }

  /// Sends a line the user wrote (`send`, `run`) as it is; its reply must echo the line's `id`
  /// (none if it has none, or Wire cannot read it) and is read as the reply to the op the line
  /// names, when Wire can read the line (else the daemon will say what is wrong, or is newer
  /// than this dynctl).
  @discardableResult
  func send(rawLine line: String) throws(Failure) -> Message {
    try send(line: line, awaiting: AwaitedReply(rawLine: line))
  }
}
