import Foundation
import Glibc
import Testing

/// dynctl's exit statuses, socket lookup, streaming `watch` and completions.
@Suite("dynctl: exit statuses and socket lookup")
struct ExitStatusTests {
  @Test("usage errors exit 64 before anything is sent")
  func usage() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    for arguments in [
      ["open"], ["open", "lock-screen", "--scene", "{}"], ["tap", "L", "1"],
      ["gesture", "L", "--to", "1,2"], ["step"], ["no-such-command"],
      ["open", "lock-screen", "--clock", "sometimes"], ["watch", "L", "--frames-max", "0"],
    ] {
      let result = try daemon.dynctl(arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
      #expect(!result.error.isEmpty)
    }
    // An option the command does not take suggests the one it has like it.
    for (arguments, suggestion) in [
      (["handoff", "lock-screen", "--pan", "1,1:2,2", "--velocity", "0,-9"], "--release-velocity"),
      (["open", "lock-screen", "--parm", "gravity=2"], "--param"),
    ] {
      let result = try daemon.dynctl(arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
      #expect(
        result.error.contains(
          "unknown option '\(arguments[arguments.count - 2])'; did you mean '\(suggestion)'?"),
        "\(result.error)")
    }
    // Nothing reached the daemon: no session was opened.
    #expect(try daemon.dynctl(["list"]).output == "no sessions\n")
  }

  @Test("no daemon at the socket exits 69 and names the path")
  func noDaemon() throws {
    let directory = NSTemporaryDirectory() + "dynctl-none-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let missing = directory + "/missing.sock"
    let result = try runProgram(
      try Binaries.path("dynctl"), ["hello"],
      environment: cleanEnvironment(["DYND_SOCKET": missing]), in: directory)
    #expect(result.status == 69)
    #expect(result.error.contains(missing))
  }

  @Test("an error reply exits 65; a missing script file 66; success 0")
  func replyAndFileStatuses() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    #expect(try daemon.dynctl(["hello"]).status == 0)
    let missing = try daemon.dynctl(["get", "nosuch"])
    #expect(missing.status == 65)
    #expect(missing.error == "dynctl: unknown_session: no session is named 'nosuch'\n")
    #expect(try daemon.dynctl(["send", #"{"op":"hello""#]).status == 65)
    #expect(try daemon.dynctl(["run", daemon.directory + "/absent.jsonl"]).status == 66)
  }

  @Test("a daemon that never answers exits 76 after --timeout")
  func silentDaemon() throws {
    let directory = NSTemporaryDirectory() + "dynctl-silent-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/s.sock"
    let listener = try listen(at: path)
    defer { close(listener) }
    let result = try runProgram(
      try Binaries.path("dynctl"), ["--socket", path, "--timeout", "0.3", "hello"],
      environment: cleanEnvironment(), in: directory)
    #expect(result.status == 76, "\(result.error)")
    #expect(result.error.contains("no answer"))
  }

  @Test("--socket beats $DYND_SOCKET, before or after the subcommand")
  func socketLookup() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let wrong = cleanEnvironment(["DYND_SOCKET": daemon.directory + "/wrong.sock"])
    let dynctl = try Binaries.path("dynctl")
    for arguments in [
      ["--socket", daemon.socket, "hello"], ["hello", "--socket", daemon.socket],
      ["--socket=\(daemon.socket)", "-j", "hello"],
    ] {
      let result = try runProgram(dynctl, arguments, environment: wrong, in: daemon.directory)
      #expect(result.status == 0, "\(arguments): \(result.error)")
    }
    let viaEnvironment = try runProgram(
      dynctl, ["hello"], environment: wrong, in: daemon.directory)
    #expect(viaEnvironment.status == 69)
    // $XDG_RUNTIME_DIR/dynd/dynd.sock when nothing else is given (a private directory, as
    // dynd makes it: dynctl refuses any other, SocketTrustTests).
    let runtime = daemon.directory + "/runtime"
    try FileManager.default.createDirectory(
      atPath: runtime + "/dynd", withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o700])
    #expect(symlink(daemon.socket, runtime + "/dynd/dynd.sock") == 0)
    let viaRuntime = try runProgram(
      dynctl, ["hello"], environment: cleanEnvironment(["XDG_RUNTIME_DIR": runtime]),
      in: daemon.directory)
    #expect(viaRuntime.status == 0, "\(viaRuntime.error)")
  }

  @Test("watch streams another client's steps until the pause, then exits 0")
  func watchUntilPause() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let open = try daemon.dynctl(["open", "lock-screen", "--session", "w", "--clock", "manual"])
    #expect(open.status == 0)
    let watcher = Process()
    watcher.executableURL = URL(fileURLWithPath: try Binaries.path("dynctl"))
    watcher.arguments = ["-j", "watch", "w", "--until", "pause"]
    watcher.environment = cleanEnvironment(["DYND_SOCKET": daemon.socket])
    let pipe = Pipe()
    watcher.standardOutput = pipe
    try watcher.run()
    defer { if watcher.isRunning { kill(watcher.processIdentifier, SIGKILL) } }
    // Wait until the watch is registered (its reply is the first line).
    let handle = pipe.fileHandleForReading
    var received = Data()
    while !received.contains(UInt8(ascii: "\n")) {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      received += chunk
    }
    #expect(try daemon.dynctl(["tap", "w", "300,550"]).status == 0)
    #expect(try daemon.dynctl(["step", "w", "--count", "600"]).status == 0)
    received += handle.readDataToEndOfFile()
    watcher.waitUntilExit()
    #expect(watcher.terminationStatus == 0)
    let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
    #expect(lines.first?.hasPrefix(#"{"ok":true,"id":1,"items":"#) == true)
    #expect(lines.filter { $0.contains(#""ev":"frame""#) }.count > 10)
    #expect(lines.last?.contains(#""ev":"pause""#) == true)
  }

  @Test("shell completion scripts are generated")
  func completions() throws {
    let directory = NSTemporaryDirectory()
    for shell in ["bash", "zsh", "fish"] {
      let result = try runProgram(
        try Binaries.path("dynctl"), ["--generate-completion-script", shell],
        environment: cleanEnvironment(), in: directory)
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
    let help = try runProgram(
      try Binaries.path("dynctl"), [command, "--help"], environment: cleanEnvironment(),
      in: NSTemporaryDirectory())
    #expect(help.status == 0)
    let text = help.output.replacingOccurrences(of: "\n", with: " ")
    #expect(text.contains("Exit status: 0 success; "), "\(command): \(help.output)")
    #expect(text.contains("64 usage"), "\(command)")
    if command != "render" { #expect(text.contains("69 no daemon"), "\(command)") }
  }

  @Test("handoff's help offers only what handoff accepts: a pan, no tap or swipe")
  func handoffOptions() throws {
    let help = try runProgram(
      try Binaries.path("dynctl"), ["handoff", "--help"], environment: cleanEnvironment(),
      in: NSTemporaryDirectory())
    for option in ["--pan", "--duration", "--release-velocity", "--estimator", "--tolerance"] {
      #expect(help.output.contains(option), "\(option)")
    }
    for option in ["--tap", "--swipe", "--at ", "--velocity "] {
      #expect(!help.output.contains(option), "\(option) is in handoff --help")
    }
  }
}
