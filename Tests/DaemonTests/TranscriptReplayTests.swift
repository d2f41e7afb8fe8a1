import Foundation
import Glibc
import TestSupport
import Testing

// Replays one transcript of protocol/examples against a fresh daemon, end to end through the
// socket: the `> ` lines are sent, and the daemon must write exactly the `< ` lines, in order, on
// each connection. Every transcript replays through the embedded host
// (`SessionHostTests/HostTranscriptReplayTests`); this one has several connections and a
// half-close (`!`). The format and the comparison rule are documented in
// protocol/examples/README.md; the parser and the comparison (Tests/TranscriptSupport) are tested
// with the host's replay.

/// One transcript of protocol/examples, replayed through a daemon and compared line by line.
@Suite("Transcript replay (protocol/examples)")
struct TranscriptReplayTests {
  /// The transcript replayed end to end.
  static let endToEnd = "watch-and-step.jsonl"

  @Test("the daemon writes exactly the lines of watch-and-step.jsonl")
  func replay() throws {
    #expect(Transcript.fileNames.contains(Self.endToEnd), "\(Transcript.folder)")
    let transcript = try Transcript(contentsOf: Self.endToEnd)
    let halfCloses = transcript.entries.filter {
      if case .close = $0.action { return true }
      return false
    }
    #expect(!halfCloses.isEmpty, "\(Self.endToEnd) has no half-close")
    try withDaemon { daemon in
      let problem = try TranscriptReplayer(daemon: daemon).run(transcript)
      #expect(problem == nil, "\(problem ?? "")")
    }
  }
}

// MARK: - replay

/// Plays a transcript against one daemon and reports the first difference.
struct TranscriptReplayer {
  let daemon: TestDaemon
  /// How long the daemon may take to write one expected line.
  var lineTimeout: Duration = .seconds(5)

  /// Returns nil if the daemon wrote exactly the expected lines and nothing else, or a sentence
  /// naming the transcript line where it first differed.
  func run(_ transcript: Transcript) throws -> String? {
    var clients: [String: WireClient] = [:]
    var order: [String] = []
    defer { for client in clients.values { client.close() } }
    for entry in transcript.entries {
      let place = "\(transcript.name):\(entry.line) (\(Self.describe(entry.connection)))"
      let client: WireClient
      if let existing = clients[entry.connection] {
        client = existing
      } else {
        client = try daemon.connect(entry.connection.isEmpty ? "default" : entry.connection)
        clients[entry.connection] = client
        order.append(entry.connection)
      }
      switch entry.action {
      case .send(let text):
        try client.send(text)
      case .expect(let text):
        if let problem = expect(text, from: client, at: place) { return problem }
      case .close:
        if let problem = close(client, at: place) { return problem }
        clients[entry.connection] = nil
        order.removeAll { $0 == entry.connection }
      }
    }
    // Whatever is still open must have nothing more to say.
    for name in order {
      guard let client = clients[name] else { continue }
      let place = "\(transcript.name): end of transcript (\(Self.describe(name)))"
      if let problem = close(client, at: place) { return problem }
    }
    return nil
  }

  /// Reads the next line and compares it with `text`.
  private func expect(_ text: String, from client: WireClient, at place: String) -> String? {
    guard let expected = JSONTree(text) else {
      return "\(place): the expected line is not JSON: \(text)"
    }
    let line: [UInt8]?
    do {
      line = try client.readLine(timeout: lineTimeout)
    } catch {
      return "\(place): expected \(text)\nbut the daemon wrote nothing (\(error))"
    }
    guard let line else {
      return "\(place): expected \(text)\nbut the daemon closed the connection"
    }
    let actualText = String(decoding: line, as: UTF8.self)
    guard let actual = JSONTree(actualText) else {
      return "\(place): the daemon wrote a line that is not JSON: \(actualText)"
    }
    guard let difference = expected.firstDifference(from: actual, path: "") else { return nil }
    return "\(place): expected \(text)\nbut the daemon wrote \(actualText)\n(\(difference))"
  }

  /// Half-closes the connection and requires the daemon to close it without writing more.
  private func close(_ client: WireClient, at place: String) -> String? {
    shutdown(client.fd, Int32(SHUT_WR))
    do {
      if let line = try client.readLine(timeout: lineTimeout) {
        return "\(place): unexpected line from the daemon: \(String(decoding: line, as: UTF8.self))"
      }
    } catch {
      return "\(place): the daemon did not close the connection (\(error))"
    }
    client.close()
    return nil
  }

  private static func describe(_ connection: String) -> String {
    connection.isEmpty ? "default connection" : "connection '\(connection)'"
  }
}
