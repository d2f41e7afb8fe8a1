import Glibc
import Wire

/// Why a socket benchmark could not go on: a sentence for the user.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A blocking client of a Unix stream socket speaking newline-terminated lines, split by
/// `Wire.LineReader`.
///
/// Once its buffers have grown, the hot path (`send` of prepared bytes, `readLine`) allocates
/// nothing, so the same code can time both the daemon and the bare echo floor.
final class LineSocket {
  let fd: Int32
  private var reader: LineReader
  /// What one `read` fills before the reader takes it.
  private let chunk: UnsafeMutableRawBufferPointer
  private var decoder: ServerMessageDecoder?

  /// Connects to `path`, retrying for up to `patience` while the server starts. Lines may be up
  /// to `bufferSize` bytes.
  init(path: String, patience: Duration = .seconds(5), bufferSize: Int = 1 << 20)
    throws(BenchError)
  {
    let deadline = ContinuousClock.now + patience
    var fd: Int32 = -1
    while true {
      fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else { throw BenchError("socket(): \(errnoText())") }
      if connectUnix(fd, path) == 0 { break }
      let code = errno
      Glibc.close(fd)
      guard (code == ENOENT || code == ECONNREFUSED) && ContinuousClock.now < deadline else {
        throw BenchError("cannot connect to \(path): \(String(cString: strerror(code)))")
      }
      usleep(5_000)
    }
    self.fd = fd
    reader = LineReader(maxLineBytes: bufferSize)
    chunk = .allocate(byteCount: min(bufferSize, 64 << 10), alignment: 16)
  }

  deinit {
    Glibc.close(fd)
    chunk.deallocate()
  }

  /// Writes all of `bytes`.
  func send(_ bytes: UnsafeRawBufferPointer) throws(BenchError) {
    var offset = 0
    while offset < bytes.count {
      let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      guard n > 0 else { throw BenchError("write(): \(errnoText())") }
      offset += n
    }
  }

  /// Writes `request` as one line (`RequestEncoder`).
  func send(_ request: Request) throws(BenchError) {
    var encoder = RequestEncoder()
    encoder.encode(request)
    let sent = encoder.bytes.withUnsafeBytes { raw in (try? send(raw)) != nil }
    guard sent else { throw BenchError("write(): \(errnoText())") }
  }

  /// Reads up to the next newline and lends the line's bytes to `body`.
  func readLine<Result>(_ body: (UnsafeRawBufferPointer) -> Result) throws(BenchError) -> Result {
    while true {
      switch reader.withNextLine(body) {
      case .line(let result)?: return result
      case .tooLong?: throw BenchError("a line longer than the buffer")
      case nil: break
      }
      let n = read(fd, chunk.baseAddress!, chunk.count)
      guard n > 0 else { throw BenchError(n == 0 ? "the server closed" : "read(): \(errnoText())") }
      reader.append(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
    }
  }

  /// Makes reads return at once when nothing is there (for `readAvailable`).
  func setNonBlocking() {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  /// One `read` of whatever is there, then `body` for each complete line. Returns false when
  /// the peer closed or the socket failed.
  func readAvailable(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
    let n = read(fd, chunk.baseAddress!, chunk.count)
    if n < 0 { return errno == EAGAIN || errno == EINTR }
    if n == 0 { return false }
    reader.append(UnsafeRawBufferPointer(rebasing: chunk[..<n]))
    while true {
      switch reader.withNextLine(body) {
      case .line?: continue
      case .tooLong?: return false
      case nil: return true
      }
    }
  }

  /// Reads lines until the reply to a request of `op`, skipping events; throws on an error
  /// reply.
  @discardableResult
  func readReply(answering op: any OpRequest.Type) throws(BenchError) -> ReplyBody {
    let decoder = self.decoder ?? ServerMessageDecoder()
    self.decoder = decoder
    while true {
      let (text, message) = try readLine { line in
        let message = Result { () throws(ProtocolError) in
          try decoder.decode(Array(line), answering: op)
        }
        return (String(decoding: line, as: UTF8.self), message)
      }
      switch message {
      case .success(let message) where message.isReply:
        guard let body = message.replyBody else {
          throw BenchError("the daemon refused: \(text)")
        }
        return body
      case .success:
        continue
      case .failure(let error):
        throw BenchError("the daemon wrote a line dynbench cannot read (\(error)): \(text)")
      }
    }
  }

  /// Sends one request and returns its reply's body.
  @discardableResult
  func request(_ request: Request) throws(BenchError) -> ReplyBody {
    try send(request)
    return try readReply(answering: request.op.kind)
  }

  /// Sends one request without an id.
  @discardableResult
  func request(_ op: Op) throws(BenchError) -> ReplyBody {
    try request(Request(id: nil, op: op))
  }
}

/// `connect` to a Unix socket path; returns connect's result (errno is set on failure).
func connectUnix(_ fd: Int32, _ path: String) -> Int32 {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    let bytes = Array(path.utf8.prefix(raw.count - 1))
    raw.copyBytes(from: bytes)
    raw[bytes.count] = 0
  }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}

func errnoText() -> String { String(cString: strerror(errno)) }

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
