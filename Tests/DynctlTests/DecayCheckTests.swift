import Foundation
import Testing

/// `dynctl handoff` on a release a decay receives (`fling`), against a recorded conversation
/// with dynd replayed by a stand-in daemon (`scripts/fling-handoff.jsonl`: `dynctl handoff fling
/// --session fl --pan 160,300:200,240 --duration 0.1 --release-velocity 800,-1200 --param
/// friction=2`): as recorded it passes; a projection, a model or a frame that is not the
/// decay's fails, saying which.
@Suite("dynctl handoff: a decay's projection and frames")
struct DecayCheckTests {
  static let arguments = [
    "handoff", "fling", "--session", "fl", "--pan", "160,300:200,240", "--duration", "0.1",
    "--release-velocity", "800,-1200", "--param", "friction=2",
  ]

  /// Runs the check against the recorded conversation, altered by `alter`.
  func check(_ alter: (String) -> String = { $0 }) throws -> RunResult {
    let directory = try Trust.temporaryDirectory("decay")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    chmod(directory, 0o755)
    let recorded = try String(
      contentsOf: Binaries.packageRoot.appendingPathComponent(
        "Tests/DynctlTests/scripts/fling-handoff.jsonl"), encoding: .utf8)
    let script = directory + "/script.jsonl"
    try alter(recorded).write(toFile: script, atomically: true, encoding: .utf8)
    let daemon = try FakeDaemon(socket: directory + "/d.sock", script: script)
    return try Trust.dynctl(["--socket", daemon.socket] + Self.arguments, in: directory)
  }

  @Test func theRecordedReleasePasses() throws {
    let result = try check()
    #expect(result.status == 0, "\(result.output)\(result.error)")
    #expect(result.output.contains("projection (282.991, 96.723): the decay (friction 2)"))
    #expect(result.output.contains("0 pt from the projection"))
    #expect(result.output.contains("PASS: card moves with the finger's release velocity, exactly"))
    #expect(!result.output.contains("not verified"))
  }

  @Test func aProjectionThatIsNotTheDecaysFails() throws {
    let result = try check {
      $0.replacingOccurrences(
        of: #""projection":[282.991,96.723]"#, with: #""projection":[290,96.723]"#)
    }
    #expect(result.status == 1, "\(result.output)\(result.error)")
    #expect(result.output.contains("FAIL: the projection is not the decay's resting point"))
    #expect(result.output.contains("it rests 7.009 pt off the projection"))
  }

  @Test func anotherModelFailsItsProjectionAndFrames() throws {
    let result = try check {
      $0.replacingOccurrences(of: #""decay":{"friction":2}"#, with: #""decay":{"friction":3}"#)
    }
    #expect(result.status == 1, "\(result.output)\(result.error)")
    #expect(result.output.contains("the projection is not the decay's resting point"))
    #expect(result.output.contains("from its decay's closed form"))
  }

  @Test func aFrameOffTheClosedFormFails() throws {
    // The frame at t 0.5 s: one coordinate moved by 0.01 pt, more than the wire's rounding.
    let result = try check { recorded in
      var lines = recorded.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let i = try! #require(lines.firstIndex { $0.contains(#""t":0.5,"#) && $0.contains("frame") })
      let center = try! #require(
        lines[i].range(of: #""center":\[[0-9.]+"#, options: .regularExpression))
      let x = Double(lines[i][center].dropFirst(#""center":["#.count))!
      lines[i].replaceSubrange(center, with: #""center":["# + String(x + 0.01))
      return lines.joined(separator: "\n")
    }
    #expect(result.status == 1, "\(result.output)\(result.error)")
    #expect(result.output.contains("FAIL: the item strays 0.01 pt from its decay's closed form"))
  }
}
