import Foundation
import Testing

/// dynctl's readable output, command by command, against checked-in transcripts.
///
/// Each scenario runs its commands in-process (`Dynctl.run`: the binary writes the same bytes,
/// `ExitStatusTests.binaryAgrees`) against a fresh private dynd (manual clocks, so the numbers
/// are the same on every run) and renders what happened as a transcript: `$ dynctl …`, the
/// standard output, standard error lines prefixed `! `, and `[exit N]` for a non-zero status.
/// It must equal `golden/<scenario>.txt`. After an intended change, regenerate with
/// `DYNCTL_UPDATE_GOLDEN=1 swift test --filter GoldenTranscript` and review the diff.
@Suite("dynctl: golden transcripts")
struct GoldenTranscriptTests {
  static let scenarios: [(name: String, commands: [String])] = [
    (
      "lock-screen",
      [
        "hello",
        "hello --parameters",
        "open lock-screen --session L --clock manual",
        "list",
        "gesture L --from 160,500 --to 160,380 --duration 0.2 --release-velocity 0,-1400",
        "step L --count 120",
        "get L",
        "open lock-screen --session C --clock manual --param gravity=1.5",
        "gesture C --from 100,500 --to 100,470 --duration 0.1",
        "step C --count 300",
        "tap C 300,550",
        "step C --count 300",
        "swipe C up --at 160,400 --velocity 0,-900",
        "list",
        "close L",
        "close L",
        "get L",
      ]
    ),
    (
      "scripts",
      [
        "run $ROOT/examples/scripts/drop-and-push.jsonl",
        "run $ROOT/Tests/DynctlTests/scripts/stops-at-error.jsonl",
        "run --keep-going $ROOT/Tests/DynctlTests/scripts/stops-at-error.jsonl",
        "run $ROOT/Tests/DynctlTests/scripts/no-such-script.jsonl",
        "open --scene $ROOT/examples/scenes/drop.json --session d --clock manual",
        "step d --count 240",
        "behaviors d",
        "close d",
        "list",
      ]
    ),
    (
      "play",
      [
        "play lock-screen --session p --pan 160,500:160,380 --duration 0.2 --release-velocity 0,-1400",
        "play lock-screen --session p --pan 160,500:160,470 --duration 0.1",
        "play lock-screen --session p --tap 300,550",
        "play lock-screen --session p --swipe up --max-seconds 2",
        "-j play lock-screen --session p --tap 300,550",
        "handoff lock-screen --session h --pan 160,500:160,380 --release-velocity 0,-1400",
        "handoff lock-screen --session h --pan 160,500:160,380 --duration 0.5",
        "handoff lock-screen --session h --tap 300,550",
        "handoff lock-screen --session h --pan 300,550:300,550 --duration 0",
        "handoff sheet --session sh --pan 160,500:160,470 --duration 0.1 --release-velocity 0,-2000",
        "handoff sheet --session sh --pan 160,500:160,304 --duration 0.5",
        "handoff fling --session fl --pan 160,300:200,240 --duration 0.1 --release-velocity 800,-1200 --param friction=2",
        "play no-such-transition --tap 1,1",
      ]
    ),
    (
      "rough-edges",
      [
        "stpe me",
        "open lock-scren",
        "open sidebar-menu --session M --clock manual",
        "swipe M right",
        "step M --count 2 --frames",
        "step M --count 120",
        "tap M 10,10",
        "watch M --until done",
        "watch M --until contact --for 0.2 --no-frames",
        "watch M --until dnoe",
        "behaviors M",
        "get MM",
        "play lock-screen --pan 160,500:1e9,380",
        "open --scene $ROOT/Tests/DynctlTests/scripts/overflowing-scene.json",
        "play lock-screen --tap 1,1 --release-velocity 1,1",
        "gesture M --from 0,0 --to 1,1 --release-velocity 2e6,0",
        "step M --count -1",
        "list",
      ]
    ),
    (
      "json",
      [
        #"-j open --session s --clock manual --scene {"items":[{"id":"a","center":[50,50],"size":[20,20]}],"behaviors":[{"type":"gravity","items":["a"]}]}"#,
        "-j step s --count 2",
        "-j behaviors s",
        "step s --count 3 --frames",
        #"--json send {"op":"get","session":"s","id":"q1"}"#,
        #"send {"op":"get","session":"s","id":2,"extra":1}"#,
        #"-j send {"op":"get","session":"s","id":2,"extra":1}"#,
        "-j close s",
      ]
    ),
  ]

  @Test("each scenario's transcript matches its golden file", arguments: scenarios.map(\.name))
  func transcript(_ name: String) throws {
    let commands = try #require(Self.scenarios.first { $0.name == name }).commands
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let root = Binaries.packageRoot.path
    var transcript = ""
    for command in commands {
      let arguments = command.split(separator: " ").map {
        $0.replacingOccurrences(of: "$ROOT", with: root)
      }
      let result = daemon.dynctl(arguments)
      transcript += "$ dynctl \(command)\n" + result.output
      for line in result.error.split(separator: "\n") { transcript += "! \(line)\n" }
      if result.status != 0 { transcript += "[exit \(result.status)]\n" }
    }
    transcript = transcript.replacingOccurrences(of: root, with: "$ROOT")
      .replacingOccurrences(of: daemon.directory, with: "$TMP")
    let golden = Binaries.packageRoot.appendingPathComponent("Tests/DynctlTests/golden/\(name).txt")
    if ProcessInfo.processInfo.environment["DYNCTL_UPDATE_GOLDEN"] == "1" {
      try transcript.write(to: golden, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(transcript == expected, "\(firstDifference(transcript, expected))")
  }
}

/// The first line where two transcripts differ, for a readable failure.
func firstDifference(_ actual: String, _ expected: String) -> String {
  let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
  for index in 0..<max(a.count, e.count) {
    let got = index < a.count ? String(a[index]) : "<end>"
    let want = index < e.count ? String(e[index]) : "<end>"
    if got != want { return "line \(index + 1): got '\(got)', golden has '\(want)'" }
  }
  return "no difference"
}
