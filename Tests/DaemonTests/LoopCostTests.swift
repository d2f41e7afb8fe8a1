import Foundation
import Glibc
import Testing

/// What only a real daemon shows of issue "Fair by cost": a long request line is parsed off the
/// loop, and a peer that hangs up in the middle of a long step stops its work at once.
@Suite("Loop cost: long lines and hang-ups")
struct LoopCostTests {
  /// A refused `open` of 700 items given as regular 64-gons (about 680 KB): parsing it costs
  /// tens of milliseconds, the refusal (an item without `size`) nothing.
  static let longRefusedOpen: String = {
    let gon = (0..<64).map { k -> String in
      let a = 2 * Double.pi * Double(k) / 64
      return "[\((10 * cos(a) * 1000).rounded() / 1000),\((10 * sin(a) * 1000).rounded() / 1000)]"
    }.joined(separator: ",")
    let items = (0..<700).map { #"{"id":"p\#($0)","center":[20,20],"path":[\#(gon)]}"# }
    return #"{"op":"open","id":"big","clock":"manual","scene":{"items":["#
      + items.joined(separator: ",") + "]}}"
  }()

  @Test("another client's hello does not wait while a long line is parsed")
  func longLineParsedOffTheLoop() throws {
    try withDaemon { daemon in
      let attacker = try daemon.connect("attacker")
      let healthy = try daemon.connect("healthy")
      // The attacker's own cost for one line, alone.
      var start = ContinuousClock.now
      try attacker.expectError("missing_field", Self.longRefusedOpen)
      let alone = ContinuousClock.now - start
      // Now four of them in one write while the healthy client says hello every 2 ms.
      try attacker.send(
        Array(repeating: Self.longRefusedOpen, count: 4).joined(separator: "\n"))
      var worst = Duration.zero
      var answered = 0
      start = ContinuousClock.now
      while answered < 4, ContinuousClock.now - start < .seconds(60) {
        let sent = ContinuousClock.now
        try healthy.expectOK(#"{"op":"hello"}"#)
        worst = max(worst, ContinuousClock.now - sent)
        while let line = try? attacker.readLine(timeout: .milliseconds(2)) {
          if String(decoding: line, as: UTF8.self).contains("missing_field") { answered += 1 }
        }
      }
      #expect(answered == 4)
      // Parsed on the loop, a hello would wait for a whole line's parse: as long as `alone`.
      #expect(worst < alone / 2, "worst hello \(worst), one long line alone \(alone)")
    }
  }

  @Test("a new client's hello is served ahead of 100 connections that pipeline at once")
  func singleRequestsGoFirst() throws {
    try withDaemon { daemon in
      let owner = try daemon.connect("owner")
      let items = (0..<1000).map {
        #"{"id":"i\#($0)","center":[\#(10 + $0 % 30 * 10),\#(10 + $0 / 30 * 10)],"size":[5,5]}"#
      }
      try owner.expectOK(
        #"{"op":"open","session":"big","keep":true,"clock":"manual","scene":{"items":["#
          + items.joined(separator: ",") + "]}}")
      // 100 connections each pipeline 64 gets of 1 000 items (about 100 KB a reply) and never
      // read; then a new client says hello.
      let pipeline = Array(repeating: #"{"op":"get","session":"big"}"#, count: 64)
        .joined(separator: "\n")
      var crowd: [WireClient] = []
      for index in 0..<100 {
        let client = try daemon.connect("crowd \(index)")
        try client.send(pipeline)
        crowd.append(client)
      }
      let start = ContinuousClock.now
      let newcomer = try daemon.connect("newcomer")
      try newcomer.expectOK(#"{"op":"hello"}"#)
      let waited = ContinuousClock.now - start
      // Behind one 2 ms turn of each pipeliner it would wait 100 of them.
      #expect(waited < .milliseconds(150), "the newcomer's hello took \(waited)")
      for client in crowd { client.close() }
    }
  }

  @Test("a peer that hangs up during a long step has its session closed at once")
  func hangUpStopsWork() throws {
    try withDaemon { daemon in
      let attacker = try daemon.connect("attacker")
      let other = try daemon.connect("other")
      // 400 overlapping boxes in one collision behavior: a frame of 10 s takes many seconds.
      let items = (0..<400).map { #"{"id":"i\#($0)","center":[160,284],"size":[30,30]}"# }
      let ids = (0..<400).map { #""i\#($0)""# }.joined(separator: ",")
      try attacker.expectOK(
        #"{"op":"open","session":"pile","clock":"manual","scene":{"items":["#
          + items.joined(separator: ",") + #"],"behaviors":[{"type":"gravity","items":["# + ids
          + #"]},{"type":"collision","items":["# + ids + #"],"reference_bounds":true}]}}"#)
      try attacker.send(#"{"op":"step","id":"long","session":"pile","dt":10}"#)
      Thread.sleep(forTimeInterval: 0.2)  // the scenario: it hangs up 200 ms into the step
      let closed = ContinuousClock.now
      attacker.close()
      let isClosed = try eventually(timeout: .seconds(30)) {
        !(try other.expectOK(#"{"op":"list"}"#).reply.text.contains(#""pile""#))
      }
      let gone = ContinuousClock.now - closed
      #expect(isClosed, "the session was still open 30 s after its owner hung up")
      #expect(gone < .seconds(1), "the session closed \(gone) after its owner hung up")
    }
  }
}
