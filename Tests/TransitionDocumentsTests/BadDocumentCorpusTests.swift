import Foundation
import Testing
import TransitionDocuments

/// The bad-document corpus (Tests/Shared/documents/bad): each document, read as `define` and
/// `dynctl check` read it, gives exactly the errors `expected.txt` lists for it, every one at
/// once with its JSON pointer. Regenerate after an intended change with
/// `DYND_UPDATE_CORPUS=1 swift test --filter BadDocumentCorpus` and review the diff.
@Suite("Transition documents: the bad-document corpus")
struct BadDocumentCorpusTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Shared/documents/bad")

  @Test("each bad document gives exactly its errors")
  func corpus() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    #expect(names.count >= 12)
    var lines: [String] = []
    for name in names {
      let text = try Data(contentsOf: Self.folder.appendingPathComponent(name))
      do {
        _ = try TransitionDocument.read(text: Array(text))
        Issue.record("\(name) was accepted")
      } catch {
        lines += error.errors.map { "\(name): \($0)" }
      }
    }
    // Over 1 MiB, made here rather than checked in.
    let huge = Array(String(repeating: " ", count: TransitionDocument.maxBytes).utf8) + [123, 125]
    do {
      _ = try TransitionDocument.read(text: huge)
    } catch {
      lines += error.errors.map { "(1 MiB and 2 bytes): \($0)" }
    }
    let expected = Self.folder.appendingPathComponent("expected.txt")
    let got = lines.joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["DYND_UPDATE_CORPUS"] == "1" {
      try got.write(to: expected, atomically: true, encoding: .utf8)
    }
    #expect(got == (try String(contentsOf: expected, encoding: .utf8)))
  }
}
