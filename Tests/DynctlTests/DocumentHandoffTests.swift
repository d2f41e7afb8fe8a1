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
}
