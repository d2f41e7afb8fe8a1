import DaemonSocket
import Glibc
import JSON
import Wire

/// One line the daemon wrote: its text as received (what `--json` prints and traces keep) and
/// what it says, typed.
struct Message {
  let text: String
  let content: ServerMessage

  var isReply: Bool { content.isReply }
  /// The `ev` word of an event; nil for a reply.
  var event: String? { content.eventName }
  /// Which event this is, if it is one this dynctl knows.
  var eventKind: EventName? {
    guard case .event(let event) = content else { return nil }
    return event.kind
  }
  var session: String? { content.session }
  /// The `code` and `message` of an error reply.
  var error: (code: String, message: String)? { content.error }
  /// Whether this is a reply that says `ok`.
  var ok: Bool { content.replyBody != nil }
}

/// The request a reply must answer: its `id` (nil when it has none) and op (to read the reply's
/// body as, `ServerMessageDecoder`; nil for a raw line Wire cannot read).
struct AwaitedReply {
  let id: RequestID?
  let op: (any OpRequest.Type)?

  init(id: RequestID?, op: (any OpRequest.Type)?) {
    self.id = id
    self.op = op
  }

  /// What answers a line the user wrote, sent as it is: a reply echoing its `id` (none if it has
  /// none, or if Wire cannot read it), read as the reply to the op it names if Wire can read it.
  init(rawLine line: String) {
    do throws(RejectedRequest) {
      let request = try RequestDecoder().decode(line)
      self.init(id: request.id, op: request.op.kind)
    } catch {
      self.init(id: error.id, op: nil)
    }
  }

  /// Whether `message`, a reply, answers this request: it echoes the id, or it is an error
  /// reply without one (the daemon could not read the request's id, PROTOCOL.md section 3).
  func isAnswered(by message: ServerMessage) -> Bool {
    switch message {
    case .reply(let reply):
      if reply.id == nil, case .failure = reply.result { return true }
      return reply.id == id
    case .unknownError(let echoed, _, _):
      return echoed == nil || echoed == id
    case .event, .unknownEvent:
      return false
    }
  }
}

/// A blocking connection to dynd that writes request lines and reads reply and event lines,
/// every write and read bounded by a deadline (none while watching). Each request dynctl makes
/// carries an `id` (1, 2, … per connection) and a reply must echo it.
final class DaemonConnection {
  let path: String
  private let fd: Int32
  /// The longest line read: 64 MiB, the most `dynd --max-line` allows and far more than any
  /// line dynd writes (its replies and events are bounded, PROTOCOL.md section 12). A longer
  /// one is refused as soon as that many bytes came without a newline.
  static let maxLineBytes = 64 << 20
  /// How much of an offending line an error message quotes.
  static let quotedBytes = 200
  private var reader = LineReader(maxLineBytes: DaemonConnection.maxLineBytes)
  private var chunk = [UInt8](repeating: 0, count: 65536)
  private let decoder = ServerMessageDecoder()
  private var lastID = 0

  /// Connects to the socket at `path`; throws `.unreachable` with the reason, and `.untrusted`
  /// (before anything is sent) unless the daemon runs as `userID` or root (`SocketTrust`).
  init(path: String, userID: uid_t = getuid()) throws(Failure) {
    self.path = path
    switch TrustedSocket.connect(path: path, userID: userID) {
    case .success(let fd): self.fd = fd
    case .failure(.unreachable(let path, let reason)):
      throw .unreachable(path: path, reason: reason)
    case .failure(.untrusted(let sentence)): throw .untrusted(sentence)
    }
  }

  deinit { close(fd) }

  /// The id of this connection's next request.
  func nextID() -> RequestID {
    lastID += 1
    return .number(String(lastID))
  }

  /// Writes `line` and a newline, all of it before the monotonic clock passes `deadline`
  /// (nil: no limit): a daemon that does not read cannot hold dynctl.
  func send(_ line: String, deadline: Double?, timeout: Double?) throws(Failure) {
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    var offset = 0
    while offset < bytes.count {
      guard try wait(for: Int16(POLLOUT), until: deadline) else {
        throw .protocolFailure(
          "the daemon did not take the request within \(timeout ?? 0) s (\(offset) of "
            + "\(bytes.count) bytes sent): it is not reading")
      }
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
      }
      if written < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .protocolFailure("writing to the daemon failed: \(Self.lastError())")
      }
      offset += written
    }
  }

  /// Waits until the socket is ready for `events`; false once `deadline` passed first.
  private func wait(for events: Int16, until deadline: Double?) throws(Failure) -> Bool {
    while true {
      var wait: Int32 = -1
      if let deadline {
        let left = deadline - monotonicSeconds()
        guard left > 0 else { return false }
        wait = Int32(min(left * 1000, 86_400_000).rounded(.up))
      }
      var poller = pollfd(fd: fd, events: events, revents: 0)
      let ready = poll(&poller, 1, wait)
      if ready < 0 {
        if errno == EINTR { continue }
        throw .protocolFailure("waiting for the daemon failed: \(Self.lastError())")
      }
      if ready > 0 { return true }
    }
  }

  /// What `receive` got.
  enum Received {
    case message(Message)
    case endOfInput
    case timedOut
  }

  /// The next line, unless the daemon closes the connection or the monotonic clock passes
  /// `deadline` (seconds, as `monotonicSeconds()`) first; nil waits for ever. A reply must
  /// answer `awaited` (read as the reply to its op); a reply while no request waits (nil) is a
  /// protocol failure too.
  func receive(deadline: Double?, awaiting awaited: AwaitedReply? = nil) throws(Failure)
    -> Received
  {
    while true {
      switch reader.nextLine() {
      case .line(let bytes)?:
        let content: ServerMessage
        do throws(ProtocolError) {
          content = try decoder.decode(bytes, answering: awaited?.op)
        } catch  where error.code == .badJSON || error.code == .invalidNumber {
          throw .protocolFailure(
            "the daemon wrote a line that is not JSON: \(Self.quote(bytes))")
        } catch {
          throw .protocolFailure(
            "the daemon wrote a line dynctl cannot read (\(error)): \(Self.quote(bytes))")
        }
        if content.isReply {
          guard let awaited else {
            throw .protocolFailure(
              "the daemon wrote a reply while no request was waiting: \(Self.quote(bytes))")
          }
          guard awaited.isAnswered(by: content) else {
            throw .protocolFailure(
              "the daemon answered request \(awaited.id.map(Self.text) ?? "(without id)") with "
                + "a reply \(content.requestID.map { "to request \(Self.text($0))" } ?? "without id"): "
                + Self.quote(bytes))
          }
        }
        return .message(Message(text: String(decoding: bytes, as: UTF8.self), content: content))
      case .tooLong?:
        throw .protocolFailure(
          "the daemon wrote a line longer than \(reader.maxLineBytes) bytes")
      case nil:
        break
      }
      guard try wait(for: Int16(POLLIN), until: deadline) else { return .timedOut }
      let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw .protocolFailure("reading from the daemon failed: \(Self.lastError())")
      }
      if count == 0 {
        guard reader.pendingByteCount == 0 else {
          throw .protocolFailure("the daemon closed the connection in the middle of a line")
        }
        return .endOfInput
      }
      chunk.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
  }

  /// Sends one request line and reads up to its reply, which must answer `awaited`: every
  /// event before it goes to `onEvent`. The reply is returned whether ok or not. Sending and
  /// reading together take at most `timeout` seconds.
  func exchange(
    _ line: String, awaiting awaited: AwaitedReply, timeout: Double?,
    onEvent: (Message) throws(Failure) -> Void
  ) throws(Failure) -> Message {
    let deadline = timeout.map { monotonicSeconds() + $0 }
    try send(line, deadline: deadline, timeout: timeout)
    while true {
      switch try receive(deadline: deadline, awaiting: awaited) {
      case .message(let message) where message.isReply: return message
      case .message(let event): try onEvent(event)
      case .endOfInput:
        throw .protocolFailure("the daemon closed the connection before answering")
      case .timedOut:
        throw .protocolFailure("no answer from the daemon within \(timeout ?? 0) s")
      }
    }
  }

  /// At most `quotedBytes` of an offending line, marked when cut (the message goes through
  /// `TerminalText.safe` before it is printed).
  static func quote(_ line: [UInt8]) -> String {
    let shown = String(decoding: line.prefix(quotedBytes), as: UTF8.self)
    return line.count <= quotedBytes ? shown : "\(shown)…(cut: \(line.count) bytes)"
  }

  /// An id as the daemon wrote it.
  static func text(_ id: RequestID) -> String {
    switch id {
    case .string(let text): return JSONValue.string(text).jsonText
    case .number(let text): return text
    }
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}

extension ServerMessage {
  /// The id a reply echoes; nil for events and replies without one.
  var requestID: RequestID? {
    switch self {
    case .reply(let reply): return reply.id
    case .unknownError(let id, _, _): return id
    case .event, .unknownEvent: return nil
    }
  }
}
