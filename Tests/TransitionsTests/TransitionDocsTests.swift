import Foundation
import Testing

@testable import Transitions

/// protocol/PROTOCOL.md documents every registered transition with its parameters exactly as the
/// code declares them. After changing a parameter, print the tables with
/// `PRINT_TRANSITION_TABLES=1 swift test --filter TransitionDocs` and paste them.
@Suite("Transition documentation")
struct TransitionDocsTests {
  static let protocolText: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let url = root.appendingPathComponent("protocol/PROTOCOL.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// The Markdown table of a transition's parameters.
  static func table(_ type: Transition.Type) -> String {
    var lines = ["| param | default | range | unit | source |", "|---|---|---|---|---|"]
    for p in type.parameters {
      let value: String
      let range: String
      switch (p.defaultValue, p.kind) {
      case (.number(let v), .number(let r)):
        // An extent of the bounds is written as its expression, with its value in 320×568.
        func extent(_ number: Double, _ of: BoundsExtent?) -> String {
          of?.text.map { "`\($0)` (\(format(number)))" } ?? format(number)
        }
        value = extent(v, p.relative?.defaultValue)
        range =
          "\(extent(r.lowerBound, p.relative?.minimum)) … "
          + extent(r.upperBound, p.relative?.maximum)
      case (.string(let s), .choice(let words)):
        value = "`\"\(s)\"`"
        range = words.map { "`\($0)`" }.joined(separator: ", ")
      case (.bool(let b), _):
        value = "\(b)"
        range = "`true`, `false`"
      default:
        value = "?"
        range = "?"
      }
      lines.append("| `\(p.name)` | \(value) | \(range) | \(p.unit) | \(p.source) |")
    }
    return lines.joined(separator: "\n")
  }

  static func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
  }

  @Test("every registered transition has a section and its exact parameter table")
  func documented() {
    if ProcessInfo.processInfo.environment["PRINT_TRANSITION_TABLES"] == "1" {
      for type in TransitionRegistry.all { print("### \(type.name)\n\n\(Self.table(type))\n") }
    }
    #expect(!Self.protocolText.isEmpty, "protocol/PROTOCOL.md not found")
    for type in TransitionRegistry.all {
      #expect(Self.protocolText.contains("\n### \(type.name)\n"), "no section for \(type.name)")
      #expect(
        Self.protocolText.contains(Self.table(type)),
        "PROTOCOL.md's parameter table of \(type.name) differs from the code")
    }
  }
}
