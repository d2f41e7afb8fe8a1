import Foundation
import SessionHost
import Testing

// Replays the transcripts of protocol/examples/*.jsonl against a fresh embedded host each: the
// `> ` lines are sent, and each peer must receive exactly the `< ` lines, in order (`!` is the
// peer leaving). The daemon tests' TranscriptReplayTests replays one of them through a socket.
// The format and the comparison rule are documented in protocol/examples/README.md.

/// Every transcript in protocol/examples, replayed and compared line by line.
@Suite("Host transcript replay (protocol/examples)")
struct HostTranscriptReplayTests {
  @Test("there are transcripts to replay")
  func transcriptsExist() throws {
    #expect(
      HostTranscript.fileNames.count >= 4,
      "found \(HostTranscript.fileNames) in \(HostTranscript.folder)")
  }

  @Test("the peers receive exactly the transcript's lines", arguments: HostTranscript.fileNames)
  func replay(fileName: String) throws {
    let transcript = try HostTranscript(contentsOf: fileName)
    let problem = TranscriptReplayer(rig: HostRig()).run(transcript)
    #expect(problem == nil, "\(problem ?? "")")
  }

  // The replay must be able to fail: a changed number, a missing line and an extra line are each
  // reported, with the transcript's name and line number.

  @Test("a wrong number in an expected line is reported with its file, line and field")
  func wrongNumberIsReported() throws {
    let text = """
      > {"op":"open","id":1,"session":"m","clock":"manual","scene":{"bounds":[200,200],"items":[{"id":"a","center":[100,150],"size":[20,20]}],"behaviors":[{"type":"gravity","items":["a"]}]}}
      < {"ok":true,"id":1,"session":"m","items":[{"id":"a","center":[100,150],"angle":0,"velocity":[0,0],"angular_velocity":0,"size":[20,20]}]}
      > {"op":"step","id":2,"session":"m","dt":0.05}
      < {"ev":"frame","session":"m","seq":1,"t":0.05,"items":[{"id":"a","center":[100,151.459],"angle":0,"velocity":[0,50],"angular_velocity":0}]}
      < {"ok":true,"id":2,"t":0.05,"running":true}
      """
    let problem = try replayInline(text)
    #expect(problem?.contains("inline.jsonl:4") == true, "\(problem ?? "no problem reported")")
    #expect(problem?.contains("items[0].center[1]") == true, "\(problem ?? "")")
  }

  @Test("an expected line the daemon never writes is reported")
  func missingLineIsReported() throws {
    let text = """
      > {"op":"list","id":1}
      < {"ok":true,"id":1,"sessions":[]}
      < {"ok":true,"id":2,"sessions":[]}
      """
    let problem = try replayInline(text)
    #expect(problem?.contains("inline.jsonl:3") == true, "\(problem ?? "no problem reported")")
  }

  @Test("a line the daemon writes that the transcript does not list is reported")
  func extraLineIsReported() throws {
    let text = """
      > {"op":"list","id":1}
      > {"op":"list","id":2}
      < {"ok":true,"id":1,"sessions":[]}
      """
    let problem = try replayInline(text)
    #expect(problem?.contains("unexpected") == true, "\(problem ?? "no problem reported")")
  }

  @Test("\"<any>\" matches any value, and only where it stands")
  func wildcard() throws {
    let accepted = try replayInline(
      """
      > {"op":"hello","id":1}
      < {"ok":true,"id":1,"protocol":1,"server":"dynd","version":"<any>","transitions":"<any>","parameters":"<any>"}
      """)
    #expect(accepted == nil, "\(accepted ?? "")")
    let refused = try replayInline(
      """
      > {"op":"hello","id":1}
      < {"ok":true,"id":1,"protocol":2,"server":"dynd","version":"<any>","transitions":"<any>","parameters":"<any>"}
      """)
    #expect(refused?.contains("protocol") == true, "\(refused ?? "no problem reported")")
  }

  /// Replays `text` as a transcript named inline.jsonl; returns the problem found, if any.
  private func replayInline(_ text: String) throws -> String? {
    TranscriptReplayer(rig: HostRig()).run(try HostTranscript(name: "inline.jsonl", text: text))
  }
}

// MARK: - transcripts

/// A parsed transcript: what to send and what to expect, on which connection, line by line.
struct HostTranscript {
  /// One meaningful line (comments and blank lines are dropped).
  struct Entry {
    enum Action {
      /// `> JSON`: send the text as it stands (it may be deliberately invalid).
      case send(String)
      /// `< JSON`: the next line the daemon writes on this connection must match.
      case expect(String)
      /// `!`: half-close the connection; the daemon must then close it with nothing more.
      case close
    }
    /// 1-based line number in the file.
    let line: Int
    /// The connection's name; "" is the default connection.
    let connection: String
    let action: Action
  }

  /// protocol/examples.
  static let folder = Scenes.repositoryRoot + "/protocol/examples"

  /// The transcript files, sorted.
  static var fileNames: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasSuffix(".jsonl") }.sorted()
  }

  let name: String
  let entries: [Entry]

  /// Reads `protocol/examples/<fileName>`.
  init(contentsOf fileName: String) throws {
    let path = Self.folder + "/" + fileName
    guard let data = FileManager.default.contents(atPath: path) else {
      throw TestFailure("cannot read \(path)")
    }
    try self.init(name: fileName, text: String(decoding: data, as: UTF8.self))
  }

  /// Parses transcript text; throws on a line that is none of the documented forms.
  init(name: String, text: String) throws {
    self.name = name
    var entries: [Entry] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      guard let entry = Self.entry(Substring(line), line: index + 1) else {
        throw TestFailure("\(name):\(index + 1): not a transcript line: \(line)")
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

// MARK: - replay

/// Plays a transcript against one embedded host and reports the first difference.
struct TranscriptReplayer {
  let rig: HostRig

  /// Returns nil if the peers received exactly the expected lines and nothing else, or a
  /// sentence naming the transcript line where it first differed.
  func run(_ transcript: HostTranscript) -> String? {
    var clients: [String: HostClient] = [:]
    var order: [String] = []
    for entry in transcript.entries {
      let place = "\(transcript.name):\(entry.line) (\(Self.describe(entry.connection)))"
      let client: HostClient
      if let existing = clients[entry.connection] {
        client = existing
      } else {
        client = rig.connect(entry.connection.isEmpty ? "default" : entry.connection)
        clients[entry.connection] = client
        order.append(entry.connection)
      }
      switch entry.action {
      case .send(let text):
        client.send(text)
      case .expect(let text):
        if let problem = expect(text, from: client, at: place) { return problem }
      case .close:
        if let problem = close(client, at: place) { return problem }
        clients[entry.connection] = nil
        order.removeAll { $0 == entry.connection }
      }
    }
    // Whatever is still connected must have nothing more to say.
    for name in order {
      guard let client = clients[name] else { continue }
      let place = "\(transcript.name): end of transcript (\(Self.describe(name)))"
      if let problem = close(client, at: place) { return problem }
    }
    if rig.embedded.nonFiniteCount > 0 { return "\(transcript.name): non-finite numbers sent" }
    return nil
  }

  /// Takes the next line the peer received and compares it with `text`.
  private func expect(_ text: String, from client: HostClient, at place: String) -> String? {
    guard let expected = JSONTree(text) else {
      return "\(place): the expected line is not JSON: \(text)"
    }
    guard !client.inbox.isEmpty else {
      return "\(place): expected \(text)\nbut the peer received nothing"
    }
    let actualText = client.inbox.removeFirst()
    guard let actual = JSONTree(actualText) else {
      return "\(place): the host sent a line that is not JSON: \(actualText)"
    }
    guard let difference = expected.firstDifference(from: actual, path: "") else { return nil }
    return "\(place): expected \(text)\nbut the host sent \(actualText)\n(\(difference))"
  }

  /// The peer must have nothing unread; then it leaves.
  private func close(_ client: HostClient, at place: String) -> String? {
    if let line = client.inbox.first { return "\(place): unexpected line from the host: \(line)" }
    client.close()
    return nil
  }

  private static func describe(_ connection: String) -> String {
    connection.isEmpty ? "default connection" : "connection '\(connection)'"
  }
}

// MARK: - comparing JSON

/// A JSON value parsed by Foundation, independently of the daemon's codec. Objects compare
/// without regard to key order; numbers compare exactly as doubles; booleans are not numbers.
enum JSONTree: Decodable, Equatable, CustomStringConvertible {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  /// The wildcard of an expected line: it matches any value at its place.
  static let wildcard = JSONTree.string("<any>")

  /// Parses one line of JSON text; nil if it is not JSON.
  init?(_ text: String) {
    guard let value = try? JSONDecoder().decode(JSONTree.self, from: Data(text.utf8)) else {
      return nil
    }
    self = value
  }

  init(from decoder: Decoder) throws {
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
  var description: String {
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
  func firstDifference(from actual: JSONTree, path: String) -> String? {
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
