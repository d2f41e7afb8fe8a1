import Glibc

/// Why a socket benchmark could not go on: a sentence for the user.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A blocking client of a Unix stream socket speaking newline-terminated lines.
///
/// The hot path (`send` of prepared bytes, `readLine`) allocates nothing, so the same code can
/// time both the daemon and the bare echo floor.
final class LineSocket {
  let fd: Int32
  private let buffer: UnsafeMutableRawBufferPointer
  /// Unread input is `buffer[start..<end]`.
  private var start = 0
  private var end = 0

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
    buffer = .allocate(byteCount: bufferSize, alignment: 16)
  }

  deinit {
    Glibc.close(fd)
    buffer.deallocate()
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

  /// Writes `line` plus a newline.
  func send(line: String) throws(BenchError) {
    let bytes = Array((line + "\n").utf8)
    let sent = bytes.withUnsafeBytes { raw in (try? send(raw)) != nil }
    guard sent else { throw BenchError("write(): \(errnoText())") }
  }

  /// Reads up to the next newline; returns the line's bytes (valid until the next read).
  @discardableResult
  func readLine() throws(BenchError) -> UnsafeRawBufferPointer {
    while true {
      if start < end, let nl = memchr(buffer.baseAddress! + start, 0x0A, end - start) {
        let length = buffer.baseAddress!.distance(to: nl) - start
        let line = UnsafeRawBufferPointer(rebasing: buffer[start..<(start + length)])
        start += length + 1
        return line
      }
      if start > 0 {
        memmove(buffer.baseAddress!, buffer.baseAddress! + start, end - start)
        end -= start
        start = 0
      }
      guard end < buffer.count else { throw BenchError("a line longer than the buffer") }
      let n = read(fd, buffer.baseAddress! + end, buffer.count - end)
      guard n > 0 else { throw BenchError(n == 0 ? "the server closed" : "read(): \(errnoText())") }
      end += n
    }
  }

  /// Makes reads return at once when nothing is there (for `readAvailable`).
  func setNonBlocking() {
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  }

  /// One `read` of whatever is there, then `body` for each complete line. Returns false when
  /// the peer closed or the socket failed.
  func readAvailable(_ body: (UnsafeRawBufferPointer) -> Void) -> Bool {
    if start > 0 {
      memmove(buffer.baseAddress!, buffer.baseAddress! + start, end - start)
      end -= start
      start = 0
    }
    let n = read(fd, buffer.baseAddress! + end, buffer.count - end)
    if n < 0 { return errno == EAGAIN || errno == EINTR }
    if n == 0 { return false }
    end += n
    while start < end, let nl = memchr(buffer.baseAddress! + start, 0x0A, end - start) {
      let length = buffer.baseAddress!.distance(to: nl) - start
      body(UnsafeRawBufferPointer(rebasing: buffer[start..<(start + length)]))
      start += length + 1
    }
    return end - start < buffer.count
  }

  /// Reads lines until a reply (a line with `"ok":`), skipping events; throws on `"ok":false`.
  @discardableResult
  func readReply() throws(BenchError) -> String {
    while true {
      let line = String(decoding: try readLine(), as: UTF8.self)
      if line.hasPrefix("{\"ok\":true") { return line }
      if line.hasPrefix("{\"ok\":false") { throw BenchError("the daemon refused: \(line)") }
    }
  }

  /// Sends one request and returns its reply.
  @discardableResult
  func request(_ line: String) throws(BenchError) -> String {
    try send(line: line)
    return try readReply()
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
