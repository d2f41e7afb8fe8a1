import Daemon
import Foundation
import HostFuzzing
import Testing
import Wire

/// The seeds of the fuzzer's checked-in corpus (`Tests/Fuzz/corpus`) that exercise the
/// connection itself, replayed through the same `LineHarness` as `dynd-fuzz` over socket pairs,
/// in the normal debug build: no input may crash the daemon or make it write anything but valid,
/// finite JSON with one reply per request line, on every connection (lines starting `@N ` go to
/// connection N; see `LineHarness`).
///
/// Every seed replays through the embedded host (`SessionHostTests/HostFuzzCorpusTests`), which
/// decodes and applies the same bytes with the same decoder; what only a socket shows are the
/// client's actions (`close`, `reset`, `stall`, `read`), a line over its connection's limit
/// (`line_too_long`, then the daemon closes) and an unterminated last line. The seeds with one of
/// them replay here too.
///
/// Seeds named `ok-…` are valid sessions: every reply must be `ok`. Seeds named `bad-…` are
/// nasty inputs: at least one reply must be an error, or the seed no longer tests what it says.
/// Other seeds (`edge-…`: valid but extreme; `repro-…`: reproducers of fixed crashes) get the
/// general checks only.
@Suite("Fuzz corpus replay")
struct FuzzCorpusReplayTests {
  static let corpus = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz/corpus")

  static var files: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { corpus.appendingPathComponent($0) }
  }

  /// The seeds that exercise the connection (see `exercisesTheConnection`).
  static var connectionSeeds: [URL] {
    files.filter { exercisesTheConnection((try? [UInt8](Data(contentsOf: $0))) ?? []) }
  }

  /// Whether `input` holds a client action, a line over its connection's limit, or an
  /// unterminated last line.
  static func exercisesTheConnection(_ input: [UInt8]) -> Bool {
    if input.last != UInt8(ascii: "\n") { return true }
    let budget = LineHarness.Budget()
    return input.split(separator: UInt8(ascii: "\n")).contains { segment in
      let (index, line) = FuzzInput.address(segment)
      return FuzzInput.action(Array(line)) != nil
        || line.count > budget.lineLimit(connection: index)
    }
  }

  @Test("the corpus holds seeds of both kinds, and seeds that exercise the connection")
  func corpusIsThere() {
    let names = Self.files.map(\.lastPathComponent)
    #expect(names.count >= 30, "found \(names.count) seeds in \(Self.corpus.path)")
    #expect(names.contains { $0.hasPrefix("ok-") })
    #expect(names.contains { $0.hasPrefix("bad-") })
    let several = Self.files.filter { file in
      let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
      return text.hasPrefix("@1 ") || text.contains("\n@1 ") || text.contains("\n@2 ")
    }
    #expect(several.count >= 5, "seeds that use several connections: \(several.count)")
    let connection = Self.connectionSeeds.map(\.lastPathComponent)
    for kind in ["stall", "reset", "close", "too-long", "unterminated"] {
      #expect(connection.contains { $0.contains(kind) }, "no seed with \(kind): \(connection)")
    }
  }

  @Test(
    "every seed that exercises the connection runs to the end with valid output",
    arguments: connectionSeeds)
  func replay(_ file: URL) throws {
    let input = try [UInt8](Data(contentsOf: file))
    let outcome = LineHarness().run(input)
    let name = file.lastPathComponent
    #expect(outcome.problems.isEmpty, "\(name): \(outcome.problems.joined(separator: "\n"))")
    #expect(outcome.replies.count + outcome.unansweredLines == outcome.sentLines, "\(name)")
    let failures = outcome.replies.filter { $0["ok"] == .bool(false) }
    if name.hasPrefix("ok-") {
      #expect(outcome.skippedLines == 0, "\(name): the budget left lines out")
      #expect(failures.isEmpty, "\(name): \(failures.map(\.jsonText))")
    } else if name.hasPrefix("bad-") {
      #expect(!failures.isEmpty, "\(name) is answered without a single error")
    }
  }
}

/// The harness's own checks, on output a broken daemon could write.
@Suite("Line harness output checks")
struct LineHarnessCheckTests {
  private func problems(_ text: String, ids: [RequestID?]) -> [String] {
    LineHarness.problems(in: Array(text.utf8), expectedReplyIDs: ids)
  }

  @Test("well-formed replies and events pass")
  func wellFormed() {
    let output =
      #"{"ev":"frame","session":"m","seq":1,"t":0.016,"items":[]}"# + "\n"
      + #"{"ok":true,"id":7,"t":0.016,"running":true}"# + "\n"
      + #"{"ok":false,"id":"x","error":{"code":"bad_json","message":"no"}}"# + "\n"
      + #"{"ok":true}"# + "\n"
    #expect(problems(output, ids: [.number("7"), .string("x"), nil]).isEmpty)
  }

  @Test(
    "each kind of bad output is reported",
    arguments: [
      (#"{"ok":true,"t":nan}"# + "\n", "not valid JSON"),
      (#"{"ok":true,"t":1e999}"# + "\n", "not valid JSON"),
      (#"[1]"# + "\n", "not an object"),
      (#"{"ok":true}"#, "ends inside a line"),
      (#"{"ev":"frame"}"# + "\n", "malformed event"),
      (#"{"t":1}"# + "\n", "neither a reply nor an event"),
      (#"{"ok":false,"error":{"code":"busy"}}"# + "\n", "without code and message"),
      (#"{"ok":true,"id":8}"# + "\n", "does not echo"),
      (#"{"ok":true}"# + "\n" + #"{"ok":true}"# + "\n", "2 replies to 1 requests"),
    ])
  func badOutput(output: String, expected: String) {
    let found = problems(output, ids: [nil]).joined(separator: "\n")
    #expect(found.contains(expected), "\(found)")
  }

  @Test("a cut-off connection may stop early, but not answer too much or out of order")
  func incomplete() {
    let output = #"{"ok":true,"id":1}"# + "\n" + #"{"ev":"frame","session":"m","se"#
    #expect(
      LineHarness.problems(
        in: Array(output.utf8), expectedReplyIDs: [.number("1"), .number("2")], complete: false
      ).isEmpty)
    #expect(
      !LineHarness.problems(
        in: Array(output.utf8), expectedReplyIDs: [.number("1"), .number("2")]
      ).isEmpty)
    let wrong = #"{"ok":true,"id":2}"# + "\n"
    #expect(
      !LineHarness.problems(
        in: Array(wrong.utf8), expectedReplyIDs: [.number("1"), .number("2")], complete: false
      ).isEmpty)
  }

  @Test("a line is answered even when the harness skips a step beyond its budget")
  func budget() {
    var budget = LineHarness.Budget()
    budget.maxStepFrames = 10
    let input =
      #"{"op":"open","session":"m","clock":"manual","scene":{}}"# + "\n"
      + #"{"op":"step","session":"m","count":11}"# + "\n"
      + #"{"op":"step","session":"m","count":10,"id":"s"}"# + "\n"
    let outcome = LineHarness(budget: budget).run(Array(input.utf8))
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.skippedLines == 1)
    #expect(outcome.sentLines == 2)
    #expect(outcome.replies.map { $0["ok"] } == [.bool(true), .bool(true)])
    #expect(outcome.replies.last?["id"] == .string("s"))
  }
}

/// The harness's connections: `@N ` lines, `close`, `reset`, `stall`, `read`, the strict line
/// limit of connection 3, and the item-frame budget.
@Suite("Line harness connections")
struct LineHarnessConnectionTests {
  private static let scene =
    #"{"bounds":[200,200],"items":[{"id":"a","center":[100,150],"size":[20,20]}],"#
    + #""behaviors":[{"type":"gravity","id":"g","items":["a"]}]}"#

  private func run(_ lines: [String], budget: LineHarness.Budget = .init()) -> LineHarness.Outcome {
    LineHarness(budget: budget).run(Array((lines.joined(separator: "\n") + "\n").utf8))
  }

  @Test("lines starting @N go to connection N; a watcher gets the frames another one steps")
  func watcher() {
    let outcome = run([
      #"{"op":"open","id":1,"session":"m","clock":"manual","scene":\#(Self.scene)}"#,
      #"@1 {"op":"watch","id":2,"session":"m"}"#,
      #"@0 {"op":"step","id":3,"session":"m","count":4}"#,
      #"@2 {"op":"list","id":4}"#,
    ])
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.connections == 3)
    #expect(outcome.replies.count == 4 && outcome.sentLines == 4)
    #expect(outcome.replies.allSatisfy { $0["ok"] == .bool(true) })
    #expect(outcome.output.filter { $0.hasPrefix(#"@1 {"ev":"frame""#) }.count == 4)
    #expect(outcome.output.filter { $0.hasPrefix(#"{"ev":"frame""#) }.count == 4)
  }

  @Test("@N close ends a connection: its session closes, and the next line opens N again")
  func close() {
    let outcome = run([
      #"{"op":"open","id":1,"session":"m","clock":"manual","scene":\#(Self.scene)}"#,
      #"@1 {"op":"watch","id":2,"session":"m"}"#,
      "@0 close",
      #"@0 {"op":"get","id":3,"session":"m"}"#,
    ])
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.connections == 3)
    #expect(outcome.output.contains(#"@1 {"ev":"closed","session":"m","reason":"owner_left"}"#))
    #expect(outcome.replies.last?["error"]?["code"] == .string("unknown_session"))
  }

  @Test("@N reset drops a connection in the middle of a step; the others go on")
  func reset() {
    let items = (0..<150).map { #"{"id":"i\#($0)","center":[\#(10 + $0),100],"size":[5,5]}"# }
    let ids = (0..<150).map { #""i\#($0)""# }.joined(separator: ",")
    let scene =
      #"{"items":[\#(items.joined(separator: ","))],"behaviors":[{"type":"push","#
      + #""items":[\#(ids)],"mode":"continuous","direction":[1,1]}]}"#
    let outcome = run([
      #"{"op":"open","id":1,"session":"m","clock":"manual","scene":\#(scene)}"#,
      #"{"op":"step","id":2,"session":"m","count":100}"#,
      "@0 reset",
      #"@1 {"op":"get","id":3,"session":"m"}"#,
    ])
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.sentLines == 3)
    #expect(outcome.unansweredLines == 1, "the step was cut off")
    #expect(outcome.replies.last?["error"]?["code"] == .string("unknown_session"))
  }

  @Test("a stalled connection's requests are answered once it reads again")
  func stall() {
    let outcome = run([
      #"{"op":"open","id":1,"session":"m","clock":"manual","scene":\#(Self.scene)}"#,
      "@1 stall",
      #"@1 {"op":"step","id":2,"session":"m","count":3}"#,
      #"@2 {"op":"hello","id":3}"#,
      "@1 read",
      #"@1 {"op":"get","id":4,"session":"m"}"#,
    ])
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.replies.count == 4)
    #expect(outcome.replies.allSatisfy { $0["ok"] == .bool(true) })
  }

  @Test("connection 3 alone has the small line limit; after line_too_long N opens again")
  func strictLineLimit() {
    let long = #"{"op":"hello","id":""# + String(repeating: "x", count: 3000) + #""}"#
    let outcome = run([long, "@3 " + long, #"@3 {"op":"hello","id":"again"}"#])
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.connections == 3)
    #expect(outcome.replies.map { $0["ok"] } == [.bool(true), .bool(false), .bool(true)])
    #expect(outcome.replies[1]["error"]?["code"] == .string("line_too_long"))
  }

  @Test("only @0 … @3 followed by a space (or nothing) address a connection")
  func addresses() {
    #expect(LineHarness.address(ArraySlice("@2 x".utf8)).index == 2)
    #expect(Array(LineHarness.address(ArraySlice("@2 x".utf8)).line) == Array("x".utf8))
    #expect(LineHarness.address(ArraySlice("@3".utf8)).index == 3)
    #expect(LineHarness.address(ArraySlice("@3".utf8)).line.isEmpty)
    #expect(LineHarness.address(ArraySlice("@4 x".utf8)).index == 0)
    #expect(Array(LineHarness.address(ArraySlice("@1x".utf8)).line) == Array("@1x".utf8))
    let outcome = run(["@9 {\"op\":\"hello\"}", "@1"])
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(
      outcome.replies.map { $0["error"]?["code"] } == [.string("bad_json"), .string("bad_json")])
  }

  @Test("steps are budgeted by frames × items")
  func itemFrames() {
    var budget = LineHarness.Budget()
    budget.maxStepItemFrames = 100
    let items = (0..<10).map { #"{"id":"i\#($0)","center":[\#(10 + $0 * 10),100],"size":[5,5]}"# }
    let outcome = run(
      [
        #"{"op":"open","session":"m","clock":"manual","scene":{"items":[\#(items.joined(separator: ","))]}}"#,
        #"{"op":"step","session":"m","count":11}"#,
        #"{"op":"step","session":"m","count":10}"#,
      ], budget: budget)
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.skippedLines == 1)
    #expect(outcome.sentLines == 2)
  }
}
