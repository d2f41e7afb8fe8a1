import Foundation
import Glibc
import Testing

/// The `dynd` executable as a process: signals, its socket file, and socket activation.
@Suite("End to end: the dynd process")
struct EndToEndProcessTests {
  @Test("SIGTERM with clients connected: each gets shutdown, the socket goes, exit status 0")
  func sigterm() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/d.sock"
    let recorder = try LineRecorder(path: directory + "/output.jsonl")
    let dynd = try DyndProcess(
      arguments: ["--socket", socketPath], errorFile: directory + "/stderr")
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let first = try WireClient(path: socketPath, name: "first", recorder: recorder)
    let second = try WireClient(path: socketPath, name: "second", recorder: recorder)
    try first.expectOK(
      #"{"op":"open","session":"r","fps":60,"scene":"# + Scenes.endlessFall(items: 3) + "}")
    try second.expectOK(#"{"op":"watch","session":"r"}"#)
    _ = try second.read { $0.event == "frame" }

    #expect(kill(dynd.pid, SIGTERM) == 0)
    for client in [first, second] {
      let rest = try client.readToEnd()
      #expect(rest.last?.event == "shutdown", "\(client.name): \(rest.suffix(2).map(\.text))")
      #expect(rest.last?.string("reason") == "terminated", "\(client.name)")
    }
    #expect(dynd.exitStatus() == 0, "stderr: \(dynd.standardError)")
    #expect(fileStatus(socketPath) == nil, "the socket file is still there")
    recorder.expectValid()
  }

  @Test("--workers: 0 and 257 are refused with a sentence; 1 serves realtime frames")
  func workersOption() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/w.sock"
    for bad in ["0", "257"] {
      let refused = try DyndProcess(
        arguments: ["--socket", socketPath, "--workers", bad],
        errorFile: directory + "/stderr-\(bad)")
      #expect(refused.exitStatus() == 64, "stderr: \(refused.standardError)")
      #expect(
        refused.standardError.contains("--workers must be between 1 and 256 (got \(bad))"),
        "stderr: \(refused.standardError)")
    }
    let dynd = try DyndProcess(
      arguments: ["--socket", socketPath, "--workers", "1"], errorFile: directory + "/stderr")
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let client = try WireClient(path: socketPath, name: "one-worker", recorder: nil)
    try client.expectOK(
      #"{"op":"open","session":"r","fps":60,"scene":"# + Scenes.endlessFall(items: 3) + "}")
    let frames = try client.read { $0.event == "frame" && $0.seq == 3 }
    #expect(frames.filter { $0.event == "frame" }.map(\.seq) == [1, 2, 3])
    #expect(kill(dynd.pid, SIGTERM) == 0)
    #expect(dynd.exitStatus() == 0, "stderr: \(dynd.standardError)")
  }

  @Test("a negative number is refused for its value, naming it; --help lists the exit statuses")
  func numericOptionsAndHelp() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/n.sock"
    for (option, value, sentence) in [
      ("--idle-timeout", "-1", "--idle-timeout -1: must be a positive number of seconds"),
      ("--max-line", "-5", "--max-line -5: must be between 1024 and 67108864 bytes"),
      ("--workers", "-2", "--workers must be between 1 and 256 (got -2)"),
    ] {
      let refused = try DyndProcess(
        arguments: ["--socket", socketPath, option, value],
        errorFile: directory + "/stderr\(option)")
      #expect(refused.exitStatus() == 64, "stderr: \(refused.standardError)")
      #expect(refused.standardError.contains(sentence), "stderr: \(refused.standardError)")
      #expect(!refused.standardError.contains("Missing value"))
    }
    let help = try DyndProcess(
      arguments: ["--help"], errorFile: directory + "/help", outputFile: directory + "/help.out")
    #expect(help.exitStatus() == 0)
    let text = try String(contentsOfFile: directory + "/help.out", encoding: .utf8)
    for status in ["0 stopped by SIGTERM", "64 usage", "71 cannot serve", "75 another dynd"] {
      #expect(text.contains(status), "dynd --help: \(text)")
    }
  }

  @Test("a stale socket is replaced; a live one is never stolen")
  func staleAndLiveSockets() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/d.sock"
    let recorder = try LineRecorder(path: directory + "/output.jsonl")
    try makeStaleSocket(at: socketPath)
    let owner = try DyndProcess(
      arguments: ["--socket", socketPath], errorFile: directory + "/owner.stderr")
    #expect(
      waitForListener(socketPath), "dynd did not replace the stale socket: \(owner.standardError)")
    let client = try WireClient(path: socketPath, name: "client", recorder: recorder)
    try client.expectOK(#"{"op":"open","session":"mine","keep":true,"transition":"lock-screen"}"#)
    let inode = fileStatus(socketPath)?.st_ino

    let intruder = try DyndProcess(
      arguments: ["--socket", socketPath], errorFile: directory + "/intruder.stderr")
    let status = intruder.exitStatus()
    #expect(status != nil && status != 0, "a second dynd on a live socket must fail")
    #expect(
      intruder.standardError.contains("another dynd is listening on \(socketPath)"),
      "\(intruder.standardError)")
    // The first daemon still owns the same socket file and its sessions.
    #expect(fileStatus(socketPath)?.st_ino == inode)
    let again = try WireClient(path: socketPath, name: "again", recorder: recorder)
    try again.expectOK(#"{"op":"get","session":"mine"}"#)
    kill(owner.pid, SIGTERM)
    #expect(owner.exitStatus() == 0)
    recorder.expectValid()
  }

  @Test("the runtime directory is created 0700 and the socket is 0600")
  func modes() throws {
    let runtime = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(runtime) }
    let dynd = try DyndProcess(
      arguments: [], environment: DyndBinary.environment(["XDG_RUNTIME_DIR": runtime]),
      errorFile: runtime + "/stderr")
    let socketPath = runtime + "/dynd/dynd.sock"
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let directory = try #require(fileStatus(runtime + "/dynd"))
    #expect(directory.st_mode & S_IFMT == S_IFDIR)
    #expect(directory.st_mode & 0o7777 == 0o700)
    let socket = try #require(fileStatus(socketPath))
    #expect(socket.st_mode & S_IFMT == S_IFSOCK)
    #expect(socket.st_mode & 0o777 == 0o600)
    kill(dynd.pid, SIGTERM)
    #expect(dynd.exitStatus() == 0)
  }

  @Test("--socket DIR/dynd.sock: a missing DIR is created 0700; a missing parent of it is named")
  func socketInMissingDirectory() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let socketPath = root + "/new/dynd.sock"
    let dynd = try DyndProcess(
      arguments: ["--socket", socketPath], errorFile: root + "/stderr")
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let directory = try #require(fileStatus(root + "/new"))
    #expect(directory.st_mode & S_IFMT == S_IFDIR)
    #expect(directory.st_mode & 0o7777 == 0o700)
    #expect(directory.st_uid == getuid())
    kill(dynd.pid, SIGTERM)
    #expect(dynd.exitStatus() == 0)

    let deep = root + "/a/b/dynd.sock"
    let refused = try DyndProcess(
      arguments: ["--socket", deep], errorFile: root + "/stderr-deep")
    #expect(refused.exitStatus() == 71, "stderr: \(refused.standardError)")
    #expect(
      refused.standardError.contains(
        "cannot create the socket directory \(root)/a/b: its parent \(root)/a does not exist"),
      "stderr: \(refused.standardError)")
    #expect(fileStatus(root + "/a") == nil, "only the socket's own directory is ever created")
  }

  @Test("systemd socket activation: dynd serves the socket it was given and leaves it in place")
  func socketActivation() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/activated.sock"
    let recorder = try LineRecorder(path: directory + "/output.jsonl")
    let listening = try makeListeningSocket(at: socketPath)
    let pid = try spawnSocketActivated(socket: listening, errorFile: directory + "/stderr")
    // systemd keeps its copy open; so does this test until dynd has answered.
    let client = try WireClient(path: socketPath, name: "activated", recorder: recorder)
    let hello = try client.expectOK(#"{"op":"hello"}"#).reply
    #expect(hello.string("server") == "dynd")
    close(listening)
    kill(pid, SIGTERM)
    let rest = try client.readToEnd()
    #expect(rest.last?.event == "shutdown")
    let stderr = (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? ""
    #expect(waitForChild(pid) == 0, "stderr: \(stderr)")
    #expect((fileStatus(socketPath)?.st_mode ?? 0) & S_IFMT == S_IFSOCK, "systemd's socket is gone")
    recorder.expectValid()
  }
}

/// Transition documents read from `--transitions` directories at start and again on SIGHUP
/// (issue 37): what is added shows up in `hello`, a broken document is left out and logged with
/// its pointer, and a session keeps the document it was opened with.
@Suite("End to end: dynd --transitions")
struct EndToEndTransitionDirectoriesTests {
  static let card =
    #"{"transition":"card","scene":{"items":[{"id":"card","center":["=mid_x","=mid_y"],"#
    + #""size":[200,100]}]}}"#

  @Test("documents are read at start and again on SIGHUP; sessions keep theirs")
  func reload() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let documents = root + "/transitions"
    mkdir(documents, 0o700)
    try Self.card.write(toFile: documents + "/card.json", atomically: true, encoding: .utf8)
    let socketPath = root + "/dynd.sock"
    let dynd = try DyndProcess(
      arguments: ["--socket", socketPath, "--transitions", documents],
      errorFile: root + "/stderr")
    defer {
      kill(dynd.pid, SIGTERM)
      _ = dynd.exitStatus()
    }
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let client = try WireClient(path: socketPath, name: "documents", recorder: nil)
    let hello = try client.expectOK(#"{"op":"hello"}"#).reply
    #expect((hello.object["transitions"] as? [String])?.last == "card")
    try client.expectOK(#"{"op":"open","session":"c","transition":"card","clock":"manual"}"#)
    // Replaced by a broken one and a new one, then SIGHUP.
    try #"{"transition":"card","colour":1,"scene":{"items":[]}}"#.write(
      toFile: documents + "/card.json", atomically: true, encoding: .utf8)
    try Self.card.replacingOccurrences(of: #""card""#, with: #""card-two""#).write(
      toFile: documents + "/two.json", atomically: true, encoding: .utf8)
    kill(dynd.pid, SIGHUP)
    let reloaded = eventually(timeout: .seconds(10)) {
      let names =
        (try? client.expectOK(#"{"op":"hello"}"#).reply.object["transitions"])
        as? [String]
      return names?.last == "card-two" && names?.contains("card") == false
    }
    #expect(reloaded, "hello did not list card-two alone after SIGHUP")
    #expect(dynd.standardError.contains("/card.json: /colour: unknown field"))
    try client.expectOK(#"{"op":"step","session":"c"}"#)
  }
}
