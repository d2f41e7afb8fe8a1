import Foundation
import HostFuzzing
import Testing
import Wire

/// The fuzzer's checked-in corpus (`Tests/Fuzz/corpus`), replayed through `HostFuzzDriver`, the
/// driver `dynd-fuzz` runs: no input may crash the host or make it send anything but valid,
/// finite JSON with one reply per request line to every peer.
///
/// Seeds named `ok-…` must be answered `ok` throughout; `bad-…` seeds with at least one error
/// (unless their only bad lines are too long, which the host never sees).
@Suite("Host fuzz corpus replay")
struct HostFuzzCorpusTests {
  static let corpus = URL(fileURLWithPath: Scenes.repositoryRoot + "/Tests/Fuzz/corpus")

  static var files: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map { corpus.appendingPathComponent($0) }
  }

  @Test("the corpus is there")
  func corpusIsThere() {
    #expect(Self.files.count >= 30, "found \(Self.files.count) seeds in \(Self.corpus.path)")
  }

  @Test("every seed runs to the end with valid output", arguments: files)
  func replay(_ file: URL) throws {
    let input = try [UInt8](Data(contentsOf: file))
    let outcome = HostFuzzDriver().run(input)
    let name = file.lastPathComponent
    #expect(outcome.problems.isEmpty, "\(name): \(outcome.problems.joined(separator: "\n"))")
    #expect(outcome.replies.count + outcome.unansweredLines == outcome.sentLines, "\(name)")
    let failures = outcome.replies.filter { $0.error != nil }
    if name.hasPrefix("ok-") {
      #expect(outcome.skippedLines == 0, "\(name): the budget left lines out")
      #expect(failures.isEmpty, "\(name): \(failures)")
    } else if name.hasPrefix("bad-") && !name.contains("too-long") {
      #expect(!failures.isEmpty, "\(name) is answered without a single error")
    }
  }
}
