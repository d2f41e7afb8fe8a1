import EmbeddedHost
import Foundation
import SessionHost
import Testing

/// Work cut into slices at internal-step granularity and shared fairly (issue "Fair by cost"):
/// a heavy session's long frame waits behind other sessions' due work, stops when its owner
/// leaves, and gives the same bytes however it was cut.
///
/// With `sliceTime` zero every internal step is a slice of its own, so these tests are exact:
/// `EmbeddedEnvironment` runs due jobs before continuing ones, as the daemon's workers do.
@Suite("Host: slices of work")
struct HostSlicingTests {
  static func sliced() -> EmbeddedHost {
    var configuration = SessionHost.Configuration()
    configuration.sliceTime = .zero
    return EmbeddedHost(configuration: configuration)
  }

  /// Lines `peer` received, parsed.
  static func messages(_ received: [PeerID: [String]], _ peer: PeerID) throws -> [Message] {
    try (received[peer] ?? []).map(Message.init)
  }

  static let openHeavy =
    #"{"op":"open","id":"o","session":"heavy","clock":"manual","scene":"#
    + Scenes.endlessFall(items: 40) + "}"
  static let openLight =
    #"{"op":"open","id":"o","session":"light","clock":"manual","scene":"#
    + Scenes.dropOnFloor + "}"

  @Test("a light session's one-frame step is answered while a dt 10 step of another runs")
  func lightStepOvertakesLongFrame() throws {
    let host = Self.sliced()
    let (heavy, light) = (host.connect(), host.connect())
    host.send(Self.openHeavy, from: heavy)
    host.send(Self.openLight, from: light)
    // One frame of 10 s: 1 200 internal steps, each a slice.
    host.send(#"{"op":"step","id":"h","session":"heavy","dt":10}"#, from: heavy, settle: false)
    var lightReply: Message?
    var heavyReplied = false
    let jobsBefore = host.environment.jobsRun
    host.send(#"{"op":"step","id":"l","session":"light"}"#, from: light, settle: false)
    while lightReply == nil, host.environment.hasPending {
      let received = host.runNext()
      lightReply = try Self.messages(received, light).first { $0.isReply }
      if try Self.messages(received, heavy).contains(where: \.isReply) { heavyReplied = true }
    }
    let reply = try #require(lightReply)
    #expect(reply.ok && reply.id == "l")
    #expect(!heavyReplied, "the heavy frame must still be in progress")
    // The light frame's two internal steps, each after at most one slice of the heavy frame.
    #expect(host.environment.jobsRun - jobsBefore <= 4)
    // The heavy step goes on to its end.
    let rest = try Self.messages(host.runPending(), heavy)
    #expect(rest.filter { $0.event == "frame" }.count == 1)
    #expect(rest.last?.isReply == true && rest.last?.ok == true)
  }

  @Test("a long frame stops within a slice of its owner leaving")
  func workStopsWhenOwnerLeaves() throws {
    let host = Self.sliced()
    let owner = host.connect()
    host.send(Self.openHeavy, from: owner)
    host.send(#"{"op":"step","id":"h","session":"heavy","dt":10}"#, from: owner, settle: false)
    for _ in 0..<20 { host.runNext() }
    #expect(host.environment.hasPending)
    let before = host.environment.jobsRun
    host.disconnect(owner)
    #expect(!host.environment.hasPending)
    // The slice queued when it left may still run; nothing after it.
    #expect(host.environment.jobsRun - before <= 1)
    #expect(host.host.jobsInFlight == 0)
    #expect(host.host.sessionCount == 0)
  }

  @Test("a kept session's long frame ends where it is when its requester leaves")
  func keptSessionStopsWhenRequesterLeaves() throws {
    let host = Self.sliced()
    let (owner, watcher) = (host.connect(), host.connect())
    host.send(
      Self.openHeavy.replacingOccurrences(
        of: #""clock":"manual","#, with: #""clock":"manual","keep":true,"#),
      from: owner)
    host.send(#"{"op":"watch","id":"w","session":"heavy"}"#, from: watcher)
    host.send(#"{"op":"step","id":"h","session":"heavy","dt":10}"#, from: owner, settle: false)
    for _ in 0..<20 { host.runNext() }
    let before = host.environment.jobsRun
    let seen = try Self.messages(host.disconnect(owner), watcher)
    #expect(host.environment.jobsRun - before <= 1)
    // The watcher sees the frame as far as it got: well short of 10 s.
    let frame = try #require(seen.first { $0.event == "frame" })
    #expect(try #require(frame.number("t")) < 1)
    // The session is still there, and steps again.
    let other = host.connect()
    let lines = try Self.messages(
      host.send(#"{"op":"step","id":"again","session":"heavy"}"#, from: other), other)
    #expect(lines.last?.ok == true)
  }

  @Test("frames cut into slices are byte-identical to frames computed whole")
  func slicingKeepsBytes() throws {
    func run(_ host: EmbeddedHost) -> [String] {
      let peer = host.connect()
      var lines: [String] = []
      // Three boxes bouncing in a box: contacts, bounces, rest.
      let scene =
        #"{"bounds":[200,200],"items":[{"id":"a","center":[50,40],"size":[20,20]},"#
        + #"{"id":"b","center":[60,100],"size":[30,10]},{"id":"c","center":[150,60],"#
        + #""size":[16,16],"angle":0.4}],"behaviors":[{"type":"gravity","items":["a","b","c"]},"#
        + #"{"type":"collision","items":["a","b","c"],"reference_bounds":true},"#
        + #"{"type":"dynamic_item","items":["a","b","c"],"elasticity":0.7}]}"#
      let requests = [
        #"{"op":"open","id":1,"session":"d","clock":"manual","scene":"# + scene + "}",
        #"{"op":"step","id":2,"session":"d","dt":1.5}"#,
        #"{"op":"step","id":3,"session":"d","count":40}"#,
        #"{"op":"get","id":4,"session":"d"}"#,
      ]
      for line in requests { lines += host.send(line, from: peer)[peer] ?? [] }
      return lines
    }
    let whole = run(EmbeddedHost())
    let sliced = run(Self.sliced())
    #expect(whole.count > 40)
    #expect(whole == sliced)
  }

  @Test("a frame carries at most 256 contact events; the rest are counted in dropped_contacts")
  func contactEventsPerFrameAreBounded() throws {
    // 300 boxes side by side, just above the floor: each lands, touching the floor, in the
    // same frame.
    let count = 300
    let items = (0..<count).map {
      #"{"id":"i\#($0)","center":[\#(4 + $0 * 6),592],"size":[4,4]}"#
    }
    let ids = (0..<count).map { #""i\#($0)""# }.joined(separator: ",")
    let scene =
      #"{"bounds":[1820,600],"items":["# + items.joined(separator: ",")
      + #"],"behaviors":[{"type":"gravity","items":["# + ids
      + #"]},{"type":"collision","mode":"boundaries","reference_bounds":true,"items":["# + ids
      + "]}]}"
    let host = EmbeddedHost()
    let peer = host.connect()
    host.send(
      #"{"op":"open","id":1,"session":"p","clock":"manual","scene":"# + scene + "}", from: peer)
    let lines = try Self.messages(
      host.send(#"{"op":"step","id":2,"session":"p","dt":0.5}"#, from: peer), peer)
    let contacts = lines.filter { $0.event == "contact" }
    let frame = try #require(lines.first { $0.event == "frame" })
    #expect(contacts.count == 256)
    let dropped = try #require(frame.number("dropped_contacts"))
    #expect(dropped >= Double(count - 256))
    #expect(lines.last?.isReply == true && lines.last?.ok == true)
  }

  @Test("a manual step runs in apply itself only when its scene's worst-case step fits the budget")
  func stepsRunInlineByTheirBound() throws {
    let host = EmbeddedHost()
    host.environment.inlineWorkBudget = .milliseconds(50)
    let peer = host.connect()
    // Two of 40 items under gravity: the worst of a frame of 0.5 s (60 internal steps) of so small
    // a scene fits, from the first step on.
    let items = (0..<40).map { #"{"id":"i\#($0)","center":[\#(10 + 7 * $0),100],"size":[5,5]}"# }
    host.send(
      #"{"op":"open","session":"s","clock":"manual","scene":{"items":["#
        + items.joined(separator: ",")
        + #"],"behaviors":[{"type":"gravity","items":["i0","i1"]}]}}"#, from: peer)
    var received = host.send(
      #"{"op":"step","id":1,"session":"s","dt":0.5}"#, from: peer, settle: false)
    #expect(try Self.messages(received, peer).last?.id == "1")
    #expect(!host.environment.hasPending)
    // All 40 spaced items in one collision behavior: its steps stay as cheap as before (nothing
    // touches), but 40 shapes could all meet on one spot, and that worst case does not fit.
    let ids = (0..<40).map { #""i\#($0)""# }.joined(separator: ",")
    let added = try Self.messages(
      host.send(
        #"{"op":"add_behavior","id":2,"session":"s","behavior":{"type":"collision","items":["#
          + ids + "]}}", from: peer), peer)
    #expect(added.last?.ok == true, "\(added)")
    for id in 3...5 {
      received = host.send(
        #"{"op":"step","id":\#(id),"session":"s","dt":0.5}"#, from: peer, settle: false)
      #expect(try Self.messages(received, peer).allSatisfy { !$0.isReply }, "\(received)")
      host.runPending()
    }
  }

  @Test("a one-item scene with 256 action rules is a worker's: the rules count in its worst case")
  func rulesCountInTheBound() throws {
    let host = EmbeddedHost()
    host.environment.inlineWorkBudget = .milliseconds(50)
    let peer = host.connect()
    let rule =
      #"{"when":{"always":true},"repeat":true,"then":[{"set":{"behavior":"g","magnitude":1}}]}"#
    let rules = "[" + Array(repeating: rule, count: 16).joined(separator: ",") + "]"
    let holders = (0..<16).map {
      #"{"type":"dynamic_item","id":"d\#($0)","items":["a"],"action":\#(rules)}"#
    }
    host.send(
      #"{"op":"open","session":"r","clock":"manual","scene":{"items":[{"id":"a","center":[10,10],"#
        + #""size":[5,5]}],"behaviors":[{"type":"gravity","id":"g","items":["a"]},"#
        + holders.joined(separator: ",") + "]}}", from: peer)
    let received = host.send(
      #"{"op":"step","id":1,"session":"r","dt":0.5}"#, from: peer, settle: false)
    #expect(try Self.messages(received, peer).allSatisfy { !$0.isReply }, "\(received)")
    host.runPending()
  }
}
