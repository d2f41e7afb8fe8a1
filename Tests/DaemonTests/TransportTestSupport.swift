import Daemon
import Dispatch
import Foundation
import Glibc
import Testing

// Shared machinery for the Transport*Tests suites.
//
// Every test runs its own EventLoop on a dedicated thread (`LoopThread`): the loop and everything
// attached to it are created, used and released on that thread only, since libevent is used
// without thread support. The test thread talks to the daemon side only through ordinary client
// sockets (`TestClient`, with send/receive timeouts) and through `Shared` values, so no test can
// hang: socket calls time out, waits have a deadline, and each loop stops itself after a
// safety deadline.

/// A value written on the loop thread and read on the test thread. Every change wakes whoever
/// waits for a condition on it (`wait`), so waiting costs no polling.
final class Shared<Value: Sendable>: @unchecked Sendable {
  // @unchecked: `stored` is read and written only with `changed` locked.
  private let changed = NSCondition()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    changed.lock()
    defer { changed.unlock() }
    return stored
  }

  func set(_ newValue: Value) { update { $0 = newValue } }

  func update(_ body: (inout Value) -> Void) {
    changed.lock()
    defer { changed.unlock() }
    body(&stored)
    changed.broadcast()
  }

  /// Waits until `predicate` holds, checking it on each change; false if it did not within
  /// `timeout`.
  @discardableResult
  func wait(timeout: Duration = .seconds(10), until predicate: (Value) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: Double(timeout / .milliseconds(1)) / 1000)
    changed.lock()
    defer { changed.unlock() }
    while !predicate(stored) {
      guard changed.wait(until: deadline) else { return predicate(stored) }
    }
    return true
  }
}

extension Shared where Value == [ConnectionEvent] {
  func append(_ event: ConnectionEvent) { update { $0.append(event) } }
}

/// Runs an `EventLoop` on its own thread.
final class LoopThread: Sendable {
  private let trigger = Shared<Wakeup.Trigger?>(nil)
  private let finished = DispatchSemaphore(value: 0)
  /// Set if the safety deadline, not the test, stopped the loop.
  let hitDeadline = Shared(false)

  /// Starts the thread; `setup` runs on it before the loop does, and whatever it returns is kept
  /// alive until the loop ends, then released on that thread. Throws what `setup` threw.
  init(
    deadline: Duration = .seconds(30),
    setup: @escaping @Sendable (EventLoop) throws -> Any
  ) throws {
    SignalHandling.ignoreSIGPIPE()
    let ready = DispatchSemaphore(value: 0)
    let failure = Shared<String?>(nil)
    let trigger = self.trigger
    let finished = self.finished
    let hitDeadline = self.hitDeadline
    let thread = Thread {
      do {
        let loop = try EventLoop()
        let kept = try setup(loop)
        let wakeup = try Wakeup(loop: loop) { [unowned loop] in loop.stop() }
        let safety = OneShotTimer(loop: loop) { [unowned loop] _ in
          hitDeadline.set(true)
          loop.stop()
        }
        safety.schedule(after: deadline)
        trigger.set(wakeup.trigger)
        ready.signal()
        // Everything is released at the end of this scope, on this thread, before the loop.
        try withExtendedLifetime((kept, wakeup, safety)) { try loop.run() }
      } catch {
        failure.set("\(error)")
        ready.signal()
      }
      finished.signal()
    }
    thread.start()
    guard ready.wait(timeout: .now() + 10) == .success else {
      throw TestFailure("the loop thread did not start")
    }
    if let message = failure.value {
      _ = finished.wait(timeout: .now() + 10)
      throw TestFailure(message)
    }
  }

  /// Stops the loop from the test thread and waits for the thread to finish. Returns false if it
  /// did not finish in time or if the safety deadline had stopped it.
  @discardableResult
  func stop() -> Bool {
    trigger.value?.fire()
    let done = finished.wait(timeout: .now() + 10) == .success
    trigger.set(nil)
    return done && !hitDeadline.value
  }

  /// Waits for the loop to stop by itself (e.g. a test that calls `loop.stop`).
  @discardableResult
  func waitUntilStopped(timeout: Duration = .seconds(10)) -> Bool {
    let seconds = Double(timeout.components.seconds)
    return finished.wait(timeout: .now() + seconds) == .success && !hitDeadline.value
  }
}

struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Everything a connection told its delegate, in order.
enum ConnectionEvent: Equatable, Sendable {
  case line([UInt8])
  case lineTooLong
  case drained
  case endOfInput
  case closed(Connection.CloseReason)
  /// Something the test's behavior wrote, to check ordering.
  case note(String)

  var isClose: Bool {
    if case .closed = self { return true }
    return false
  }
}

/// A delegate that records every call and runs the test's behavior.
final class RecordingDelegate: ConnectionDelegate {
  let log: Shared<[ConnectionEvent]>
  var onLine: (Connection, [UInt8]) -> Void = { _, _ in }
  var onLineTooLong: (Connection) -> Void = { _ in }
  var onDrain: (Connection) -> Void = { _ in }
  var onEndOfInput: (Connection) -> Void = { $0.closeAfterFlush() }
  var onClose: (Connection, Connection.CloseReason) -> Void = { _, _ in }

  init(log: Shared<[ConnectionEvent]>) { self.log = log }

  func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer) {
    let bytes = Array(line)
    log.append(.line(bytes))
    onLine(connection, bytes)
  }

  func connectionLineTooLong(_ connection: Connection) {
    log.append(.lineTooLong)
    onLineTooLong(connection)
  }

  func connectionOutputDidDrain(_ connection: Connection) {
    log.append(.drained)
    onDrain(connection)
  }

  func connectionDidReachEndOfInput(_ connection: Connection) {
    log.append(.endOfInput)
    onEndOfInput(connection)
  }

  func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
    log.append(.closed(reason))
    onClose(connection, reason)
  }
}

/// A listener whose every connection gets a `RecordingDelegate` configured by `configure`.
func makeRecordingServer(
  loop: EventLoop, path: String, limits: Connection.Limits = Connection.Limits(),
  log: Shared<[ConnectionEvent]>,
  configure: @escaping (RecordingDelegate) -> Void = { _ in }
) throws -> Listener {
  try Listener(loop: loop, path: path) { fd, peer in
    let delegate = RecordingDelegate(log: log)
    configure(delegate)
    // The connection keeps itself (and its delegate) alive until it closes.
    _ = Connection(loop: loop, socket: fd, peer: peer, limits: limits, delegate: delegate)
  }
}

/// A blocking socket connected to `path`, with `timeout` on every send and receive.
func connectedUnixSocket(_ path: String, timeout: Duration) throws -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
  setSocketTimeout(fd, timeout)
  let rc = try withSocketAddress(path) { connect(fd, $0, $1) }
  guard rc == 0 else {
    let message = String(cString: strerror(errno))
    Glibc.close(fd)
    throw TestFailure("connect \(path): \(message)")
  }
  return fd
}

/// Sets the send and receive timeouts of `fd`.
func setSocketTimeout(_ fd: Int32, _ timeout: Duration) {
  let (seconds, attoseconds) = timeout.components
  var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
}

/// A blocking client socket with send and receive timeouts.
final class TestClient {
  private(set) var fd: Int32
  private var buffered: [UInt8] = []

  init(path: String, timeout: Duration = .seconds(5)) throws {
    fd = try connectedUnixSocket(path, timeout: timeout)
  }

  deinit { close() }

  /// Closes the socket (idempotent).
  func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }

  func write(_ text: String) throws { try write(Array(text.utf8)) }

  /// Waits until there is something to read (or the peer has gone); false after `timeout`.
  func waitForInput(timeout: Duration = .seconds(5)) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, Int32(timeout / .milliseconds(1))) == 1
  }

  func write(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { throw TestFailure("write: \(String(cString: strerror(errno)))") }
      offset += n
    }
  }

  /// The next line without its newline, or nil at EOF.
  func readLine() throws -> [UInt8]? {
    while true {
      if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
        let line = Array(buffered[..<newline])
        buffered.removeSubrange(...newline)
        return line
      }
      guard try fill() else { return nil }
    }
  }

  func readLineString() throws -> String? {
    try readLine().map { String(decoding: $0, as: UTF8.self) }
  }

  /// Everything until EOF (a reset counts as EOF).
  func readToEnd() throws -> [UInt8] {
    while try fill() {}
    defer { buffered = [] }
    return buffered
  }

  func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

  /// Reads once into the buffer; false at EOF or reset, throws on timeout.
  private func fill() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if n > 0 {
      buffered.append(contentsOf: chunk[..<n])
      return true
    }
    if n == 0 || errno == ECONNRESET { return false }
    throw TestFailure("read: \(String(cString: strerror(errno)))")
  }
}

/// Closes `client` and waits until the daemon side has closed as many connections as `closes`,
/// so no connection (which keeps itself and its loop alive while open) outlives the test.
@discardableResult
func hangUp(_ client: TestClient, log: Shared<[ConnectionEvent]>, closes: Int = 1) -> Bool {
  client.close()
  return log.wait { $0.filter(\.isClose).count >= closes }
}

/// Calls `body` with a `sockaddr_un` for `path`.
func withSocketAddress<R>(
  _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
) throws -> R {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  let bytes = Array(path.utf8)
  guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
    throw TestFailure("path too long for a test socket: \(path)")
  }
  withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
  return withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}

/// A fresh private directory under /tmp, removed by `removeTemporaryDirectory`.
func makeTemporaryDirectory() throws -> String {
  var template = Array("/tmp/dyndt.XXXXXX".utf8CString)
  guard let result = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
    throw TestFailure("mkdtemp: \(String(cString: strerror(errno)))")
  }
  let path = String(cString: result)
  chmod(path, 0o700)
  return path
}

func removeTemporaryDirectory(_ path: String) {
  try? FileManager.default.removeItem(atPath: path)
}

/// A socket file left behind by a daemon that died: bound, then closed without unlinking.
func makeStaleSocket(at path: String) throws {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  defer { Glibc.close(fd) }
  let rc = try withSocketAddress(path) { bind(fd, $0, $1) }
  guard rc == 0 else { throw TestFailure("bind \(path): \(String(cString: strerror(errno)))") }
}

/// `lstat` of a path, or nil.
func fileStatus(_ path: String) -> stat? {
  var info = stat()
  return lstat(path, &info) == 0 ? info : nil
}
