import EmbeddedHost
import Foundation
import SessionHost
import Testing
import Wire

/// What the socket cannot pin down deterministically: parked requests, stalled steps, owners
/// leaving, and the order of a requester's events and reply.
@Suite("Host: scheduling")
struct HostSchedulingTests {
  /// A host driven by hand: jobs wait in the environment until `runPending()`.
  final class Manual {
    let environment = EmbeddedEnvironment()
    let host: SessionHost
    let decoder = RequestDecoder()
    var later: [Outgoing] = []

    init() {
      host = SessionHost(environment: environment)
      host.output = { [unowned self] in later += $0 }
    }

    func apply(_ line: String, from peer: PeerID) throws -> [Outgoing] {
      host.apply(try decoder.decode(Array(line.utf8)), from: peer)
    }
  }

  /// The reply id of a reply, the event name of an event, with the recipients.
  static func describe(_ messages: [Outgoing]) -> [String] {
    messages.map { outgoing in
      let to = outgoing.recipients.map { "\($0.peer.value)" }.joined(separator: ",")
      switch outgoing.message {
      case .reply(let reply):
        let id: String
        switch reply.id {
        case .string(let text)?: id = text
        case .number(let text)?: id = text
        case nil: id = "-"
        }
        let ok = (try? reply.result.get()) != nil
        return "\(to): reply \(id)\(ok ? "" : " error")"
      case .event(let event):
        return "\(to): \(event.name)"
      }
    }
  }

  @Test("a request naming a busy session is parked, answered after the job, in order")
  func parkedRequest() throws {
    let m = Manual()
    let (stepper, waiter, other) = (PeerID(1), PeerID(2), PeerID(3))
    for peer in [stepper, waiter, other] { m.host.connect(peer, pid: 1) }
    let opened = try m.apply(
      #"{"op":"open","id":"o","session":"m","clock":"manual","scene":"# + Scenes.dropOnFloor
        + "}", from: stepper)
    #expect(Self.describe(opened) == ["1: reply o"])
    // The step's first batch is a job on the worker: the session is busy until it is run.
    #expect(try m.apply(#"{"op":"step","id":"s","session":"m","count":3}"#, from: stepper).isEmpty)
    #expect(m.environment.hasPending)
    // The waiter's get is parked; its hello waits behind it, though it names no session.
    #expect(try m.apply(#"{"op":"get","id":"g","session":"m"}"#, from: waiter).isEmpty)
    #expect(try m.apply(#"{"op":"hello","id":"h"}"#, from: waiter).isEmpty)
    // Everyone else is served meanwhile, even about the busy session's neighbours.
    #expect(Self.describe(try m.apply(#"{"op":"list","id":"l"}"#, from: other)) == ["3: reply l"])
    #expect(m.later.isEmpty)
    m.environment.runPending()
    let described = Self.describe(m.later)
    let replies = described.filter { $0.contains("reply") }
    #expect(replies == ["1: reply s", "2: reply g", "2: reply h"], "\(described)")
    // The step's frames precede its reply; the parked get sees the session after the step.
    let frames = described.firstIndex { $0.hasSuffix("frame") } ?? .max
    #expect(frames < described.firstIndex(of: "1: reply s")!, "\(described)")
    guard
      let get = m.later.first(where: {
        if case .reply(let reply) = $0.message { return reply.id == .string("g") }
        return false
      }), case .reply(let reply) = get.message, case .get(let t, _, _, _) = try reply.result.get()
    else {
      Issue.record("no get reply: \(described)")
      return
    }
    #expect(abs(t - 3.0 / 60) < 1e-9)
    #expect(m.host.jobsInFlight == 0)
  }

  @Test("a stalled peer's step waits, and goes on when it reads: frames in order, reply last")
  func stalledStep() throws {
    let rig = HostRig()
    let client = rig.connect()
    let other = rig.connect("other")
    try client.expectOK(
      #"{"op":"open","session":"m","clock":"manual","scene":"# + Scenes.dropOnFloor + "}")
    client.stall()
    client.send(#"{"op":"step","id":1,"session":"m","count":10}"#)
    client.send(#"{"op":"get","id":2,"session":"m"}"#)
    #expect(client.inbox.isEmpty, "\(client.inbox)")
    // The host serves the others meanwhile.
    try other.expectOK(#"{"op":"list"}"#)
    client.resume()
    let messages = try client.inbox.map(Message.init)
    let frames = messages.filter { $0.event == "frame" }
    #expect(frames.compactMap(\.seq) == Array(1...10))
    let replies = messages.enumerated().filter { $0.element.isReply }
    #expect(replies.map(\.element.id) == ["1", "2"])
    let lastFrame = messages.lastIndex { $0.event == "frame" } ?? .max
    #expect(replies.first.map { $0.offset > lastFrame } == true, "\(messages)")
    #expect(replies.last?.element.number("t") == replies.first?.element.number("t"))
    rig.expectFinite()
  }

  @Test("a peer that vanishes in the middle of a stalled step gets nothing more; others go on")
  func stalledStepDropped() throws {
    let rig = HostRig()
    let client = rig.connect()
    let other = rig.connect("other")
    try client.expectOK(
      #"{"op":"open","session":"m","keep":true,"clock":"manual","scene":"# + Scenes.dropOnFloor
        + "}")
    client.stall()
    client.send(#"{"op":"step","id":1,"session":"m","count":10}"#)
    client.close()
    #expect(rig.host.jobsInFlight == 0)
    let stepped = try other.expectOK(#"{"op":"step","session":"m","count":2}"#)
    #expect(abs((stepped.reply.number("t") ?? 0) - 2.0 / 60) < 1e-3, "the step was not run")
  }

  @Test("the owner leaving closes its sessions but kept ones; watchers get owner_left")
  func ownerLeaves() throws {
    let rig = HostRig()
    let owner = rig.connect("owner")
    let watcher = rig.connect("watcher")
    try owner.expectOK(#"{"op":"open","session":"a","clock":"manual","scene":{}}"#)
    try owner.expectOK(#"{"op":"open","session":"k","keep":true,"clock":"manual","scene":{}}"#)
    try owner.expectOK(#"{"op":"open","session":"b","transition":"lock-screen"}"#)
    for name in ["a", "k", "b"] {
      try watcher.expectOK(#"{"op":"watch","session":"\#(name)"}"#)
    }
    #expect(rig.host.sessionCount == 3)
    owner.close()
    #expect(
      watcher.inbox == [
        #"{"ev":"closed","session":"a","reason":"owner_left"}"#,
        #"{"ev":"closed","session":"b","reason":"owner_left"}"#,
      ])
    watcher.inbox = []
    #expect(rig.host.sessionCount == 1)
    try watcher.expectOK(#"{"op":"get","session":"k"}"#)
    try watcher.expectError("unknown_session", #"{"op":"get","session":"a"}"#)
    watcher.close()
    #expect(rig.host.sessionCount == 1, "a kept session outlives its watchers until reaped")
  }

  @Test("a gesture's handoff reaches a requester that does not watch, before its reply")
  func handoffBeforeReply() throws {
    let rig = HostRig()
    let owner = rig.connect("owner")
    let other = rig.connect("other")
    try owner.expectOK(
      #"{"op":"open","session":"L","keep":true,"clock":"manual","transition":"lock-screen"}"#)
    try other.expectOK(#"{"op":"gesture","session":"L","phase":"began","x":160,"y":500}"#)
    #expect(other.inbox.isEmpty)
    other.send(
      #"{"op":"gesture","id":"up","session":"L","phase":"ended","x":160,"y":400,"vx":0,"#
        + #""vy":-900}"#)
    let received = try other.inbox.map(Message.init)
    #expect(received.map { $0.event ?? "reply" } == ["handoff", "reply"], "\(received)")
    #expect(received.last?.id == "up" && received.last?.ok == true)
    #expect(received.first?.object["gesture_velocity"] as? [Double] == [0, -900])
    // The owner watches: it gets the handoff too, and no reply.
    #expect(try owner.inbox.map(Message.init).map(\.event) == ["handoff"])
  }
}
