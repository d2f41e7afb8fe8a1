import EmbeddedHost
import Foundation
import SessionHost
import Testing
import Wire

/// A request's cost is bounded before it is paid: `open` counts a scene from the request before
/// building it and builds a large one on a worker; `add_group` checks before it walks; `debug`
/// is bounded in bytes; all sessions together stay within the memory budget.
@Suite("Host: cost bounds")
struct HostCostBoundsTests {
  /// `count` items of 4×4 pt on a 40-column grid with ids of `idBytes` bytes, and a gravity
  /// behavior over them (`behaviors` of them, `g0`, `g1`, …).
  static func grid(items count: Int, idBytes: Int = 4, behaviors: Int = 1) -> String {
    let ids = (0..<count).map {
      "i" + String(repeating: "0", count: idBytes - 1 - "\($0)".count) + "\($0)"
    }
    let items = ids.enumerated().map { k, id in
      #"{"id":"\#(id)","center":[\#(10 + k % 40 * 6),\#(10 + k / 40 * 6)],"size":[4,4]}"#
    }
    let list = ids.map { #""\#($0)""# }.joined(separator: ",")
    let gravity = (0..<behaviors).map { #"{"type":"gravity","id":"g\#($0)","items":[\#(list)]}"# }
    return #"{"items":["# + items.joined(separator: ",") + #"],"behaviors":["#
      + gravity.joined(separator: ",") + "]}"
  }

  /// A regular `sides`-gon of radius 20 as an item's path.
  static func polygon(sides: Int) -> String {
    (0..<sides).map { k in
      let t = 2 * Double.pi * Double(k) / Double(sides)
      return "[\((20 * cos(t) * 1000).rounded() / 1000),\((20 * sin(t) * 1000).rounded() / 1000)]"
    }.joined(separator: ",")
  }

  // MARK: open

  @Test("an open over the shape bound is refused from the request, naming the whole count")
  func refusedBeforeBuilding() throws {
    let rig = HostRig()
    let client = rig.connect()
    // 700 regular 64-gons: 11 pieces each, 7 700 shapes. Built item by item, the refusal came
    // at the item that crossed 4 096 (it named 4 103) after 373 hulls were built.
    let path = Self.polygon(sides: 64)
    let items = (0..<700).map {
      #"{"id":"p\#($0)","center":[50,50],"size":[40,40],"shape":"path","path":[\#(path)]}"#
    }
    let refused = try client.expectError(
      "out_of_range",
      #"{"op":"open","session":"big","scene":{"items":["# + items.joined(separator: ",") + "]}}")
    #expect(refused.errorMessage?.contains("would hold 7700 Box2D shapes") == true, "\(refused)")
    #expect(rig.host.sessionCount == 0)
  }

  @Test("a large open is built on a worker: the requester's later requests wait, others do not")
  func largeOpenOnWorker() throws {
    let m = HostSchedulingTests.Manual()
    let (opener, other) = (PeerID(1), PeerID(2))
    for peer in [opener, other] { m.host.connect(peer, pid: 1) }
    let big =
      #"{"op":"open","id":"o","session":"big","clock":"manual","scene":"#
      + Self.grid(items: 600) + "}"
    #expect(try m.apply(big, from: opener).isEmpty)
    #expect(m.host.jobsInFlight == 1)
    #expect(try m.apply(#"{"op":"get","id":"g","session":"big"}"#, from: opener).isEmpty)
    #expect(try m.apply(#"{"op":"hello","id":"h"}"#, from: opener).isEmpty)
    // Another peer is served meanwhile; the session does not exist for it yet.
    let served = try m.apply(#"{"op":"get","id":"x","session":"big"}"#, from: other)
    #expect(HostSchedulingTests.describe(served) == ["2: reply x error"])
    #expect(m.later.isEmpty)
    m.environment.runPending()
    #expect(
      HostSchedulingTests.describe(m.later) == ["1: reply o", "1: reply g", "1: reply h"],
      "\(HostSchedulingTests.describe(m.later))")
    #expect(m.host.jobsInFlight == 0)
    #expect(m.host.sessionCount == 1)
    // A small scene is still opened at once.
    let small = try m.apply(
      #"{"op":"open","id":"s","clock":"manual","scene":"# + Self.grid(items: 10) + "}",
      from: other)
    #expect(HostSchedulingTests.describe(small) == ["2: reply s"])
  }

  @Test("a large open whose requester left is dropped; one whose name was taken meanwhile fails")
  func largeOpenOutcomes() throws {
    let m = HostSchedulingTests.Manual()
    let (opener, other) = (PeerID(1), PeerID(2))
    for peer in [opener, other] { m.host.connect(peer, pid: 1) }
    let big =
      #"{"op":"open","id":"o","session":"big","keep":true,"clock":"manual","scene":"#
      + Self.grid(items: 600) + "}"
    #expect(try m.apply(big, from: opener).isEmpty)
    _ = m.host.disconnect(opener)
    m.environment.runPending()
    #expect(m.host.sessionCount == 0 && m.host.jobsInFlight == 0 && m.later.isEmpty)

    m.host.connect(opener, pid: 1)
    #expect(try m.apply(big, from: opener).isEmpty)
    let taken = try m.apply(
      #"{"op":"open","id":"t","session":"big","clock":"manual","scene":{}}"#, from: other)
    #expect(HostSchedulingTests.describe(taken) == ["2: reply t"])
    m.environment.runPending()
    guard case .reply(let reply)? = m.later.last?.message else {
      Issue.record("no reply: \(HostSchedulingTests.describe(m.later))")
      return
    }
    #expect(throws: ProtocolError.self) { try reply.result.get() }
    if case .failure(let error) = reply.result { #expect(error.code == .sessionExists) }
    #expect(m.host.sessionCount == 1 && m.host.jobsInFlight == 0)
  }

  // MARK: add_group

  @Test("add_group refuses a held item naming its first holder, and checks names first")
  func addGroupRefusals() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"g","clock":"manual","scene":{"items":["#
        + #"{"id":"a","center":[10,10],"size":[4,4]},{"id":"b","center":[20,10],"size":[4,4]},"#
        + #"{"id":"c","center":[30,10],"size":[4,4]}],"behaviors":["#
        + #"{"type":"gravity","id":"first","items":["b"]},"#
        + #"{"type":"collision","id":"second","items":["a","b"]}]}}"#)
    let held = try client.expectError(
      "invalid_scene", #"{"op":"add_group","session":"g","group":{"id":"G","items":["c","b"]}}"#)
    #expect(held.errorMessage?.contains("item 'b' is held by behavior 'first'") == true, "\(held)")
    let heldA = try client.expectError(
      "invalid_scene", #"{"op":"add_group","session":"g","group":{"id":"G","items":["a","c"]}}"#)
    #expect(heldA.errorMessage?.contains("held by behavior 'second'") == true, "\(heldA)")
    try client.expectError(
      "unknown_item", #"{"op":"add_group","session":"g","group":{"id":"G","items":["c","zz"]}}"#)
    try client.expectError(
      "invalid_scene", #"{"op":"add_group","session":"g","group":{"id":"a","items":["c"]}}"#)
    // Once no behavior holds it, the item may be grouped.
    try client.expectOK(#"{"op":"remove_all_behaviors","session":"g"}"#)
    try client.expectOK(#"{"op":"add_group","session":"g","group":{"id":"G","items":["a","b"]}}"#)
  }

  // MARK: list

  @Test("list is bounded in bytes and pages: next gives where the next page starts")
  func listPages() throws {
    let rig = HostRig()
    let client = rig.connect()
    // 1 800 sessions of 256-byte names: 1.1 MB of summaries as counted, over the 1 MiB bound.
    let names = (0..<1800).map { k in "s\(k)-" + String(repeating: "n", count: 254 - "\(k)".count) }
    for name in names {
      try client.expectOK(
        #"{"op":"open","session":"\#(name)","clock":"manual","scene":{"items":[]}}"#)
    }
    #expect(rig.host.sessionCount == 1800)
    var listed: [String] = []
    var from: Int?
    var pages = 0
    repeat {
      let line = #"{"op":"list""# + (from.map { #","from":\#($0)"# } ?? "") + "}"
      let reply = try client.expectOK(line).reply
      #expect(reply.text.utf8.count <= Wire.Limits.maxListBytes)
      let sessions = reply.object["sessions"] as? [[String: Any]] ?? []
      #expect(!sessions.isEmpty)
      listed += sessions.compactMap { $0["session"] as? String }
      from = (reply.object["next"] as? NSNumber)?.intValue
      pages += 1
    } while from != nil && pages < 10
    #expect(pages == 2)
    #expect(listed.count == names.count && listed == names, "listed \(listed.count) sessions")

    // A limit pages too; a session closed between pages is simply not listed.
    let first = try client.expectOK(#"{"op":"list","limit":2}"#).reply
    #expect((first.object["sessions"] as? [Any])?.count == 2)
    let next = try #require((first.object["next"] as? NSNumber)?.intValue)
    try client.expectOK(#"{"op":"close","session":"\#(names[2])"}"#)
    let second = try client.expectOK(#"{"op":"list","from":\#(next),"limit":1}"#).reply
    #expect(
      (second.object["sessions"] as? [[String: Any]])?.first?["session"] as? String == names[3])
    try client.expectError("out_of_range", #"{"op":"list","limit":0}"#)
    try client.expectError("out_of_range", #"{"op":"list","from":-1}"#)
    try client.expectError("wrong_type", #"{"op":"list","from":"a"}"#)
  }

  // MARK: debug

  @Test("debug beyond its byte bound is out_of_range, names bound and estimate, starts nothing")
  func debugBound() throws {
    let rig = HostRig()
    let client = rig.connect()
    // 1 000 items of 250-byte ids in 5 gravity behaviors: 1.27 MB of ids in the geometry.
    try client.expectOK(
      #"{"op":"open","session":"d","clock":"manual","scene":"#
        + Self.grid(items: 1000, idBytes: 250, behaviors: 5) + "}")
    let refused = try client.expectError("out_of_range", #"{"op":"debug","session":"d"}"#)
    let message = refused.errorMessage ?? ""
    #expect(message.contains("more than the 1048576 a debug message may be"), "\(message)")
    let estimate = message.split(separator: " ").first { Int($0) ?? 0 > 1_048_576 }
    #expect(estimate != nil, "the estimate is named: \(message)")
    // The stream did not start: a step brings frames but no debug event.
    let step = try client.expectOK(#"{"op":"step","session":"d"}"#)
    #expect(step.events("frame").count == 1 && step.events("debug").isEmpty)
    // Four behaviors fit (1.01 MB): the reply comes, within the bound.
    try client.expectOK(#"{"op":"remove_behavior","session":"d","behavior":"g4"}"#)
    let fits = try client.expectOK(#"{"op":"debug","session":"d"}"#).reply
    #expect(fits.text.utf8.count > 1_000_000 && fits.text.utf8.count <= Limits.maxDebugBytes)
    try client.expectOK(#"{"op":"debug","session":"d","enable":false}"#)
  }

  @Test("a frame's debug event keeps the contacts that fit its bound and counts the rest")
  func debugEventContactsLeftOut() throws {
    let rig = HostRig()
    let client = rig.connect()
    // 1 000 squares of 40 pt with 250-byte ids, side by side in 25 rows of 40 on the floor of a
    // 1600 × 1000 box, under gravity: each touches its neighbours (about 1 900 touching pairs,
    // 600 bytes each in the geometry, beyond 1 MiB), and each meets at most 8, so the 4 096
    // contacts a session holds take them all.
    let ids = (0..<1000).map { "i" + String(repeating: "0", count: 249 - "\($0)".count) + "\($0)" }
    let items = ids.enumerated().map {
      #"{"id":"\#($1)","center":[\#(20 + 40 * ($0 % 40)),\#(980 - 40 * ($0 / 40))],"size":[40,40]}"#
    }
    let list = ids.map { #""\#($0)""# }.joined(separator: ",")
    try client.expectOK(
      #"{"op":"open","session":"pile","clock":"manual","scene":{"items":["#
        + items.joined(separator: ",") + #"],"bounds":[0,0,1600,1000],"#
        + #""behaviors":[{"type":"gravity","items":["# + list + #"]},"#
        + #"{"type":"collision","reference_bounds":true,"items":["# + list + "]}]}}")
    // At rest, before any contact, the geometry is small: the stream starts.
    try client.expectOK(#"{"op":"debug","session":"pile"}"#)
    let step = try client.expectOK(#"{"op":"step","session":"pile","count":3}"#)
    let debug = try #require(step.events("debug").last)
    let leftOut = debug.number("left_out") ?? 0
    let listed = (debug.object["contacts"] as? [Any])?.count ?? 0
    #expect(leftOut > 0 && listed > 0, "\(listed) listed, \(leftOut) left out")
    #expect(debug.text.utf8.count <= Limits.maxDebugBytes)
    // The reply to debug now would pass the bound: it is refused, naming the contacts.
    let refused = try client.expectError("out_of_range", #"{"op":"debug","session":"pile"}"#)
    #expect(refused.errorMessage?.contains("contacts") == true, "\(refused)")
  }

  @Test("a stream whose scene grew past the bound sends empty lists counted in left_out")
  func debugEventOverBound() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"d","clock":"manual","scene":"#
        + Self.grid(items: 1000, idBytes: 250, behaviors: 4) + "}")
    try client.expectOK(#"{"op":"debug","session":"d"}"#)
    let ids = (0..<1000).map {
      #""i"# + String(repeating: "0", count: 249 - "\($0)".count) + "\($0)\""
    }
    try client.expectOK(
      #"{"op":"add_behavior","session":"d","behavior":{"type":"gravity","id":"g4","items":["#
        + ids.joined(separator: ",") + "]}}")
    let debug = try #require(
      try client.expectOK(#"{"op":"step","session":"d"}"#).events("debug").first)
    #expect(debug.number("left_out") == 5, "\(debug.text.prefix(300))")
    #expect((debug.object["gravity"] as? [Any])?.isEmpty == true)
    #expect(debug.text.utf8.count < 1_000)
  }

  // MARK: memory

  @Test(
    "sessions one call closes, counted at 1 MiB or more, are freed by a worker; one small at once")
  func largeSessionsFreedOnWorker() throws {
    let m = HostSchedulingTests.Manual()
    let owner = PeerID(1)
    m.host.connect(owner, pid: 1)
    _ = try m.apply(
      #"{"op":"open","session":"big","clock":"manual","scene":"# + Self.grid(items: 1000) + "}",
      from: owner)
    m.environment.runPending()
    #expect(m.host.memoryTotal > 1 << 20)
    _ = try m.apply(
      #"{"op":"open","session":"small","clock":"manual","scene":{"items":[]}}"#, from: owner)
    m.environment.runPending()
    let jobs = m.environment.jobsRun
    _ = try m.apply(#"{"op":"close","session":"small"}"#, from: owner)
    #expect(!m.environment.hasPending)
    // Its owner leaves: the big session closes, and a worker job is left to free it (13 such
    // scenes freed on the loop held it for 100 ms).
    _ = m.host.disconnect(owner)
    #expect(m.host.sessionCount == 0)
    #expect(m.environment.hasPending)
    m.environment.runPending()
    #expect(m.environment.jobsRun == jobs + 1)
  }

  @Test("the memory budget refuses growth with busy naming it; closing gives the memory back")
  func memoryBudget() throws {
    var configuration = SessionHost.Configuration()
    configuration.memoryBudget = 4 << 20
    let rig = HostRig(configuration: configuration)
    let client = rig.connect()
    let open = { (name: String, items: Int) in
      #"{"op":"open","session":"\#(name)","clock":"manual","scene":"# + Self.grid(items: items)
        + "}"
    }
    try client.expectOK(open("a", 200))
    let held = rig.host.memoryTotal
    #expect(held > 0 && held <= 2 << 20)
    let refused = try client.expectError("busy", open("b", 500))
    #expect(refused.errorMessage?.contains("memory budget is 4.0 MiB") == true, "\(refused)")
    #expect(rig.host.memoryTotal == held)
    try client.expectOK(open("c", 400))
    let both = rig.host.memoryTotal
    // Growing a session is refused the same way, and leaves it as it was.
    let children = (0..<400).map { _ in #"{"type":"gravity","items":["i000"]}"# }
    let composite = #"{"type":"composite","children":["# + children.joined(separator: ",") + "]}"
    try client.expectError(
      "busy", #"{"op":"add_behavior","session":"a","behavior":"# + composite + "}")
    #expect(rig.host.memoryTotal == both)
    try client.expectOK(
      #"{"op":"add_item","session":"a","item":{"id":"x","center":[5,5],"size":[2,2]}}"#)
    #expect(rig.host.memoryTotal > both)
    // set_behavior counts what it adds net of what it replaces: 999 boundary segments are
    // refused, a shorter item list is not. (A collision behavior also counts the contacts its
    // scene's shapes may make: 3 items here, 3 pairs.)
    try client.expectOK(open("d", 3))
    try client.expectOK(
      #"{"op":"add_behavior","session":"d","behavior":{"type":"collision","id":"c","items":[]}}"#)
    let points = (0..<1000).map { "[\(2 * $0),\($0 % 2 * 10)]" }.joined(separator: ",")
    try client.expectError(
      "busy",
      #"{"op":"set_behavior","session":"d","behavior":"c","boundaries":[{"id":"w","path":["#
        + points + "]}]}")
    let before = rig.host.memoryTotal
    try client.expectOK(#"{"op":"set_behavior","session":"a","behavior":"g0","items":["i000"]}"#)
    #expect(rig.host.memoryTotal < before)
    try client.expectOK(#"{"op":"close","session":"a"}"#)
    try client.expectOK(#"{"op":"close","session":"c"}"#)
    try client.expectOK(#"{"op":"close","session":"d"}"#)
    #expect(rig.host.memoryTotal == 0)
    try client.expectOK(open("b", 500))
  }
}

@Suite("Host: memory of contacts")
struct HostContactMemoryTests {
  @Test(
    "a scene with a collision behavior counts the contacts its shapes may make, up to the limit")
  func contactsCounted() throws {
    func counted(_ boxes: Int, collision: Bool) throws -> Int {
      let rig = HostRig()
      let ids = (0..<boxes).map { #""b\#($0)""# }.joined(separator: ",")
      let items = (0..<boxes).map { #"{"id":"b\#($0)","center":[100,100],"size":[10,10]}"# }
      let behavior =
        collision
        ? #"{"type":"collision","items":["# + ids + "]}"
        : #"{"type":"gravity","items":["# + ids + "]}"
      try rig.connect().expectOK(
        #"{"op":"open","session":"s","clock":"manual","scene":{"items":["#
          + items.joined(separator: ",") + #"],"behaviors":["# + behavior + "]}}")
      return rig.host.memoryTotal
    }
    // 91 boxes may touch in 4 095 pairs: 512 B each beyond what the same boxes count without.
    #expect(try counted(91, collision: true) - counted(91, collision: false) == 4095 * 512)
    // 200 boxes could make 19 900: the session holds at most 4 096.
    #expect(
      try counted(200, collision: true) - counted(200, collision: false)
        == Limits.maxContactsPerSession * 512)
  }
}
