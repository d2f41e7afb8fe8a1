import Foundation
import Glibc
import Testing

/// dynctl's exit statuses, socket lookup, streaming `watch` and completions, run in-process
/// (`Dynctl.run`); `binaryAgrees` checks that the built binary exits and writes as those runs do.
@Suite("dynctl: exit statuses and socket lookup")
struct ExitStatusTests {
  /// The binary itself, spawned: its `main` must exit with the status `Dynctl.run` returns and
  /// write what the run writes, byte for byte, to descriptors 1 and 2 (the one test here of
  /// the process rather than the library: what a shell sees).
  @Test("the dynctl binary exits with Dynctl.run's status and writes the same bytes")
  func binaryAgrees() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let missing = daemon.directory + "/missing.sock"
    for arguments in [
      ["hello"], ["-j", "list"], ["--help"], ["--version"], ["open", "--help"], ["open"],
      ["no-such-command"], ["stpe", "me"], ["get", "nosuch"],
      ["open", "lock-screen", "--parm", "gravity=2"], ["--timeout", "0", "hello"],
      ["run", daemon.directory + "/absent.jsonl"], ["--socket", missing, "-j", "hello"],
      ["--generate-completion-script", "bash"],
    ] {
      let binary = try daemon.dynctlBinary(arguments)
      let inProcess = daemon.dynctl(arguments)
      #expect(binary.status == inProcess.status, "\(arguments)")
      #expect(binary.output == inProcess.output, "\(arguments)")
      #expect(binary.error == inProcess.error, "\(arguments)")
    }
    #expect(try daemon.dynctlBinary(["stpe"]).status == 64)
    #expect(try daemon.dynctlBinary(["--socket", missing, "hello"]).status == 69)
  }

  /// What makes the tests' in-process runs sound: each run's console is its own, though runs
  /// go on at once on other threads, and `-` reads the console's standard input.
  @Test("runs side by side each write to their own console; '-' reads the console's input")
  func consoles() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let commands = [
      ["--version"], ["hello", "--help"], ["-j", "hello"], ["get", "nosuch"], ["list"],
      ["stpe"], ["describe-protocol"], ["hello"],
    ]
    let alone = commands.map { daemon.dynctl($0) }
    let together = commands.map {
      BackgroundDynctl($0, environment: ["DYND_SOCKET": daemon.socket])
    }
    for (command, (expected, running)) in zip(commands, zip(alone, together)) {
      let result = try running.finish()
      #expect(result.status == expected.status, "\(command)")
      #expect(result.output == expected.output, "\(command)")
      #expect(result.error == expected.error, "\(command)")
    }
    let script = daemon.dynctl(["run", "-"], standardInput: #"{"op":"list","id":7}"# + "\n")
    #expect(script.status == 0, "\(script.error)")
    #expect(script.output == "line 1 (list): no sessions\n", "\(script.output)")
  }

  @Test("usage errors exit 64 before anything is sent")
  func usage() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    for arguments in [
      ["open"], ["open", "lock-screen", "--scene", "{}"], ["tap", "L", "1"],
      ["gesture", "L", "--to", "1,2"], ["step"], ["no-such-command"],
      ["open", "lock-screen", "--clock", "sometimes"], ["watch", "L", "--frames-max", "0"],
    ] {
      let result = daemon.dynctl(arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
      #expect(!result.error.isEmpty)
    }
    // An option the command does not take suggests the one it has like it.
    for (arguments, suggestion) in [
      (["handoff", "lock-screen", "--pan", "1,1:2,2", "--velocity", "0,-9"], "--release-velocity"),
      (["open", "lock-screen", "--parm", "gravity=2"], "--param"),
    ] {
      let result = daemon.dynctl(arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
      #expect(
        result.error.contains(
          "unknown option '\(arguments[arguments.count - 2])'; did you mean '\(suggestion)'?"),
        "\(result.error)")
    }
    // Nothing reached the daemon: no session was opened.
    #expect(daemon.dynctl(["list"]).output == "no sessions\n")
  }

  @Test("no daemon at the socket exits 69 and names the path")
  func noDaemon() throws {
    let directory = NSTemporaryDirectory() + "dynctl-none-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let missing = directory + "/missing.sock"
    let result = runDynctl(["hello"], environment: ["DYND_SOCKET": missing])
    #expect(result.status == 69)
    #expect(result.error.contains(missing))
  }

  @Test("an error reply exits 65; a missing script file 66; success 0")
  func replyAndFileStatuses() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    #expect(daemon.dynctl(["hello"]).status == 0)
    let missing = daemon.dynctl(["get", "nosuch"])
    #expect(missing.status == 65)
    #expect(missing.error == "dynctl: unknown_session: no session is named 'nosuch'\n")
    #expect(daemon.dynctl(["send", #"{"op":"hello""#]).status == 65)
    #expect(daemon.dynctl(["run", daemon.directory + "/absent.jsonl"]).status == 66)
  }

  @Test("a daemon that never answers exits 76 after --timeout")
  func silentDaemon() throws {
    let directory = NSTemporaryDirectory() + "dynctl-silent-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/s.sock"
    let listener = try listen(at: path)
    defer { close(listener) }
    let result = runDynctl(["--socket", path, "--timeout", "0.3", "hello"])
    #expect(result.status == 76, "\(result.error)")
    #expect(result.error.contains("no answer"))
  }

  @Test("--socket beats $DYND_SOCKET, before or after the subcommand")
  func socketLookup() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let wrong = ["DYND_SOCKET": daemon.directory + "/wrong.sock"]
    for arguments in [
      ["--socket", daemon.socket, "hello"], ["hello", "--socket", daemon.socket],
      ["--socket=\(daemon.socket)", "-j", "hello"],
    ] {
      let result = runDynctl(arguments, environment: wrong)
      #expect(result.status == 0, "\(arguments): \(result.error)")
    }
    let viaEnvironment = runDynctl(["hello"], environment: wrong)
    #expect(viaEnvironment.status == 69)
    // $XDG_RUNTIME_DIR/dynd/dynd.sock when nothing else is given (a private directory, as
    // dynd makes it: dynctl refuses any other, SocketTrustTests).
    let runtime = daemon.directory + "/runtime"
    try FileManager.default.createDirectory(
      atPath: runtime + "/dynd", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    #expect(symlink(daemon.socket, runtime + "/dynd/dynd.sock") == 0)
    let viaRuntime = runDynctl(["hello"], environment: ["XDG_RUNTIME_DIR": runtime])
    #expect(viaRuntime.status == 0, "\(viaRuntime.error)")
  }

  @Test("watch streams another client's steps until the pause, then exits 0")
  func watchUntilPause() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let open = daemon.dynctl(["open", "lock-screen", "--session", "w", "--clock", "manual"])
    #expect(open.status == 0)
    let watcher = BackgroundDynctl(
      ["-j", "watch", "w", "--until", "pause"], environment: ["DYND_SOCKET": daemon.socket])
    // Wait until the watch is registered (its reply is the first line).
    try watcher.waitForFirstLine()
    #expect(daemon.dynctl(["tap", "w", "300,550"]).status == 0)
    #expect(daemon.dynctl(["step", "w", "--count", "600"]).status == 0)
    let watched = try watcher.finish()
    #expect(watched.status == 0)
    let lines = watched.output.split(separator: "\n")
    #expect(lines.first?.hasPrefix(#"{"ok":true,"id":1,"items":"#) == true)
    #expect(lines.filter { $0.contains(#""ev":"frame""#) }.count > 10)
    #expect(lines.last?.contains(#""ev":"pause""#) == true)
  }

  @Test("shell completion scripts are generated")
  func completions() throws {
    for shell in ["bash", "zsh", "fish"] {
      let result = runDynctl(["--generate-completion-script", shell])
      #expect(result.status == 0)
      #expect(result.output.contains("gesture"), "\(shell)")
    }
  }
}

/// A Unix socket that listens but never accepts.
func listen(at path: String) throws -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  withUnsafeMutableBytes(of: &address.sun_path) { raw in
    raw.copyBytes(from: path.utf8)
    raw[path.utf8.count] = 0
  }
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
  guard fd >= 0, bound == 0, Glibc.listen(fd, 4) == 0 else {
    throw DynctlTestFailure("cannot listen at \(path)")
  }
  return fd
}

/// What each command's `--help` promises.
@Suite("dynctl: help")
struct HelpTests {
  static let commands = [
    "hello", "list", "open", "close", "get", "watch", "step", "gesture", "tap", "swipe", "play",
    "handoff", "record", "render", "run", "send",
  ]

  @Test("every command's help lists its exit statuses", arguments: commands)
  func exitStatuses(_ command: String) throws {
    let help = runDynctl([command, "--help"])
    #expect(help.status == 0)
    let text = help.output.replacingOccurrences(of: "\n", with: " ")
    #expect(text.contains("Exit status: 0 success; "), "\(command): \(help.output)")
    #expect(text.contains("64 usage"), "\(command)")
    if command != "render" { #expect(text.contains("69 no daemon"), "\(command)") }
  }

  @Test("handoff's help offers only what handoff accepts: a pan, no tap or swipe")
  func handoffOptions() throws {
    let help = runDynctl(["handoff", "--help"])
    for option in ["--pan", "--duration", "--release-velocity", "--estimator", "--tolerance"] {
      #expect(help.output.contains(option), "\(option)")
    }
    for option in ["--tap", "--swipe", "--at ", "--velocity "] {
      #expect(!help.output.contains(option), "\(option) is in handoff --help")
    }
  }
}
