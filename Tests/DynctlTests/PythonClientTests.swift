import Foundation
import Testing

/// The dependency-free Python client of `examples/clients/python/` against a real dynd.
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

  @Test("no daemon: a message and a non-zero status")
  func noDaemon() throws {
    let directory = NSTemporaryDirectory()
    let result = try runScript(socket: directory + "/no-dynd-\(getpid()).sock", in: directory)
    #expect(result.status != 0)
    #expect(result.error.contains("lock_screen.py:"))
  }
}
