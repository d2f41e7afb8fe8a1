import ArgumentParser
import Glibc
import Wire

/// Options every command that talks to the daemon takes.
struct ConnectionOptions: ParsableArguments {
  @Option(help: "Socket path (default: $DYND_SOCKET, then the per-user runtime directory).")
  var socket: String?

  @Flag(name: [.short, .long], help: "Print the daemon's lines as JSON lines, verbatim.")
  var json = false

  @Option(help: "Seconds to wait for each reply.")
  var timeout: Double = 10

  func validate() throws {
    guard timeout.isFinite, timeout > 0 else {
      throw ValidationError("--timeout must be a positive number of seconds")
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

  /// Sends `request`, prints its events and (unless `quietReply`, for requests dynctl makes on
  /// its own account) its reply; throws `.errorReply` for an error reply.
  @discardableResult
  func request(
    _ request: JSONValue, quietReply: Bool = false, onEvent: (Message) -> Void = { _ in }
  ) throws(Failure) -> Message {
    try send(line: request.jsonText, quietReply: quietReply, onEvent: onEvent)
  }

  /// Sends one raw line, prints its events and reply; throws `.errorReply` for an error reply.
  @discardableResult
  func send(
    line: String, quietReply: Bool = false, onEvent: (Message) -> Void = { _ in }
  ) throws(Failure) -> Message {
    transcript?.sent(line)
    let reply = try connection.exchange(line, timeout: timeout) { (event) throws(Failure) in
      transcript?.received(event.text)
      output.event(event)
      onEvent(event)
    }
    transcript?.received(reply.text)
    if !quietReply || output.json || !reply.ok { output.reply(reply) }
    if let error = reply.error { throw .errorReply(code: error.code, message: error.message) }
    return reply
  }
}

/// A request object: `op`, then the fields that are not nil, in order.
func request(_ op: String, _ fields: KeyValuePairs<String, JSONValue?>) -> JSONValue {
  var members = [JSONMember(name: "op", value: .string(op))]
  for (name, value) in fields {
    if let value { members.append(JSONMember(name: name, value: value)) }
  }
  return .object(members)
}

extension Optional where Wrapped == Double {
  var json: JSONValue? { map { .number($0) } }
}

extension Optional where Wrapped == String {
  var json: JSONValue? { map { .string($0) } }
}

/// Runs a command body, turning a `Failure` into its message on standard error and its exit
/// status.
func runReportingFailure(_ body: () throws(Failure) -> Void) throws {
  do {
    try body()
  } catch {
    complain(error.description)
    throw error.exitCode
  }
}
