import Daemon
import Foundation
import Testing
import Wire

/// The fuzzer's checked-in corpus (`Tests/Fuzz/corpus`), replayed through the same `LineHarness`
/// as `dynd-fuzz`, in the normal debug build: no input may crash the daemon or make it write
/// anything but valid, finite JSON with one reply per request line.
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

  @Test("the corpus holds seeds of both kinds")
  func corpusIsThere() {
    let names = Self.files.map(\.lastPathComponent)
    #expect(names.count >= 30, "found \(names.count) seeds in \(Self.corpus.path)")
    #expect(names.contains { $0.hasPrefix("ok-") })
    #expect(names.contains { $0.hasPrefix("bad-") })
  }

  @Test("every seed runs to the end with valid output", arguments: files)
  func replay(_ file: URL) throws {
    let input = try [UInt8](Data(contentsOf: file))
    let outcome = LineHarness().run(input)
    let name = file.lastPathComponent
    #expect(outcome.problems.isEmpty, "\(name): \(outcome.problems.joined(separator: "\n"))")
    #expect(outcome.replies.count == outcome.sentLines, "\(name)")
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
