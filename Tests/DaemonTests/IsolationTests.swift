import Foundation
import Glibc
import Testing

/// The reproducers of "one client can crash or freeze dynd for everyone", each against a real
/// daemon: what one client asks for costs that client alone, and a healthy client's round trip
/// stays short meanwhile.
///
/// Round-trip bounds here are loose (debug build, tests running in parallel on two cores): they
/// catch a loop that blocks for seconds, as the old one did. `dynbench isolation` measures the
/// release build against the issue's 50 ms target.
@Suite("Isolation: no client can crash, freeze or starve dynd")
struct IsolationTests {
  /// The worst round trip a healthy client may see while a reproducer runs, in these tests.
  static let worstRoundTrip = Duration.milliseconds(750)

  @Test("a boundary storm is refused before Box2D sees it, with the limit in the error")
  func boundaryStorm() throws {
    try withDaemon { daemon in
      let attacker = try daemon.connect("attacker")
      // 30 stacked zigzags of 1024 points: every per-list limit respected, 30 690 segments.
      let storm = (0..<30).map { Self.zigzag(id: "z\($0)", points: 1024) }
      let reply = try attacker.expectError(
        "out_of_range",
        #"{"op":"open","session":"storm","clock":"manual","scene":{"items":[{"id":"a","#
          + #""center":[10,10],"size":[5,5]}],"behaviors":[{"type":"collision","items":["a"],"#
          + #""boundaries":["# + storm.joined(separator: ",") + "]}]}}")
      #expect(reply.errorMessage?.contains("4096") == true, "\(reply.text)")
      // Adding boundaries a behavior at a time reaches the same bound.
      try attacker.expectOK(
        #"{"op":"open","session":"s","clock":"manual","scene":{"items":[{"id":"a","#
          + #""center":[10,10],"size":[5,5]}]}}"#)
      let three = (0..<3).map { Self.zigzag(id: "z\($0)", points: 1024) }
      try attacker.expectOK(
        #"{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],"#
          + #""boundaries":["# + three.joined(separator: ",") + "]}}")
      try attacker.expectError(
        "out_of_range",
        #"{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":["a"],"#
          + #""boundaries":["# + three.joined(separator: ",") + "]}}")
      // What fits steps, and a stacked pile at the bound does not stop other clients.
      let healthy = try daemon.connect("healthy")
      try attacker.send(#"{"op":"step","id":"pile","session":"s","count":5}"#)
      let worst = try Self.worstRoundTrip(of: healthy, for: .milliseconds(400))
      #expect(worst < Self.worstRoundTrip, "worst round trip \(worst)")
      let step = try attacker.read(timeout: .seconds(120)) { $0.isReply }
      #expect(step.last?.ok == true, "\(step.last?.text ?? "")")
      try healthy.expectOK(#"{"op":"hello"}"#)
    }
  }

  @Test("a pile of 1000 overlapping items runs slowed, contact-limited, and nobody else waits")
  func overlappingPile() throws {
    try withDaemon { daemon in
      let attacker = try daemon.connect("attacker")
      let healthy = try daemon.connect("healthy")
      let items = (0..<1000).map { #"{"id":"i\#($0)","center":[160,284],"size":[40,40]}"# }
      let ids = (0..<1000).map { #""i\#($0)""# }.joined(separator: ",")
      let open = try attacker.expectOK(
        #"{"op":"open","session":"pile","fps":60,"scene":{"items":["#
          + items.joined(separator: ",") + #"],"behaviors":[{"type":"gravity","items":["# + ids
          + #"]},{"type":"collision","items":["# + ids + #"],"reference_bounds":true}]}}"#)
      #expect(open.reply.items.count == 1000)
      let worst = try Self.worstRoundTrip(of: healthy, for: .seconds(1))
      #expect(worst < Self.worstRoundTrip, "worst round trip \(worst)")
      // The attacker's own session goes on, told that it is slow and contact-limited (read as
      // raw lines: parsing megabytes of contact events would take the test longer than dynd).
      var told: Set<String> = []
      let deadline = ContinuousClock.now + .seconds(60)
      while told.count < 2, ContinuousClock.now < deadline,
        let line = try attacker.readLine(timeout: .seconds(60))
      {
        let text = String(decoding: line, as: UTF8.self)
        if text.contains(#""ev":"contact_limit""#) { told.insert("contact_limit") }
        if text.contains(#""ev":"slow""#) { told.insert("slow") }
      }
      #expect(told == ["contact_limit", "slow"])
      attacker.close()
      try healthy.expectOK(#"{"op":"list"}"#)
    }
  }

  @Test("a long manual step is carried out across loop turns; others are served meanwhile")
  func longManualStep() throws {
    try withDaemon { daemon in
      let stepper = try daemon.connect("stepper")
      let healthy = try daemon.connect("healthy")
      // Two items joined by 996 rigid attachments (the issue's reproducer).
      let attachments = (0..<996).map { _ in
        #"{"type":"attachment","item":"a","to":"b","length":50}"#
      }
      try stepper.expectOK(
        #"{"op":"open","session":"chain","clock":"manual","scene":{"items":["#
          + #"{"id":"a","center":[100,100],"size":[10,10]},"#
          + #"{"id":"b","center":[150,100],"size":[10,10]}],"behaviors":[{"type":"gravity","#
          + #""items":["a","b"]},"# + attachments.joined(separator: ",") + "]}}")
      try stepper.send(#"{"op":"step","id":"long","session":"chain","count":36000}"#)
      // The healthy client's requests, even on the same session, are answered meanwhile.
      let worst = try Self.worstRoundTrip(of: healthy, for: .seconds(1))
      #expect(worst < Self.worstRoundTrip, "worst round trip \(worst)")
      let get = try healthy.expectOK(#"{"op":"get","session":"chain"}"#)
      let t = get.reply.number("t") ?? 0
      #expect(t > 0 && t < 600, "the step is under way: t = \(t)")
      // Leaving mid-step closes the session; the daemon goes on.
      stepper.close()
      try healthy.expectOK(#"{"op":"hello"}"#)
    }
  }

  @Test("never-reading watchers of a bouncing scene get contact events coalesced")
  func neverReadingWatchers() throws {
    try withDaemon { daemon in
      let owner = try daemon.connect("owner")
      let items = (0..<200).map {
        #"{"id":"i\#($0)","center":[\#(20 + $0 % 14 * 20),\#(20 + $0 / 14 * 20)],"size":[8,8]}"#
      }
      let ids = (0..<200).map { #""i\#($0)""# }.joined(separator: ",")
      try owner.expectOK(
        #"{"op":"open","session":"bounce","fps":240,"keep":true,"scene":{"items":["#
          + items.joined(separator: ",") + #"],"behaviors":[{"type":"gravity","items":["#
          + ids + #"]},{"type":"dynamic_item","items":["# + ids
          + #"],"elasticity":1},{"type":"collision","items":["# + ids
          + #"],"reference_bounds":true}]}}"#)
      let watchers = try (0..<10).map { i in
        let w = try daemon.connect("watcher\(i)")
        try w.send(#"{"op":"watch","session":"bounce"}"#)
        return w
      }
      owner.close()
      // The scenario, not a wait for a condition: 2 s of a 240 fps bouncing scene nobody reads.
      Thread.sleep(forTimeInterval: 2)
      // Reading now: each watcher's backlog was bounded, and what it missed is counted.
      let first = watchers[0]
      var droppedContacts = 0
      var dropped = 0
      for message in try first.read(timeout: .seconds(30), until: { $0.dropped > 0 }) {
        droppedContacts += (message.object["dropped_contacts"] as? NSNumber)?.intValue ?? 0
        dropped += message.dropped
      }
      #expect(dropped > 0)
      #expect(droppedContacts > 0, "contact events were queued instead of coalesced")
      #expect(first.bytesRead < 4 << 20, "read \(first.bytesRead) bytes before the coalesced frame")
      for w in watchers { w.close() }
      let healthy = try daemon.connect("healthy")
      try healthy.expectOK(#"{"op":"close","session":"bounce"}"#)
    }
  }

  @Test("one client process holds at most 5000 sessions; closing them all is quick")
  func sessionQuotaAndFastClose() throws {
    try withDaemon { daemon in
      let greedy = try daemon.connect("greedy")
      var lines: [UInt8] = []
      for i in 0..<5000 {
        lines += Array(#"{"op":"open","session":"q\#(i)","clock":"manual","scene":{}}"#.utf8)
        lines.append(0x0A)
      }
      try greedy.send(bytes: lines)
      let replies = try greedy.read(timeout: .seconds(120)) {
        $0.isReply && $0.session == "q4999"
      }
      #expect(replies.filter { $0.isReply && !$0.ok }.isEmpty)
      let refused = try greedy.expectError(
        "busy", #"{"op":"open","session":"one-more","clock":"manual","scene":{}}"#)
      #expect(refused.errorMessage?.contains("5000") == true)
      // Another connection of this process shares the quota.
      let other = try daemon.connect("other")
      try other.expectError("busy", #"{"op":"open","clock":"manual","scene":{}}"#)
      greedy.close()
      let closed = try eventually(timeout: .seconds(5)) {
        let sessions = try other.expectOK(#"{"op":"list"}"#).reply.object["sessions"]
        return (sessions as? [Any])?.isEmpty == true
      }
      #expect(closed, "5000 sessions were not all closed within 5 s of their owner leaving")
      try other.expectOK(#"{"op":"open","clock":"manual","scene":{}}"#)
    }
  }

  // MARK: helpers

  /// A boundary zigzagging over the same 40 pt band (every copy overlaps every other).
  static func zigzag(id: String, points: Int) -> String {
    let path = (0..<points).map { "[\(10 + ($0 % 2) * 30),\(5 + $0 % 40)]" }
    return #"{"id":"\#(id)","path":["# + path.joined(separator: ",") + "]}"
  }

  /// Sends `hello` back to back for `span`, returning the slowest round trip.
  static func worstRoundTrip(of client: WireClient, for span: Duration) throws -> Duration {
    let end = ContinuousClock.now + span
    var worst = Duration.zero
    while ContinuousClock.now < end {
      let start = ContinuousClock.now
      let reply = try client.request(#"{"op":"hello"}"#, timeout: .seconds(30)).reply
      #expect(reply.ok)
      worst = max(worst, ContinuousClock.now - start)
      Thread.sleep(forTimeInterval: 0.005)  // the scenario: a hello every 5 ms
    }
    return worst
  }
}
