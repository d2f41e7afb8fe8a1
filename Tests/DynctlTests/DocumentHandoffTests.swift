import Foundation
import Testing

/// `dynctl define`, then `dynctl handoff` on the transitions that exist only as documents: the
/// release is checked against the motion the document itself declares (a spring's closed form,
/// every frame until `done`), not against a transition written in Swift.
@Suite("dynctl handoff on document transitions")
struct DocumentHandoffTests {
  static let examples = Binaries.packageRoot.appendingPathComponent("examples/transitions")

  @Test("swipe-card and drawer: defined, then PASS against their own springs")
  func handoff() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    for name in ["swipe-card", "drawer"] {
      let file = Self.examples.appendingPathComponent("\(name).json").path
      let defined = daemon.dynctl(["define", file])
      #expect(defined.status == 0, "\(name): \(defined.error)")
    }
    for (name, gesture) in [
      (
        "swipe-card",
        ["--pan", "160,284:200,284", "--duration", "0.1", "--release-velocity", "1500,0"]
      ),
      (
        "swipe-card",
        ["--pan", "160,284:170,284", "--duration", "0.2", "--release-velocity", "100,0"]
      ),
      ("drawer", ["--pan", "10,284:80,284", "--duration", "0.2", "--release-velocity", "900,0"]),
    ] {
      let check = daemon.dynctl(["handoff", name] + gesture)
      #expect(check.status == 0, "\(name): \(check.output) \(check.error)")
      #expect(check.output.contains("of the spring's closed form toward"), "\(check.output)")
      #expect(check.output.contains("\nPASS: "), "\(check.output)")
      #expect(!check.output.contains("not verified"), "\(check.output)")
    }
  }

  /// The sheet written as a document, defined under another name: `dynctl handoff` gives the
  /// report it gives for the built-in sheet, line for line but the session's name (the
  /// projection, the detent it chose, the spring, every frame against its closed form).
  @Test("the sheet as a document: the same report as the built-in sheet's")
  func sheetDocument() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let text = try String(
      contentsOf: Self.examples.appendingPathComponent("built-ins/sheet.json"), encoding: .utf8)
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("sheet-doc-\(getpid()).json")
    try text.replacingOccurrences(
      of: #""transition": "sheet""#, with: #""transition": "sheet-doc""#
    )
    .write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect(daemon.dynctl(["define", file.path]).status == 0)
    let gesture = ["--pan", "160,540:160,300", "--duration", "0.2", "--release-velocity", "0,-900"]
    let document = daemon.dynctl(["handoff", "sheet-doc"] + gesture)
    let builtIn = daemon.dynctl(["handoff", "sheet"] + gesture)
    #expect(document.status == 0 && builtIn.status == 0, "\(document.output) \(document.error)")
    // Every line but those that name the session (`sheet-doc-12 done: large`).
    func lines(_ output: String, _ session: String) -> [String] {
      output.split(separator: "\n").map(String.init).filter { !$0.contains(session + "-") }
    }
    #expect(lines(document.output, "sheet-doc") == lines(builtIn.output, "sheet"))
    #expect(document.output.contains("detent") && document.output.contains("\nPASS: "))
  }
}
