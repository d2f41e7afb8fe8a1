import Daemon
import Dispatch
import Foundation
import Glibc
import Testing

/// Pipelined requests against a whole daemon: a client that pipelines and reads is paced by
/// back-pressure, never disconnected, and one connection's buffered lines are handled in slices,
/// so the others are served between them (protocol/PROTOCOL.md, “9. Clocks, flow control,
/// coalescing”).
///
/// Round trips are measured on the test thread, which the daemon's loop (on its own thread)
/// cannot hold; the bound is loose (debug build, tests running in parallel on two cores).
@Suite("Transport: pipelined requests, back-pressure and turns")
struct TransportPipeliningTests {
  /// A manual session of 1 000 items: a `get` of it is a reply of about 93 KB.
  static let bigScene =
    #"{"op":"open","session":"big","clock":"manual","scene":"#
    + Scenes.endlessFall(items: 1000) + "}"

  @Test("a reading client pipelining 3 000 hellos in one write gets every reply, in order")
  func pipelinedHellos() throws {
    try withDaemon { daemon in
      // A plain client: 24 MB of replies are too many for the schema check of the record.
      let client = try TestClient(path: daemon.socketPath)
      // About 8 KB a reply, 24 MB in all: three times the connection's hard output limit.
      let requests = (0..<3000).map { #"{"op":"hello","id":\#($0)}"# + "\n" }.joined()
      try client.write(requests)
      try Self.expectReplies(0..<3000, from: client)
      // Still connected.
      try client.write(#"{"op":"hello","id":"after"}"# + "\n")
      try Self.expectReplies(["\"after\""], from: client)
      try daemon.connect().expectOK(#"{"op":"hello"}"#)
    }
  }

  @Test("pipelined gets of a 1 000-item session from a reading client are all answered")
  func pipelinedGets() throws {
    try withDaemon { daemon in
      let client = try TestClient(path: daemon.socketPath)
      try client.write(Self.bigScene + "\n")
      #expect(try client.readLineString()?.hasPrefix(#"{"ok":true,"#) == true)
      // 120 replies of about 93 KB: 11 MB, more than the hard output limit.
      let count = 120
      let requests = (0..<count).map { #"{"op":"get","session":"big","id":\#($0)}"# + "\n" }
      try client.write(requests.joined())
      try Self.expectReplies(0..<count, from: client, longerThan: 50_000)
      try daemon.connect().expectOK(#"{"op":"hello"}"#)
    }
  }

  @Test(
    "a client that pipelines gets and never reads is closed once it has read nothing for a time")
  func neverReadingPipeliner() throws {
    let shortStall: (inout Server.Options) -> Void = {
      $0.stalledReaderTimeout = .milliseconds(300)
    }
    try withDaemon(configured: shortStall) { daemon in
      let attacker = try TestClient(path: daemon.socketPath)
      try attacker.write(Self.bigScene + "\n")
      #expect(try attacker.readLineString()?.hasPrefix(#"{"ok":true,"#) == true)
      let fd = attacker.fd
      let closed = DispatchSemaphore(value: 0)
      let started = ContinuousClock.now
      Thread {
        // Gets, never reading their replies, until the daemon closes the connection.
        let requests = Array(
          String(repeating: #"{"op":"get","session":"big"}"# + "\n", count: 100).utf8)
        while ContinuousClock.now - started < .seconds(20) {
          let n = requests.withUnsafeBytes {
            Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          if n < 0 && errno != EAGAIN && errno != EINTR { break }
        }
        closed.signal()
      }.start()
      #expect(closed.wait(timeout: .now() + 25) == .success)
      let waited = ContinuousClock.now - started
      #expect(waited >= .milliseconds(250) && waited < .seconds(10), "closed after \(waited)")
      attacker.close()
      try daemon.connect("healthy").expectOK(#"{"op":"hello"}"#)
    }
  }

  /// Reads one successful reply for each id, in order (each at least `longerThan` bytes).
  static func expectReplies(
    _ ids: some Sequence<some CustomStringConvertible>, from client: TestClient,
    longerThan minimum: Int = 0, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    for (index, id) in ids.enumerated() {
      guard let line = try client.readLine() else {
        Issue.record("the connection ended after \(index) replies", sourceLocation: sourceLocation)
        return
      }
      guard line.starts(with: #"{"ok":true,"id":\#(id),"#.utf8), line.count > minimum else {
        let text = String(decoding: line.prefix(80), as: UTF8.self)
        Issue.record("reply \(index): \(text)", sourceLocation: sourceLocation)
        return
      }
    }
  }

  @Test("while four connections have 1 000 costly lines each buffered, a hello stays quick")
  func othersServedBetweenSlices() throws {
    try withDaemon { daemon in
      let healthy = try daemon.connect("healthy")
      let attackers = try (0..<4).map { i in
        let attacker = try daemon.connect("attacker\(i)")
        try attacker.expectOK(Self.bigScene.replacingOccurrences(of: "\"big\"", with: "\"b\(i)\""))
        return attacker
      }
      let written = DispatchSemaphore(value: 0)
      for (i, attacker) in attackers.enumerated() {
        // Each request walks the 1 000 items (over a millisecond in a debug build) for a 29-byte
        // reply, so no back-pressure applies: only the loop's turns keep the others served.
        let line = #"{"op":"items_in_rect","session":"b\#(i)","rect":[0,0,1,1]}"# + "\n"
        let bytes = Array(String(repeating: line, count: 1000).utf8)
        let fd = attacker.fd
        // Written from another thread: the daemon reads the lines as it handles them.
        Thread {
          var offset = 0
          while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes {
              Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard n > 0 else { break }
            offset += n
          }
          written.signal()
        }.start()
      }
      // The daemon is handling the attackers' lines once their first replies are out.
      for attacker in attackers {
        let first = try #require(try attacker.readMessage())
        #expect(first.ok, "\(first)")
      }
      let worst = try IsolationTests.worstRoundTrip(of: healthy, for: .milliseconds(600))
      #expect(worst < Self.worstRoundTrip, "worst hello round trip \(worst)")
      for attacker in attackers { attacker.close() }
      for _ in attackers { _ = written.wait(timeout: .now() + 30) }
      try healthy.expectOK(#"{"op":"hello"}"#)
    }
  }

  /// The slowest `hello` round trip allowed while another connection's lines are handled. The
  /// loop's slice is 2 ms; a loop that handles every buffered line at once takes seconds.
  static let worstRoundTrip = Duration.milliseconds(150)
}
