import Foundation
import SessionHost
import TestSupport
import Testing

// Replays the transcripts of protocol/examples/*.jsonl against a fresh embedded host each: the
// `> ` lines are sent, and each peer must receive exactly the `< ` lines, in order (`!` is the
// peer leaving). The daemon tests' TranscriptReplayTests replays one of them through a socket.
// The format and the comparison rule are documented in protocol/examples/README.md; the parser
// and the comparison (Tests/TranscriptSupport) are tested here, once.

/// Every transcript in protocol/examples, replayed and compared line by line.
@Suite("Host transcript replay (protocol/examples)")
struct HostTranscriptReplayTests {
  @Test("there are transcripts to replay")
  func transcriptsExist() throws {
    #expect(
      Transcript.fileNames.count >= 4,
      "found \(Transcript.fileNames) in \(Transcript.folder)")
  }

  @Test("the peers receive exactly the transcript's lines", arguments: Transcript.fileNames)
  func replay(fileName: String) throws {
    let transcript = try Transcript(contentsOf: fileName)
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

  @Test("an expected line the host never sends is reported")
  func missingLineIsReported() throws {
    let text = """
      > {"op":"list","id":1}
      < {"ok":true,"id":1,"sessions":[]}
      < {"ok":true,"id":2,"sessions":[]}
      """
    let problem = try replayInline(text)
    #expect(problem?.contains("inline.jsonl:3") == true, "\(problem ?? "no problem reported")")
  }

  @Test("a line the host sends that the transcript does not list is reported")
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
    TranscriptReplayer(rig: HostRig()).run(try Transcript(name: "inline.jsonl", text: text))
  }
}

// MARK: - replay

/// Plays a transcript against one embedded host and reports the first difference.
struct TranscriptReplayer {
  let rig: HostRig

  /// Returns nil if the peers received exactly the expected lines and nothing else, or a
  /// sentence naming the transcript line where it first differed.
  func run(_ transcript: Transcript) -> String? {
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
