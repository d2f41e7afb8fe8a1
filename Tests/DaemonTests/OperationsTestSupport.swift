import Foundation
import Glibc
import Testing

// Shared machinery for the operations suites (resource limits, signals, socket activation,
// lingering close): a dynd child started through /bin/sh (so a test can lower its limits or set
// LISTEN_PID to the child's own pid) and a raw client that tells end of file from a reset.

/// A `dynd` child started as `/bin/sh -c "PREFIX exec dynd ARGUMENTS"`, with standard error in a
/// file. Killed (SIGKILL) and reaped on deinit if still running.
final class SpawnedDynd {
  let pid: pid_t
  let errorFile: String
  private var reaped = false

  /// - Parameters:
  ///   - shellPrefix: shell text run before the `exec`, e.g. `ulimit -n 24 &&` or `LISTEN_PID=$$`.
  ///   - passing: a descriptor to pass as descriptor 3 (socket activation).
  init(
    arguments: [String], shellPrefix: String = "", environment: [String: String] = [:],
    passing socket: Int32? = nil, errorFile: String
  ) throws {
    let dynd = try DyndBinary.require()
    self.errorFile = errorFile
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let socket { posix_spawn_file_actions_adddup2(&actions, socket, 3) }
    // The test process has descriptors without FD_CLOEXEC (the test runner's); dynd must start
    // with only its own, or a lowered open-file limit would already be spent. (Glibc does not
    // import posix_spawn_file_actions_addclosefrom_np; closing a descriptor that is not open is
    // not an error for posix_spawn.)
    for fd in Int32(socket == nil ? 3 : 4)..<1024 {
      posix_spawn_file_actions_addclose(&actions, fd)
    }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let script = #"\#(shellPrefix) exec "$0" "$@""#
    let argv = (["/bin/sh", "-c", script, dynd] + arguments).map { strdup($0) } + [nil]
    let envp =
      DyndBinary.environment(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv + envp { free(pointer) }
    }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
    guard rc == 0 else { throw TestFailure("posix_spawn: \(String(cString: strerror(rc)))") }
    self.pid = pid
  }

  deinit {
    if !reaped {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
    }
  }

  /// What it wrote to standard error so far.
  var standardError: String {
    (try? String(contentsOfFile: errorFile, encoding: .utf8)) ?? ""
  }

  /// Lines of standard error containing `text`.
  func errorLines(containing text: String) -> [Substring] {
    standardError.split(separator: "\n").filter { $0.contains(text) }
  }

  /// Whether the process is still running (not exited, not a zombie).
  var isRunning: Bool {
    guard !reaped else { return false }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid {
      reaped = true
      exitedStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
      signalled = status & 0x7F == 0 ? nil : status & 0x7F
      return false
    }
    return true
  }

  /// The exit status once it exited, nil if a signal ended it.
  private(set) var exitedStatus: Int32?
  /// The signal that ended it, if one did.
  private(set) var signalled: Int32?

  /// Its exit status once it exits normally; nil after `timeout` (it is then killed) or if a
  /// signal ended it.
  func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
    guard eventually(timeout: timeout, { !isRunning }) else {
      kill(pid, SIGKILL)
      var status: Int32 = 0
      _ = waitpid(pid, &status, 0)
      reaped = true
      return nil
    }
    return exitedStatus
  }

  /// Waits until `text` appears on its standard error.
  func waitForError(_ text: String, timeout: Duration = .seconds(10)) -> Bool {
    eventually(timeout: timeout) { standardError.contains(text) }
  }
}

/// How a read on a `RawClient` ended.
enum ReadEnding: Equatable, CustomStringConvertible {
  /// The peer closed cleanly (read returned 0).
  case endOfFile
  /// `ECONNRESET`: the peer closed with input unread.
  case reset
  /// Nothing arrived within the receive timeout.
  case timeout
  /// Another errno.
  case error(Int32)

  var description: String {
    switch self {
    case .endOfFile: "end of file"
    case .reset: "connection reset"
    case .timeout: "timeout"
    case .error(let code): String(cString: strerror(code))
    }
  }
}

/// A blocking Unix stream client with send and receive timeouts, reporting errors as they are.
final class RawClient {
  private(set) var fd: Int32

  init(path: String, timeout: Duration = .seconds(5)) throws {
    fd = try connectedUnixSocket(path, timeout: timeout)
  }

  deinit { close() }

  func setTimeout(_ timeout: Duration) { setSocketTimeout(fd, timeout) }

  func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }

  /// Writes all of `bytes` (blocking, with the send timeout); the errno of the first failure.
  @discardableResult
  func write(_ bytes: [UInt8]) -> Int32? {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { return errno }
      offset += n
    }
    return nil
  }

  @discardableResult
  func write(_ text: String) -> Int32? { write(Array(text.utf8)) }

  /// Writes what the socket takes now, without blocking: the count, or the errno.
  /// Waits until a write would not block (or the peer has gone), at most `timeout`.
  func waitUntilWritable(timeout: Duration) {
    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    _ = poll(&entry, 1, Int32(timeout / .milliseconds(1)))
  }

  func writeWithoutBlocking(_ bytes: [UInt8]) -> Result<Int, Errno> {
    let n = bytes.withUnsafeBytes {
      Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }
    if n >= 0 { return .success(n) }
    if errno == EAGAIN { return .success(0) }
    return .failure(Errno(errno))
  }

  /// Reads until the stream ends (or the receive timeout passes): everything read, and how it
  /// ended.
  func readToEnd() -> (bytes: [UInt8], ending: ReadEnding) {
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        received += chunk[..<n]
        continue
      }
      if n == 0 { return (received, .endOfFile) }
      switch errno {
      case EINTR: continue
      case ECONNRESET: return (received, .reset)
      case EAGAIN: return (received, .timeout)
      case let code: return (received, .error(code))
      }
    }
  }

  /// Reads one line (without its newline); nil and how the stream ended if it ended first.
  func readLine() -> (line: String?, ending: ReadEnding?) {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let n = read(fd, &byte, 1)
      if n == 1 {
        if byte == UInt8(ascii: "\n") { return (String(decoding: line, as: UTF8.self), nil) }
        line.append(byte)
        continue
      }
      if n == 0 { return (nil, .endOfFile) }
      switch errno {
      case EINTR: continue
      case ECONNRESET: return (nil, .reset)
      case EAGAIN: return (nil, .timeout)
      case let code: return (nil, .error(code))
      }
    }
  }
}

/// An errno value as an `Error`.
struct Errno: Error, Equatable {
  let code: Int32
  init(_ code: Int32) { self.code = code }
}

/// A Swift Testing trait condition: the dynd binary was built.
var dyndIsBuilt: Bool { FileManager.default.isExecutableFile(atPath: DyndBinary.path) }
