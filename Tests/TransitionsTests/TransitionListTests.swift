import Foundation
import Testing

@testable import Transitions

/// Every list of transitions the documentation gives is the registry's, so that none can be
/// stale: a built-in added, renamed or removed fails here until each list says so.
///
/// What counts as a list, in every Markdown file of the README, `protocol/`, `docs/`,
/// `examples/` and `clients/python/`:
/// - a run of names with nothing but separators between them (commas, `·`, quotes, backticks,
///   `|`, white space, one `and` or `or`), as in a sentence, a contents line or a `hello` reply;
/// - the names that open the rows of a Markdown table (a row may name several);
/// - the headings that are exactly a name, in one document.
/// One that holds more than half of the registered transitions is taken for a list of them all
/// and must be exactly `TransitionRegistry.all`, in its order; a shorter one is a chosen few
/// (seed 000's demos, the transitions with a grip) and is left alone. A run of two or more of
/// the transitions written as documents (`examples/transitions/*.json`) must name them all.
/// A count of transitions ("the thirteen transitions", "three transitions exist only as
/// documents") must be the registry's, the documents' or both together.
@Suite("Transition lists in the documentation")
struct TransitionListTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The Markdown documents checked, relative to the checkout.
  static var documents: [String] {
    var found = ["README.md"]
    for directory in ["protocol", "docs", "examples", "clients/python"] {
      let url = root.appendingPathComponent(directory)
      guard
        let walker = FileManager.default.enumerator(
          at: url, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
      else { continue }
      for case let file as URL in walker where file.pathExtension == "md" {
        let path = file.standardizedFileURL.path
        found.append(String(path.dropFirst(root.standardizedFileURL.path.count + 1)))
      }
    }
    return found.sorted()
  }

  /// The names of the transitions written as documents in `examples/transitions/`.
  static var documentTransitions: [String] {
    let url = root.appendingPathComponent("examples/transitions")
    let files = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return files.filter { $0.hasSuffix(".json") }.sorted().compactMap { file in
      guard let data = try? Data(contentsOf: url.appendingPathComponent(file)),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
      else { return nil }
      return object["transition"] as? String
    }
  }

  @Test("every list of transitions in the documentation is the registry's")
  func listsAreTheRegistry() throws {
    let registry = TransitionRegistry.all.map { $0.name }
    let written = Self.documentTransitions
    #expect(written.count >= 2, "no transition documents found in examples/transitions")
    let documents = Self.documents
    #expect(documents.contains("protocol/PROTOCOL.md"))
    var lists = 0
    for document in documents {
      let text = try String(
        contentsOf: Self.root.appendingPathComponent(document), encoding: .utf8)
      let check = TransitionLists(registry: registry, written: written)
      for problem in check.problems(in: text) {
        Issue.record("\(document): \(problem)")
      }
      lists += check.lists(in: text).filter { $0.count * 2 > registry.count }.count
    }
    // The README's table and `hello`, PROTOCOL.md's contents, `hello` example and sections.
    #expect(lists >= 5, "only \(lists) lists of every transition found: is the detector blind?")
  }

  @Test("the check finds a stale list, a stale table, stale headings and a stale count")
  func detectorCatchesStaleness() {
    let check = TransitionLists(
      registry: ["a-one", "b-two", "c-three", "d-four", "e-five"], written: ["x-doc", "y-doc"])
    #expect(check.problems(in: "Contents — a-one · b-two ·\n  c-three · d-four · e-five").isEmpty)
    #expect(check.problems(in: #"["a-one","b-two","c-three","d-four","e-five"]"#).isEmpty)
    #expect(check.problems(in: "`a-one`, `b-two` and `c-three` grip.").count == 1)
    #expect(check.problems(in: "a-one's rail, c-three, d-four").isEmpty)
    #expect(check.problems(in: "a-one · b-two · c-three · d-four").count == 1)
    #expect(check.problems(in: "a-one, c-three, b-two, d-four, e-five").count == 1)
    #expect(check.problems(in: "a-one, b-two, c-three, d-four, e-five, f-six").isEmpty)
    let table = "| name | what |\n|---|---|\n| `a-one` | x |\n| `b-two`, `c-three` | y |\n"
    #expect(check.problems(in: table + "| `d-four` | z |\n").count == 1)
    #expect(check.problems(in: table + "| `d-four` | z |\n| `e-five` | w |\n").isEmpty)
    #expect(check.problems(in: "### a-one\n### b-two\n### c-three\n### e-five\n").count == 1)
    #expect(check.problems(in: "`x-doc` and `y-doc`").isEmpty)
    #expect(check.problems(in: "`x-doc`, `z-doc` and `y-doc`").isEmpty)
    #expect(check.problems(in: "`x-doc` and `z-doc`").isEmpty)
    #expect(check.problems(in: "the five transitions").isEmpty)
    #expect(check.problems(in: "two transitions exist only as documents").isEmpty)
    #expect(check.problems(in: "the four transitions of section 11").count == 1)
    #expect(check.problems(in: "the 11 built-in transitions").count == 1)
  }
}

/// Finds the lists of transitions in a Markdown text (`TransitionListTests`).
struct TransitionLists {
  /// The built-in transitions, in the registry's order.
  let registry: [String]
  /// The transitions written as documents, in any order.
  let written: [String]

  static let numberWords = [
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    "twenty",
  ]

  /// Each name found in `text`, where it starts and ends; a name is not part of a longer word
  /// or name (`snap` in `snapped` or `snap-back` is not found).
  func occurrences(in text: String) -> [(name: String, range: Range<String.Index>)] {
    var found: [(name: String, range: Range<String.Index>)] = []
    // Longest names first, so that a name inside another is not found twice.
    for name in (registry + written).sorted(by: { $0.count > $1.count }) {
      var from = text.startIndex
      while let range = text.range(of: name, range: from..<text.endIndex) {
        from = range.upperBound
        let before =
          range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
        let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
        let wordy: (Character?) -> Bool = { c in
          guard let c else { return false }
          return c.isLetter || c.isNumber || c == "-" || c == "_"
        }
        if wordy(before) || wordy(after) { continue }
        if found.contains(where: { $0.range.overlaps(range) }) { continue }
        found.append((name, range))
      }
    }
    return found.sorted { $0.range.lowerBound < $1.range.lowerBound }
  }

  /// Whether `gap` holds nothing but list separators.
  static func separates(_ gap: Substring) -> Bool {
    var words = 0
    var rest = gap
    while let c = rest.first {
      if c.isWhitespace || ",·\"`'|".contains(c) {
        rest = rest.dropFirst()
      } else if rest.hasPrefix("and") || rest.hasPrefix("or") {
        let word = rest.hasPrefix("and") ? 3 : 2
        let next = rest.dropFirst(word).first
        guard next.map({ $0.isWhitespace || $0 == "`" || $0 == "\"" }) ?? true else {
          return false
        }
        words += 1
        rest = rest.dropFirst(word)
      } else {
        return false
      }
    }
    return words <= 1
  }

  /// The runs of names with only separators between them, each in the order written.
  func runs(in text: String) -> [[String]] {
    var runs: [[String]] = []
    var current: [String] = []
    var last: String.Index?
    for (name, range) in occurrences(in: text) {
      if let last, Self.separates(text[last..<range.lowerBound]) {
        current.append(name)
      } else {
        if !current.isEmpty { runs.append(current) }
        current = [name]
      }
      last = range.upperBound
    }
    if !current.isEmpty { runs.append(current) }
    return runs
  }

  /// The names opening the rows of each Markdown table (its first cell), in order.
  func tables(in text: String) -> [[String]] {
    var tables: [[String]] = []
    var current: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      guard line.hasPrefix("|") else {
        if !current.isEmpty { tables.append(current) }
        current = []
        continue
      }
      let cell = line.dropFirst().prefix { $0 != "|" }
      current += occurrences(in: String(cell)).map(\.name).filter(registry.contains)
    }
    if !current.isEmpty { tables.append(current) }
    return tables
  }

  /// The headings that are exactly a built-in's name (backticks allowed), in order.
  func headings(in text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard line.hasPrefix("#") else { return nil }
      let title = line.drop { $0 == "#" }.trimmingCharacters(in: CharacterSet(charactersIn: " `"))
      return registry.contains(title) ? title : nil
    }
  }

  /// Every list of built-ins: the runs, the tables and the headings.
  func lists(in text: String) -> [[String]] {
    runs(in: text).map { $0.filter(registry.contains) } + tables(in: text) + [headings(in: text)]
  }

  /// What is wrong with the lists of `text`, one sentence each.
  func problems(in text: String) -> [String] {
    var problems: [String] = []
    for list in lists(in: text) where list.count * 2 > registry.count && list != registry {
      let missing = registry.filter { !list.contains($0) }
      let extra = list.filter { !registry.contains($0) }
      var what: [String] = []
      if !missing.isEmpty { what.append("misses \(missing.joined(separator: ", "))") }
      if !extra.isEmpty { what.append("adds \(extra.joined(separator: ", "))") }
      if what.isEmpty { what.append("is not in the registry's order") }
      problems.append(
        "the list \(list.joined(separator: ", ")) \(what.joined(separator: " and ")) "
          + "(the registry: \(registry.joined(separator: ", ")))")
    }
    for run in runs(in: text) {
      let documents = run.filter(written.contains)
      if documents.count >= 2, Set(documents) != Set(written) {
        problems.append(
          "the list of transitions written as documents \(documents.joined(separator: ", ")) "
            + "is not examples/transitions' \(written.joined(separator: ", "))")
      }
    }
    // "the thirteen transitions", "the 11 built-in transitions", "the thirteen of section 11";
    // a count of the documents (or of all) is allowed where it says so ("three transitions
    // exist only as documents").
    func spelled(_ n: Int) -> String {
      Self.numberWords.indices.contains(n - 1) ? Self.numberWords[n - 1] : String(n)
    }
    let count = spelled(registry.count)
    let allowed = Set(
      [registry.count, written.count, registry.count + written.count].flatMap {
        [spelled($0), String($0)]
      })
    let pattern =
      #"\b([a-z]+|[0-9]+)( built-in| hosted| registered)? (transitions\b|of section 11\b)"#
    let expression = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
    let whole = NSRange(text.startIndex..., in: text)
    for match in expression?.matches(in: text, range: whole) ?? [] {
      guard let range = Range(match.range(at: 1), in: text) else { continue }
      let word = text[range].lowercased()
      let isCount = Self.numberWords.contains(word) || Int(word) != nil
      if isCount, !allowed.contains(word) {
        let phrase = Range(match.range, in: text).map { String(text[$0]) } ?? word
        problems.append("\"\(phrase)\": there are \(count) built-in transitions")
      }
    }
    return problems
  }
}
