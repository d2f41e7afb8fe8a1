import Foundation

// The transcripts of protocol/examples (format and comparison rule in
// protocol/examples/README.md), parsed, and the JSON comparison both replays use: the embedded
// host's (`SessionHostTests/HostTranscriptReplayTests`, every transcript, and the self-tests of
// this parser and comparison) and the daemon's (`DaemonTests/TranscriptReplayTests`, one
// transcript through a socket).

// MARK: - transcripts

/// A parsed transcript: what to send and what to expect, on which connection, line by line.
public struct Transcript: Sendable {
  /// One meaningful line (comments and blank lines are dropped).
  public struct Entry: Sendable {
    public enum Action: Sendable {
      /// `> JSON`: send the text as it stands (it may be deliberately invalid).
      case send(String)
      /// `< JSON`: the next line this connection receives must match.
      case expect(String)
      /// `!`: the connection leaves (a half-close on a socket); nothing more may come to it.
      case close
    }
    /// 1-based line number in the file.
    public let line: Int
    /// The connection's name; "" is the default connection.
    public let connection: String
    public let action: Action
  }

  /// protocol/examples, found from this file's path (Tests/TranscriptSupport/…).
  public static let folder =
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path + "/protocol/examples"

  /// The transcript files, sorted.
  public static var fileNames: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted()
  }

  public let name: String
  public let entries: [Entry]

  /// Reads `protocol/examples/<fileName>`.
  public init(contentsOf fileName: String) throws {
    let path = Self.folder + "/" + fileName
    guard let data = FileManager.default.contents(atPath: path) else {
      throw TranscriptError("cannot read \(path)")
    }
    try self.init(name: fileName, text: String(decoding: data, as: UTF8.self))
  }

  /// Parses transcript text; throws on a line that is none of the documented forms.
  public init(name: String, text: String) throws {
    self.name = name
    var entries: [Entry] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      guard let entry = Self.entry(Substring(line), line: index + 1) else {
        throw TranscriptError("\(name):\(index + 1): not a transcript line: \(line)")
      }
      entries.append(entry)
    }
    self.entries = entries
  }

  /// `[NAME]> text`, `[NAME]< text` or `[NAME]!`, NAME made of letters, digits, `_` and `-`.
  private static func entry(_ line: Substring, line number: Int) -> Entry? {
    guard let mark = line.firstIndex(where: { ">!<".contains($0) }) else { return nil }
    let name = String(line[..<mark])
    guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
      return nil
    }
    let rest = line[line.index(after: mark)...]
    switch line[mark] {
    case "!":
      return rest.isEmpty ? Entry(line: number, connection: name, action: .close) : nil
    case let sign:
      guard rest.hasPrefix(" ") else { return nil }
      let text = String(rest.dropFirst())
      return Entry(
        line: number, connection: name, action: sign == ">" ? .send(text) : .expect(text))
    }
  }
}

/// A transcript that cannot be read or parsed.
public struct TranscriptError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}

// MARK: - comparing JSON

/// A JSON value parsed by Foundation, independently of dynd's codec. Objects compare
/// without regard to key order; numbers compare exactly as doubles; booleans are not numbers.
public enum JSONTree: Decodable, Equatable, Sendable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  /// The wildcard of an expected line: it matches any value at its place.
  public static let wildcard = JSONTree.string("<any>")

  /// Parses one line of JSON text; nil if it is not JSON.
  public init?(_ text: String) {
    guard let value = try? JSONDecoder().decode(JSONTree.self, from: Data(text.utf8)) else {
      return nil
    }
    self = value
  }

  public init(from decoder: Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let elements = try? container.decode([JSONTree].self) {
      self = .array(elements)
    } else {
      self = .object(try container.decode([String: JSONTree].self))
    }
  }

  /// The value in JSON-like notation, for messages.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let flag): return "\(flag)"
    case .number(let number):
      let whole = number == number.rounded() && abs(number) < 1e15
      return whole ? "\(Int64(number))" : "\(number)"
    case .string(let text): return "\"\(text)\""
    case .array(let elements): return "[" + elements.map(\.description).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.keys.sorted().map { "\"\($0)\":\(members[$0]!)" }.joined(separator: ",")
        + "}"
    }
  }

  /// Where `actual` first differs from this expected value (a path such as
  /// `items[0].center[1]` and both values), or nil if it matches.
  public func firstDifference(from actual: JSONTree, path: String) -> String? {
    if self == Self.wildcard { return nil }
    switch (self, actual) {
    case (.object(let expected), .object(let got)):
      for key in expected.keys.sorted() {
        let field = path.isEmpty ? key : "\(path).\(key)"
        guard let value = got[key] else { return "'\(field)' is missing" }
        if let difference = expected[key]!.firstDifference(from: value, path: field) {
          return difference
        }
      }
      if let extra = got.keys.sorted().first(where: { expected[$0] == nil }) {
        return "'\(path.isEmpty ? extra : "\(path).\(extra)")' is not expected"
      }
      return nil
    case (.array(let expected), .array(let got)):
      guard expected.count == got.count else {
        return "'\(path)' has \(got.count) elements, expected \(expected.count)"
      }
      for (index, pair) in zip(expected, got).enumerated() {
        if let difference = pair.0.firstDifference(from: pair.1, path: "\(path)[\(index)]") {
          return difference
        }
      }
      return nil
    default:
      return self == actual ? nil : "'\(path)' is \(actual), expected \(self)"
    }
  }
}
