import Foundation
import Glibc
import Synchronization
import Testing

private let reachableDirectoryToRemove = Mutex<String?>(nil)

/// Helpers for the tests of whom clients talk to: directories owned by other uids, fake
/// daemons running as other users, clients run as other users.
enum Trust {
  /// Root can chown files and run programs as other users; other runs skip those tests.
  static let isRoot = getuid() == 0
  static let needsRoot: Comment =
    "needs root: it chowns directories to other uids and runs programs as other users (setpriv)"
  /// The user a client runs as in the non-root tests, and "another user" whose daemon it meets.
  static let user: uid_t = 65534
  static let otherUser: uid_t = 65533
  /// A Python that every uid can run (pyenv shims under /root are not).
  static let python = "/usr/bin/python3"

  /// Copies of what other users run here (dynctl, the fake daemon, the Python example and the
  /// `dynd` package directory beside it, where the example finds it), in a directory everyone
  /// can enter: the checkout itself may not be (a clone in a 0700 `mktemp` directory, or under
  /// /root). Made once per test process, removed when it exits.
  static let reachable: String = {
    var template = Array("/tmp/dynctl-reachable.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    let directory = String(cString: made)
    chmod(directory, 0o755)
    let root = Binaries.packageRoot.path
    let sources = [
      (try? Binaries.path("dynctl")) ?? "", root + "/Tests/DynctlTests/scripts/fake_daemon.py",
      root + "/examples/clients/python/lock_screen.py", root + "/clients/python/dynd",
    ]
    for source in sources where !source.isEmpty {
      let copy = directory + "/" + URL(fileURLWithPath: source).lastPathComponent
      try? FileManager.default.copyItem(atPath: source, toPath: copy)
      chmod(copy, 0o755)
      // A directory's files: readable by everyone, whatever the checkout's umask gave them.
      for file in FileManager.default.subpaths(atPath: copy) ?? [] {
        chmod(copy + "/" + file, 0o755)
      }
    }
    reachableDirectoryToRemove.withLock { $0 = directory }
    atexit {
      if let directory = reachableDirectoryToRemove.withLock({ $0 }) {
        try? FileManager.default.removeItem(atPath: directory)
      }
    }
    return directory
  }()

  /// The copy of `name` in `reachable`.
  static func reachable(_ name: String) -> String { reachable + "/" + name }

  /// A fresh directory under /tmp, mode 0700, owned by the test's uid.
  static func temporaryDirectory(_ label: String) throws -> String {
    var template = Array("/tmp/dynctl-\(label).XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw DynctlTestFailure("mkdtemp failed") }
    return String(cString: made)
  }

  /// Makes `path` a directory with `mode` owned by `uid` (chmod after mkdir: the umask).
  static func makeDirectory(_ path: String, mode: mode_t, owner uid: uid_t? = nil) throws {
    guard mkdir(path, 0o700) == 0, chmod(path, mode) == 0 else {
      throw DynctlTestFailure("cannot make \(path): \(String(cString: strerror(errno)))")
    }
    if let uid { try chownOrFail(path, uid) }
  }

  static func chownOrFail(_ path: String, _ uid: uid_t) throws {
    guard chown(path, uid, gid_t(uid)) == 0 else {
      throw DynctlTestFailure("cannot chown \(path): \(String(cString: strerror(errno)))")
    }
  }

  /// `command` run as `uid` (and gid `uid`, no supplementary groups), or as it stands.
  static func asUser(_ uid: uid_t?, _ command: [String]) -> (String, [String]) {
    guard let uid else { return (command[0], Array(command.dropFirst())) }
    return (
      "/usr/bin/setpriv",
      ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"] + command
    )
  }

  /// Runs dynctl with `environment` as the variables it reads: in this process as the test's
  /// own user (`runDynctl`), or the binary as `uid` when given (with setpriv: a user is a
  /// process's, so only a process of that user shows what dynctl does as that user).
  static func dynctl(
    _ arguments: [String], as uid: uid_t? = nil, environment: [String: String] = [:],
    in directory: String
  ) throws -> RunResult {
    guard let uid else { return runDynctl(arguments, environment: environment) }
    let (program, rest) = asUser(uid, [reachable("dynctl")] + arguments)
    return try runProgram(
      program, rest, environment: cleanEnvironment(environment), in: directory)
  }

  /// Runs the dynctl binary as the test's own user, with `environment` as the variables it
  /// reads: for what the process writes to its descriptors.
  static func dynctlBinary(
    _ arguments: [String], environment: [String: String] = [:], in directory: String
  ) throws -> RunResult {
    try runProgram(
      try Binaries.path("dynctl"), arguments, environment: cleanEnvironment(environment),
      in: directory)
  }
}

/// `Tests/DynctlTests/scripts/fake_daemon.py`, started as `uid` (another user's daemon) or as
/// the test's own uid: it listens on `socket`, answers each line with `replies` (or never), or
/// the Nth line with the Nth reply of the conversation in the file `script` (with the events
/// before it), and logs connections and the bytes each sent.
final class FakeDaemon {
  let socket: String
  let log: String
  private let process = Process()

  init(socket: String, as uid: uid_t? = nil, replies: [String] = [], script: String? = nil)
    throws
  {
    self.socket = socket
    log = socket + ".log"
    // The log sits beside the socket, in a directory the daemon's user can write.
    guard FileManager.default.createFile(atPath: log, contents: nil), chmod(log, 0o666) == 0
    else { throw DynctlTestFailure("cannot create \(log)") }
    let fakeDaemon = Trust.reachable("fake_daemon.py")
    let (program, arguments) = Trust.asUser(
      uid,
      [Trust.python, fakeDaemon, socket, log] + replies.flatMap { ["--reply", $0] }
        + (script.map { ["--script", $0] } ?? []))
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.environment = cleanEnvironment()
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(10)
    while !lines.contains("listening") {
      guard ContinuousClock.now < deadline, process.isRunning else {
        throw DynctlTestFailure("the fake daemon did not start on \(socket)")
      }
      usleep(10_000)
    }
  }

  deinit {
    // SIGKILL: it has nothing to clean up, and the test runner's blocked signals are inherited.
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  var lines: [String] {
    ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(
      String.init)
  }

  /// What clients did, once every connection is closed (and at least `expected` were made): how
  /// many connected and the bytes they sent in all.
  func received(connections expected: Int = 0) throws -> (connections: Int, bytes: Int) {
    let deadline = ContinuousClock.now + .seconds(10)
    while true {
      let lines = self.lines
      let connections = lines.filter { $0 == "connection" }.count
      let closed = lines.filter { $0.hasPrefix("closed ") }
      // A client that connected and left may still be in the fake daemon's backlog.
      if closed.count == connections, connections >= expected {
        return (connections, closed.compactMap { Int($0.dropFirst("closed ".count)) }.reduce(0, +))
      }
      guard ContinuousClock.now < deadline else {
        throw DynctlTestFailure("a connection to the fake daemon stayed open: \(lines)")
      }
      usleep(10_000)
    }
  }
}

/// A `hello` reply, for fake daemons that should look real: the reply to dynctl's first request
/// (id 1) on a connection.
let fakeHelloReply =
  #"{"ok":true,"id":1,"protocol":1,"server":"dynd","version":"0.1.0","transitions":["lock-screen"]}"#
