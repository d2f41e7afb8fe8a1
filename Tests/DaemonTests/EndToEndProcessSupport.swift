import Foundation
import Glibc
import Testing

/// The `dynd` binary built next to this test bundle (same scratch directory).
enum DyndBinary {
  static var path: String {
    let bundle =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: bundle).deletingLastPathComponent().appendingPathComponent("dynd")
      .path
  }

  /// The path, or a failure saying how to build it.
  static func require() throws -> String {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw TestFailure("no dynd binary at \(path); build it with `swift build --product dynd`")
    }
    return path
  }

  /// The test process's environment without anything that would choose dynd's socket for it.
  static func environment(_ extra: [String: String] = [:]) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    for name in ["DYND_SOCKET", "XDG_RUNTIME_DIR", "LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] {
      environment[name] = nil
    }
    return environment.merging(extra) { $1 }
  }
}

/// A `dynd` child process started with Foundation's `Process`; its standard error goes to a file.
final class DyndProcess {
  let process = Process()
  private let errorPath: String

  init(
    arguments: [String], environment: [String: String] = DyndBinary.environment(),
    errorFile: String, outputFile: String? = nil
  ) throws {
    process.executableURL = URL(fileURLWithPath: try DyndBinary.require())
    process.arguments = arguments
    process.environment = environment
    errorPath = errorFile
    _ = FileManager.default.createFile(atPath: errorFile, contents: nil)
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorFile))
    if let outputFile {
      _ = FileManager.default.createFile(atPath: outputFile, contents: nil)
      process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputFile))
    } else {
      process.standardOutput = FileHandle.nullDevice
    }
    try process.run()
  }

  deinit {
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
  }

  var pid: pid_t { process.processIdentifier }

  /// What it wrote to standard error so far.
  var standardError: String {
    (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
  }

  /// Its exit status once it has exited normally; nil if it is still running after `timeout` or
  /// was killed by a signal.
  func exitStatus(within timeout: Duration = .seconds(10)) -> Int32? {
    _ = eventually(timeout: timeout) { !process.isRunning }
    guard !process.isRunning, process.terminationReason == .exit else { return nil }
    return process.terminationStatus
  }
}

/// Waits until something accepts connections on `path`.
func waitForListener(_ path: String, timeout: Duration = .seconds(10)) -> Bool {
  eventually(timeout: timeout) {
    guard let client = try? WireClient(path: path, name: "probe", recorder: nil) else {
      return false
    }
    client.close()
    return true
  }
}

/// A listening Unix stream socket bound at `path`, on a descriptor above 100 (so that it is not
/// already descriptor 3 in the child), close-on-exec.
func makeListeningSocket(at path: String) throws -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
  defer { close(fd) }
  let rc = try withSocketAddress(path) { bind(fd, $0, $1) }
  guard rc == 0, listen(fd, 16) == 0 else {
    throw TestFailure("bind/listen \(path): \(String(cString: strerror(errno)))")
  }
  let high = fcntl(fd, F_DUPFD_CLOEXEC, 100)
  guard high >= 0 else { throw TestFailure("fcntl: \(String(cString: strerror(errno)))") }
  return high
}

/// Starts `dynd --systemd` as systemd would: `socket` as descriptor 3, `LISTEN_FDS=1`, and
/// `LISTEN_PID` set to the child's own pid (a shell sets it to `$$`, then execs dynd in place).
func spawnSocketActivated(socket: Int32, errorFile: String) throws -> pid_t {
  let dynd = try DyndBinary.require()
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_adddup2(&actions, socket, 3)
  posix_spawn_file_actions_addopen(
    &actions, 2, errorFile, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  let arguments = ["/bin/sh", "-c", #"LISTEN_PID=$$ exec "$0" --systemd"#, dynd]
  let environment = DyndBinary.environment(["LISTEN_FDS": "1"]).map { "\($0.key)=\($0.value)" }
  let argv = arguments.map { strdup($0) } + [nil]
  let envp = environment.map { strdup($0) } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid: pid_t = 0
  let rc = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
  guard rc == 0 else { throw TestFailure("posix_spawn: \(String(cString: strerror(rc)))") }
  return pid
}

/// The exit status of child `pid` once it exits normally; nil after `timeout` (then it is killed)
/// or if a signal ended it.
func waitForChild(_ pid: pid_t, timeout: Duration = .seconds(10)) -> Int32? {
  var status: Int32 = 0
  if eventually(timeout: timeout, { waitpid(pid, &status, WNOHANG) == pid }) {
    // WIFEXITED / WEXITSTATUS, which Swift does not import as functions.
    return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
  }
  kill(pid, SIGKILL)
  _ = waitpid(pid, &status, 0)
  return nil
}
