import Foundation
import SessionHost
import Testing
import Transitions
import Wire

/// Every core op and event of PROTOCOL.md (the parts marked core), through the embedded host only (realtime frames come
/// with `advance(by:)`; the daemon's realtime timer is `DaemonTests/EndToEndRealtimeClockTests`).
@Suite("Host: ops and events")
struct HostOpsTests {
  @Test("hello describes the daemon and every reply echoes its id unchanged")
  func hello() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      let reply = try client.expectOK(#"{"op":"hello","id":"greeting"}"#).reply
      #expect(reply.id == "greeting")
      #expect(reply.number("protocol") == 1)
      #expect(reply.string("server") == "dynd")
      #expect(reply.string("version")?.isEmpty == false)
      #expect(reply.object["transitions"] as? [String] == TransitionRegistry.names)
      // Numeric ids come back as the same JSON text; a request without an id gets none.
      #expect(try client.expectOK(#"{"op":"hello","id":1e2}"#).reply.text.contains(#""id":1e2"#))
      #expect(try client.expectOK(#"{"op":"list","id":-7}"#).reply.text.contains(#""id":-7"#))
      #expect(try client.expectOK(#"{"op":"list"}"#).reply.object["id"] == nil)
    }
  }

  @Test("a scripted scene on the manual clock: every scene op, frames, contact, pause, resume")
  func scriptedScene() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      let opened = try client.expectOK(
        #"{"op":"open","id":1,"session":"m","clock":"manual","scene":"# + Scenes.dropOnFloor + "}")
      #expect(opened.reply.session == "m")
      #expect(opened.reply.vector("center", of: "a") == [100, 150])
      #expect(opened.reply.vector("size", of: "a") == [20, 20])
      #expect(opened.events.isEmpty)

      let listed = try client.expectOK(#"{"op":"list"}"#).reply
      let sessions = listed.object["sessions"] as? [[String: Any]] ?? []
      #expect(sessions.count == 1)
      #expect(sessions.first?["session"] as? String == "m")
      #expect(sessions.first?["transition"] is NSNull)
      #expect(sessions.first?["clock"] as? String == "manual")

      // Manual: nothing moves without `step`.
      let idle = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
      #expect(idle.number("t") == 0)
      #expect(idle.vector("center", of: "a") == [100, 150])

      // The box falls, touches the floor (the reference bounds: boundary null) and rests.
      let fall = try client.expectOK(#"{"op":"step","session":"m","count":120}"#)
      let frames = fall.events("frame")
      #expect(frames.map(\.seq) == Array(1...frames.count).map { Optional($0) })
      #expect(frames.allSatisfy { $0.session == "m" })
      let contact = try #require(fall.events("contact").first)
      #expect(contact.string("phase") == "began")
      #expect(contact.string("item") == "a")
      #expect(contact.object["boundary"] is NSNull)
      #expect(contact.object["point"] != nil)
      let pauses = fall.events("pause")
      #expect(pauses.count == 1)
      #expect(fall.events.last?.event == "pause", "pause comes after the last frame")
      #expect(fall.reply.bool("running") == false)
      #expect(fall.reply.number("t") == pauses.first?.number("t"))
      let rest = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
      #expect(rest.bool("running") == false)
      #expect(abs((rest.vector("center", of: "a")?[1] ?? 0) - 190) < 0.5)

      // Scene ops: add an item and a behavior (which resumes the animator).
      try client.expectOK(
        #"{"op":"add_item","session":"m","item":{"id":"b","center":[40,40],"size":[10,16],"#
          + #""shape":"ellipse"}}"#)
      let added = try client.expectOK(
        #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","items":["b"]}}"#)
      let behavior = try #require(added.reply.string("behavior"))
      #expect(added.events.map(\.event) == ["resume"])
      try client.expectOK(
        #"{"op":"set_behavior","session":"m","behavior":"\#(behavior)","direction":[1,0]}"#)
      let withB = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
      #expect(withB.vector("size", of: "b") == [10, 16])
      #expect(withB.bool("running") == true)

      // set_item moves an item; add_velocity adds to its velocity.
      try client.expectOK(#"{"op":"set_item","session":"m","item":"a","center":[50,60]}"#)
      #expect(
        try client.expectOK(#"{"op":"get","session":"m"}"#).reply.vector("center", of: "a")
          == [50, 60])
      try client.expectOK(
        #"{"op":"add_velocity","session":"m","item":"a","velocity":[40,0],"angular":1}"#)
      let pushed = try client.expectOK(#"{"op":"step","session":"m"}"#)
      let frame = try #require(pushed.events("frame").last)
      #expect(abs((frame.vector("velocity", of: "a")?[0] ?? 0) - 40) < 1)
      // b falls sideways now: its gravity was turned to +x.
      #expect((frame.vector("velocity", of: "b")?[0] ?? 0) > 0)

      // Removing: the behavior, then the item, then every behavior.
      try client.expectOK(#"{"op":"remove_behavior","session":"m","behavior":"\#(behavior)"}"#)
      try client.expectError(
        "unknown_behavior", #"{"op":"remove_behavior","session":"m","behavior":"\#(behavior)"}"#)
      try client.expectOK(#"{"op":"remove_item","session":"m","item":"b"}"#)
      let withoutB = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
      #expect(withoutB.items.map { $0["id"] as? String } == ["a"])
      try client.expectOK(#"{"op":"remove_all_behaviors","session":"m"}"#)
      try client.expectError(
        "unknown_behavior", #"{"op":"remove_behavior","session":"m","behavior":"g"}"#)
      // Nothing animates the item any more: the animator comes to rest.
      let settled = try client.expectOK(#"{"op":"step","session":"m","count":10}"#)
      #expect(settled.reply.bool("running") == false)

      try client.expectOK(#"{"op":"close","session":"m"}"#)
      try client.expectError("unknown_session", #"{"op":"get","session":"m"}"#)
      let after = try client.expectOK(#"{"op":"list"}"#).reply
      #expect((after.object["sessions"] as? [Any])?.isEmpty == true)
    }
  }

  @Test("lock-screen: a fast upward throw hands its velocity over exactly and opens")
  func lockScreenOpens() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      let opened = try client.expectOK(
        #"{"op":"open","session":"L","clock":"manual","transition":"lock-screen"}"#)
      #expect(opened.reply.vector("size", of: "screen") == [320, 568])
      #expect(opened.reply.vector("center", of: "screen") == [160, 284])
      try client.expectOK(
        #"{"op":"gesture","session":"L","phase":"began","x":160,"y":400,"t":0}"#)
      try client.expectOK(#"{"op":"step","session":"L","count":3}"#)
      try client.expectOK(
        #"{"op":"gesture","session":"L","phase":"changed","x":160,"y":300,"t":0.05}"#)
      let dragged = try client.expectOK(#"{"op":"step","session":"L","count":3}"#)
      let y = dragged.events("frame").last?.vector("center", of: "screen")?[1] ?? 284
      #expect(y < 284, "the screen follows the finger up")
      let ended = try client.expectOK(
        #"{"op":"gesture","session":"L","phase":"ended","x":160,"y":250,"t":0.1,"#
          + #""vx":0,"vy":-1200}"#)
      let handoff = try #require(ended.events("handoff").first)
      #expect(handoff.string("item") == "screen")
      #expect(handoff.object["gesture_velocity"] as? [Double] == [0, -1200])
      #expect(handoff.object["item_velocity"] as? [Double] == [0, -1200])
      let thrown = try client.expectOK(#"{"op":"step","session":"L","count":240}"#)
      #expect(thrown.events("done").map { $0.string("outcome") } == ["opened"])
      #expect(thrown.events("done").first?.session == "L")
    }
  }

  @Test("lock-screen: a short drag released slowly closes; a tap on the grabber bounces")
  func lockScreenClosesAndBounces() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      try client.expectOK(
        #"{"op":"open","session":"C","clock":"manual","transition":"lock-screen"}"#)
      try client.expectOK(#"{"op":"gesture","session":"C","phase":"began","x":100,"y":500}"#)
      try client.expectOK(#"{"op":"step","session":"C","count":2}"#)
      try client.expectOK(#"{"op":"gesture","session":"C","phase":"changed","x":100,"y":490}"#)
      try client.expectOK(#"{"op":"step","session":"C","count":2}"#)
      // No release velocity: the daemon estimates it from the samples (without `t`, timed by
      // the manual clock: 10 pt up in 2 frames; the lift-off is not a sample), and hands that
      // estimate over.
      let ended = try client.expectOK(
        #"{"op":"gesture","session":"C","phase":"ended","x":100,"y":485}"#)
      let handoff = try #require(ended.events("handoff").first)
      #expect(handoff.object["gesture_velocity"] as? [Double] == [0, -300])
      let closing = try client.expectOK(#"{"op":"step","session":"C","count":600}"#)
      #expect(closing.events("done").map { $0.string("outcome") } == ["closed"])
      #expect(!closing.events("contact").isEmpty, "it lands on the floor")
      #expect(
        closing.events("contact").first?.string("boundary") == "floor",
        "\(closing.events("contact").first?.text ?? "")")

      try client.expectOK(
        #"{"op":"open","session":"T","clock":"manual","transition":"lock-screen"}"#)
      try client.expectOK(#"{"op":"tap","session":"T","x":300,"y":550}"#)
      let bounced = try client.expectOK(#"{"op":"step","session":"T","count":600}"#)
      #expect(bounced.events("done").map { $0.string("outcome") } == ["bounced"])
      // pause and resume alternate, starting with a pause: the animator was running.
      let clock = bounced.events.compactMap {
        $0.event == "pause" || $0.event == "resume" ? $0.event : nil
      }
      #expect(clock.first == "pause")
      #expect(zip(clock, clock.dropFirst()).allSatisfy { $0 != $1 }, "\(clock)")
      // A swipe is a valid request for any transition, whatever the transition makes of it.
      try client.expectOK(#"{"op":"swipe","session":"T","direction":"up"}"#)
    }
  }

  @Test(
    "the release velocity: platform by default, linear on request, each gesture's own choice")
  func estimators() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      /// A 1200 pt/s throw up, sampled and stepped at 60 Hz, lifted one frame after its last
      /// sample where that sample was; every request carries `field`. The release velocity.
      func release(_ session: String, _ field: String, ended: String? = nil) throws -> [Double]? {
        try client.expectOK(
          #"{"op":"open","session":""# + session
            + #"","clock":"manual","transition":"lock-screen"}"#)
        for i in 0...12 {
          let phase = i == 0 ? "began" : "changed"
          try client.expectOK(
            #"{"op":"gesture","session":""# + session + #"","phase":""# + phase
              + #"","x":160,"y":\#(500 - 20 * i),"t":\#(Double(i) / 60)"# + field + "}")
          try client.expectOK(#"{"op":"step","session":""# + session + #""}"#)
        }
        let lift = try client.expectOK(
          #"{"op":"gesture","session":""# + session + #"","phase":"ended","x":160,"y":260,"#
            + #""t":\#(13.0 / 60)"# + (ended ?? field) + "}")
        return lift.events("handoff").first?.object["gesture_velocity"] as? [Double]
      }
      let platform = try #require(try release("P", ""))
      #expect(platform.count == 2 && platform[0] == 0 && abs(platform[1] + 1200) < 1e-3)
      #expect(try release("Q", #","estimator":"platform""#) == platform)
      // The straight line counts the lift-off as a sample: 1200 × 25/28.
      let linear = try #require(try release("R", #","estimator":"linear""#))
      #expect(linear.count == 2 && abs(linear[1] + 1200.0 * 25 / 28) < 1e-3, "\(linear)")
      // Only the ended request's value decides the release velocity.
      let mixed = try #require(try release("S", "", ended: #","estimator":"linear""#))
      #expect(mixed == linear)
      try client.expectError(
        "out_of_range",
        #"{"op":"gesture","session":"S","phase":"began","x":1,"y":2,"estimator":"quadratic"}"#)
    }
  }

  @Test("realtime clock: frames stream until rest, then pause; a change resumes them")
  func realtimeClock() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      try client.expectOK(
        #"{"op":"open","session":"r","fps":120,"scene":"# + Scenes.dropOnFloor + "}")
      let fall = try client.read { $0.event == "pause" }
      let frames = fall.filter { $0.event == "frame" }
      #expect(frames.count > 10)
      #expect(frames.map(\.seq) == Array(1...frames.count).map { Optional($0) })
      #expect(fall.contains { $0.event == "contact" })
      #expect(
        try client.expectOK(#"{"op":"get","session":"r"}"#).reply.bool("running") == false)
      // At rest the clock is stopped: nothing arrives until a change.
      daemon.advance(by: .milliseconds(300))
      #expect(client.inbox.isEmpty, "\(client.inbox)")
      let kick = try client.expectOK(
        #"{"op":"add_velocity","session":"r","item":"a","velocity":[0,-300]}"#)
      #expect(kick.events.map(\.event) == ["resume"])
      let again = try client.read { $0.event == "pause" }
      let more = again.filter { $0.event == "frame" }
      #expect(more.first?.seq == frames.count + 1)
    }
  }

  @Test("watch: another connection gets the session's events from then on")
  func watch() throws {
    do {
      let daemon = HostRig()
      let owner = daemon.connect("owner")
      let watcher = daemon.connect("watcher")
      try owner.expectOK(
        #"{"op":"open","session":"w","clock":"manual","scene":"# + Scenes.dropOnFloor + "}")
      try owner.expectOK(#"{"op":"step","session":"w","count":2}"#)
      let watched = try watcher.expectOK(#"{"op":"watch","session":"w"}"#)
      #expect(watched.reply.items.count == 1)
      #expect(watched.reply.items.first?["size"] == nil, "watch states carry no size")
      try owner.expectOK(#"{"op":"step","session":"w"}"#)
      let frame = try #require(try watcher.readMessage())
      #expect(frame.event == "frame")
      #expect(frame.seq == 3)
    }
  }

  @Test("a request's events go to the connection that sent it, watcher or not")
  func requesterGetsItsEvents() throws {
    do {
      let daemon = HostRig()
      let owner = daemon.connect("owner")
      let other = daemon.connect("other")
      try owner.expectOK(
        #"{"op":"open","session":"k","keep":true,"clock":"manual","transition":"lock-screen"}"#)
      let stepped = try other.expectOK(#"{"op":"step","session":"k","count":3}"#)
      #expect(stepped.events("frame").compactMap(\.seq) == [1, 2, 3])
      // The owner watches, so it got the same frames.
      let seen = try owner.read { $0.event == "frame" && $0.seq == 3 }
      #expect(seen.filter { $0.event == "frame" }.count == 3)
      try other.expectOK(#"{"op":"gesture","session":"k","phase":"began","x":160,"y":500}"#)
      let ended = try other.expectOK(
        #"{"op":"gesture","session":"k","phase":"ended","x":160,"y":400,"vx":0,"vy":-900}"#)
      #expect(ended.events("handoff").count == 1)
      #expect(try owner.read { $0.event == "handoff" }.count == 1)
      // Not a watcher: what the owner's requests cause does not reach it.
      try owner.expectOK(#"{"op":"step","session":"k","count":2}"#)
      #expect(other.inbox.isEmpty, "\(other.inbox)")
    }
  }

  @Test("watchers of a closed session get a closed event with the reason")
  func closedEvent() throws {
    do {
      let daemon = HostRig()
      let owner = daemon.connect("owner")
      let watcher = daemon.connect("watcher")
      let closer = daemon.connect("closer")
      try owner.expectOK(#"{"op":"open","session":"a","clock":"manual","scene":{}}"#)
      try owner.expectOK(#"{"op":"open","session":"b","clock":"manual","scene":{}}"#)
      try watcher.expectOK(#"{"op":"watch","session":"a"}"#)
      try watcher.expectOK(#"{"op":"watch","session":"b"}"#)
      let closing = try closer.expectOK(#"{"op":"close","session":"a"}"#)
      #expect(closing.events.isEmpty, "the closer does not watch it")
      let closedA = try #require(try watcher.readMessage())
      #expect(closedA.text == #"{"ev":"closed","session":"a","reason":"closed"}"#)
      owner.close()
      let closedB = try #require(try watcher.readMessage())
      #expect(closedB.text == #"{"ev":"closed","session":"b","reason":"owner_left"}"#)
      _ = try watcher.expectError("unknown_session", #"{"op":"get","session":"b"}"#)
    }
  }

  @Test("shutting the host down sends every peer a shutdown event")
  func shutdownEvent() throws {
    let daemon = HostRig()
    let client = daemon.connect()
    let other = daemon.connect("other")
    try client.expectOK(#"{"op":"open","session":"x","transition":"lock-screen"}"#)
    let sent = daemon.host.shutdown(reason: "terminated")
    #expect(sent.count == 1)
    guard case .event(.shutdown(let reason))? = sent.first?.message else {
      Issue.record("not a shutdown event: \(sent)")
      return
    }
    #expect(reason == "terminated")
    #expect(sent.first?.recipients.map(\.peer) == [client.peer, other.peer])
    #expect(daemon.host.shutdown(reason: "again").isEmpty, "only once")
  }

  /// A release whose velocity dynd estimated says how (`estimate`, after `velocity_error`), to
  /// the requester and to a watcher alike; a release with `vx`, `vy` has none.
  @Test("handoff: the estimate of a flick lifted 55 ms after its last move")
  func handoffEstimate() throws {
    let rig = HostRig()
    let client = rig.connect()
    let watcher = rig.connect("watcher")
    try client.expectOK(
      #"{"op":"open","session":"L","clock":"manual","keep":true,"transition":"lock-screen"}"#)
    try watcher.expectOK(#"{"op":"watch","session":"L"}"#)
    // 300 pt up in 100 ms, then still for 55 ms before lifting.
    for i in 0...6 {
      let phase = i == 0 ? "began" : "changed"
      try client.expectOK(
        #"{"op":"gesture","session":"L","phase":"\#(phase)","x":160,"#
          + #""y":\#(500 - 50 * i),"t":\#(Double(i) / 60)}"#)
    }
    let ended = try client.expectOK(
      #"{"op":"gesture","session":"L","phase":"ended","x":160,"y":200,"t":0.155}"#)
    let handoff = try #require(ended.events("handoff").first)
    #expect(handoff.object["gesture_velocity"] as? [Double] == [0, 0])
    let estimate = try #require(handoff.object["estimate"] as? [String: Any])
    #expect(estimate["reason"] as? String == "pointer_stopped")
    #expect((estimate["samples"] as? NSNumber)?.intValue == 7)
    #expect((estimate["still_ms"] as? NSNumber)?.doubleValue == 55)
    #expect(
      handoff.text.hasSuffix(
        #""velocity_error":0,"estimate":{"reason":"pointer_stopped","samples":7,"still_ms":55}}"#),
      "\(handoff.text)")
    let watched = try watcher.read { $0.event == "handoff" }.last
    #expect(watched?.text == handoff.text)
    // Given by the client: no estimate.
    try client.expectOK(#"{"op":"gesture","session":"L","phase":"began","x":160,"y":500,"t":1}"#)
    let given = try client.expectOK(
      #"{"op":"gesture","session":"L","phase":"ended","x":160,"y":500,"t":1.1,"vx":0,"vy":-900}"#)
    let told = try #require(given.events("handoff").first)
    #expect(told.object["estimate"] == nil, "\(told.text)")
  }
}
