import Foundation
import Glibc
import Testing

/// The Python client package of `clients/python/` (`dynd`) and the example that uses it,
/// `examples/clients/python/lock_screen.py`, against a real dynd.
@Suite("Python client example")
struct PythonClientTests {
  func runScript(
    socket: String, in directory: String, _ arguments: [String] = []
  ) throws -> RunResult {
    let script = Binaries.packageRoot.appendingPathComponent(
      "examples/clients/python/lock_screen.py"
    ).path
    return try runProgram(
      "/usr/bin/env", ["python3", script, "--socket", socket] + arguments,
      environment: cleanEnvironment(), in: directory)
  }

  @Test("a flick up hands its velocity over and opens; a slow release closes")
  func lockScreen() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let flick = try runScript(socket: daemon.socket, in: daemon.directory)
    #expect(flick.status == 0, "\(flick.error)")
    let lines = flick.output.split(separator: "\n")
    #expect(lines.contains("handoff screen: gesture velocity [0, -1400], item velocity [0, -1400]"))
    #expect(lines.last == "outcome: opened")
    #expect(lines.filter { $0.hasPrefix("t ") }.count > 20, "every frame is printed")
    let slow = try runScript(
      socket: daemon.socket, in: daemon.directory, ["--release-velocity", "100"])
    #expect(slow.status == 0, "\(slow.error)")
    #expect(slow.output.hasSuffix("outcome: closed\n"))
  }

  /// The directory holding the `dynd` package.
  static let clientDirectory = Binaries.packageRoot.appendingPathComponent("clients/python").path
  static let lockScreen = Binaries.packageRoot.appendingPathComponent(
    "examples/clients/python/lock_screen.py"
  ).path

  /// Runs `code` with the `dynd` package importable; its standard output.
  func python(_ code: String, in directory: String) throws -> RunResult {
    try runProgram(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import sys; sys.path.insert(0, \(Self.clientDirectory.debugDescription))\n" + code,
      ],
      environment: cleanEnvironment(), in: directory)
  }

  @Test("the directory check, with injected uids")
  func directoryCheck() throws {
    let parent = try Trust.temporaryDirectory("trust-py")
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let directory = parent + "/dynd"
    try Trust.makeDirectory(directory, mode: 0o700)
    #expect(symlink(directory, parent + "/link") == 0)
    let result = try python(
      """
      import os, dynd
      def check(path, uid):
          try:
              dynd.check_socket_directory(path, uid=uid)
              print("ok")
          except dynd.UntrustedSocket as error:
              assert isinstance(error, PermissionError)
              print(error)
      me = os.getuid()
      check(\(directory.debugDescription), me)
      check(\(directory.debugDescription), me + 1)
      check(\((parent + "/link").debugDescription), me)
      check(\((parent + "/missing").debugDescription), me)
      os.chmod(\(directory.debugDescription), 0o750)
      check(\(directory.debugDescription), me)
      print(dynd.default_socket_location({"XDG_RUNTIME_DIR": "/run/user/7"}))
      print(dynd.default_socket_location({"XDG_RUNTIME_DIR": "relative"}, uid=7))
      print(dynd.default_socket_location({"DYND_SOCKET": "/s", "XDG_RUNTIME_DIR": "/r"}))
      """, in: parent)
    #expect(result.status == 0, "\(result.error)")
    let lines = result.output.split(separator: "\n").map(String.init)
    try #require(lines.count == 8, "\(lines)")
    let me = getuid()
    #expect(lines[0] == "ok")
    #expect(
      lines[1].hasPrefix(
        "refusing the socket directory \(directory): it is owned by uid \(me), not by you "
          + "(uid \(me + 1))"))
    #expect(
      lines[2].hasPrefix("refusing the socket directory \(parent)/link: it is a symbolic link"))
    #expect(lines[3] == "ok")
    #expect(lines[4].hasPrefix("refusing the socket directory \(directory): its mode is 0750"))
    #expect(lines[5] == "('/run/user/7/dynd/dynd.sock', '/run/user/7/dynd')")
    #expect(lines[6] == "('/tmp/dynd-7/dynd.sock', '/tmp/dynd-7')")
    #expect(lines[7] == "('/s', None)")
  }

  @Test("a squatted default directory: exit 77 before connecting")
  func squattedDirectory() throws {
    let runtime = try Trust.temporaryDirectory("trust-py")
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    try Trust.makeDirectory(runtime + "/dynd", mode: 0o755)
    let daemon = try FakeDaemon(socket: runtime + "/dynd/dynd.sock")
    let result = try runProgram(
      "/usr/bin/env", ["python3", Self.lockScreen],
      environment: cleanEnvironment(["XDG_RUNTIME_DIR": runtime]), in: runtime)
    #expect(result.status == 77, "\(result.error)")
    #expect(
      result.error.hasPrefix(
        "lock_screen.py: refusing the socket directory \(runtime)/dynd: its mode is 0755"))
    #expect(try daemon.received().connections == 0)
  }

  @Test(
    "another user's daemon: exit 77 before a byte is sent, for root and for an ordinary user",
    .enabled(if: Trust.isRoot, Trust.needsRoot))
  func daemonOfAnotherUser() throws {
    let directory = try Trust.temporaryDirectory("trust-py")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(chmod(directory, 0o755) == 0)
    try Trust.makeDirectory(directory + "/theirs", mode: 0o755, owner: Trust.otherUser)
    let socket = directory + "/theirs/dynd.sock"
    let daemon = try FakeDaemon(socket: socket, as: Trust.otherUser)
    for uid: uid_t? in [nil, Trust.user] {
      let client = uid == nil ? Self.lockScreen : Trust.reachable("lock_screen.py")
      let (program, arguments) = Trust.asUser(uid, [Trust.python, client])
      for (extra, environment) in [
        (["--socket", socket], cleanEnvironment()),
        ([], cleanEnvironment(["DYND_SOCKET": socket])),
      ] {
        let result = try runProgram(
          program, arguments + extra, environment: environment, in: directory)
        #expect(result.status == 77, "\(uid.map(String.init) ?? "root"): \(result.error)")
        #expect(
          result.error.hasPrefix(
            "lock_screen.py: refusing the daemon at \(socket): it runs as uid \(Trust.otherUser), "
              + "not as you (uid \(uid ?? 0)) or root"), "\(result.error)")
      }
    }
    let received = try daemon.received(connections: 4)
    #expect(received.connections == 4)
    #expect(received.bytes == 0)
  }

  @Test("no daemon: a message naming the socket and how to start dynd, and a non-zero status")
  func noDaemon() throws {
    let directory = NSTemporaryDirectory()
    let socket = directory + "/no-dynd-\(getpid()).sock"
    let result = try runScript(socket: socket, in: directory)
    #expect(result.status == 1)
    #expect(
      result.error.hasPrefix("lock_screen.py: no dynd is listening on \(socket) ("),
      "\(result.error)")
    #expect(result.error.contains("start one with `dynd`"), "\(result.error)")
  }
}
