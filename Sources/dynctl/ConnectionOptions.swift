import ArgumentParser
import DaemonSocket
import Glibc
import JSON
import Primitives
import Wire

/// Options every command that talks to the daemon takes.
struct ConnectionOptions: ParsableArguments {
  @Option(help: "Socket path (default: $DYND_SOCKET, then the per-user runtime directory).")
  var socket: String?

  @Flag(name: [.short, .long], help: "Print the daemon's lines as JSON lines, verbatim.")
  var json = false

  @Option(
    parsing: .unconditional,
    help: "Seconds each request may take: sending it and reading up to its reply.")
  var timeout: Double = 10

  func validate() throws {
    guard timeout.isFinite, timeout > 0 else {
      throw ValidationError(
        "--timeout \(JSONValue.number(timeout).jsonText): must be a positive number of seconds")
    }
  }

  /// Connects to the daemon, once the socket's directory (if dynctl chose it) and the daemon's
  /// uid are trusted (`SocketTrust`).
  func connect() throws(Failure) -> DaemonClient {
    let location = SocketLocation.resolve(flag: socket)
    if let directory = location.privateDirectory,
      let fault = SocketTrust.directoryFault(directory, userID: getuid())
    {
      throw .untrusted(fault)
    }
    return DaemonClient(
      connection: try DaemonConnection(path: location.path), output: Output(json: json),
      timeout: timeout, transcript: nil)
  }
}

/// A connection and the output its lines go to.
struct DaemonClient {
  let connection: DaemonConnection
  var output: Output
  let timeout: Double
  /// Records every line sent and received (`dynctl record`).
  var transcript: Transcript?

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
      guard case .list(let page) = try request(.list(ListRequest(from: from)), quietReply: true)
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
    transcript?.sent(line)
    let reply = try connection.exchange(line, awaiting: awaited, timeout: timeout) {
      (event) throws(Failure) in
      transcript?.received(event)
      output.event(event)
      onEvent(event)
    }
    transcript?.received(reply)
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

extension Double {
  /// The number as dynctl has always sent it: with at most 9 decimals (what
  /// `JSONValue.jsonText` writes), so that the daemon gets the same values as before requests
  /// were typed, and traces keep the same text. A non-finite number becomes 0, which is what
  /// was sent for it.
  var asSent: Double { Double(JSONValue.number(self).jsonText) ?? 0 }
}

extension PairArgument {
  var point: Point { Point(x: x.asSent, y: y.asSent) }
  var vector: Vector { Vector(dx: x.asSent, dy: y.asSent) }
}

/// Transition parameters from `NAME=VALUE` arguments, VALUE read as JSON if it parses, else as
/// a string; checked as the daemon checks `params` (a failure is reported as the daemon's
/// error reply would have been).
func transitionParams(_ arguments: [String]) throws(Failure) -> TransitionParams {
  guard !arguments.isEmpty else { return TransitionParams() }
  let members = arguments.map { text in
    let name = String(text.prefix { $0 != "=" })
    let raw = String(text.drop { $0 != "=" }.dropFirst())
    let value = (try? JSONParser().parse(raw)) ?? .string(raw)
    return JSONMember(name: name, value: value)
  }
  do throws(ProtocolError) {
    return try TransitionParams(json: .object(members))
  } catch {
    throw .errorReply(code: error.code.rawValue, message: error.message)
  }
}

/// Runs a command body, turning a `Failure` into its message on standard error and its exit
/// status.
func runReportingFailure(_ body: () throws(Failure) -> Void) throws {
  do {
    try body()
  } catch {
    if case .verdictWritten = error {} else { complain(error.description) }
    throw error.exitCode
  }
}
