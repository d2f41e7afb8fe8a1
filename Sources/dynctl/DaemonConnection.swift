import DaemonSocket
import Glibc
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

/// A blocking connection to dynd that writes request lines and reads reply and event lines,
/// every read bounded by a deadline (none while watching).
final class DaemonConnection {
  let path: String
  private let fd: Int32
  /// Splits what the daemon writes into lines; lines are limited only to keep a broken daemon
  /// from exhausting memory (a debug event of a large scene runs to megabytes).
  private var reader = LineReader(maxLineBytes: 1 << 28)
  private var chunk = [UInt8](repeating: 0, count: 65536)
  private let decoder = ServerMessageDecoder()

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

  /// Writes `line` and a newline.
  func send(_ line: String) throws(Failure) {
    var bytes = Array(line.utf8)
    bytes.append(UInt8(ascii: "\n"))
    var offset = 0
    while offset < bytes.count {
      let written = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw .protocolFailure("writing to the daemon failed: \(Self.lastError())")
      }
      offset += written
    }
  }

  /// What `receive` got.
  enum Received {
    case message(Message)
    case endOfInput
    case timedOut
  }

  /// The next line, unless the daemon closes the connection or the monotonic clock passes
  /// `deadline` (seconds, as `monotonicSeconds()`) first; nil waits for ever. A reply is read as
  /// the reply to `op` when given (`ServerMessageDecoder`).
  func receive(deadline: Double?, answering op: OpName? = nil) throws(Failure) -> Received {
    while true {
      switch reader.nextLine() {
      case .line(let bytes)?:
        let text = String(decoding: bytes, as: UTF8.self)
        do throws(ProtocolError) {
          return .message(Message(text: text, content: try decoder.decode(bytes, answering: op)))
        } catch  where error.code == .badJSON || error.code == .invalidNumber {
          throw .protocolFailure("the daemon wrote a line that is not JSON: \(text)")
        } catch {
          throw .protocolFailure("the daemon wrote a line dynctl cannot read (\(error)): \(text)")
        }
      case .tooLong?:
        throw .protocolFailure(
          "the daemon wrote a line longer than \(reader.maxLineBytes) bytes")
      case nil:
        break
      }
      var wait: Int32 = -1
      if let deadline {
        let left = deadline - monotonicSeconds()
        guard left > 0 else { return .timedOut }
        wait = Int32(min(left * 1000, 86_400_000).rounded(.up))
      }
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, wait)
      if ready < 0 {
        if errno == EINTR { continue }
        throw .protocolFailure("waiting for the daemon failed: \(Self.lastError())")
      }
      if ready == 0 { continue }
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

  /// Sends one request line and reads up to its reply (read as the reply to `op`): every event
  /// before it goes to `onEvent`. The reply is returned whether ok or not.
  func exchange(
    _ line: String, answering op: OpName?, timeout: Double?,
    onEvent: (Message) throws(Failure) -> Void
  ) throws(Failure) -> Message {
    try send(line)
    let deadline = timeout.map { monotonicSeconds() + $0 }
    while true {
      switch try receive(deadline: deadline, answering: op) {
      case .message(let message) where message.isReply: return message
      case .message(let event): try onEvent(event)
      case .endOfInput:
        throw .protocolFailure("the daemon closed the connection before answering")
      case .timedOut:
        throw .protocolFailure("no answer from the daemon within \(timeout ?? 0) s")
      }
    }
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
