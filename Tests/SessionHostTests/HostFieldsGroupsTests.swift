import Foundation
import SessionHost
import Testing
import Wire

/// Issue 14 on the wire: field behaviors and regions, item groups, composite behaviors and
/// their action rules, `items_in_rect`, `set_bounds` and scenes without reference bounds.
@Suite("Host: fields, groups, composites, actions")
struct HostFieldsGroupsTests {
  /// Opens a manual scene `m` and returns the client.
  private func open(_ scene: String, _ rig: HostRig) throws -> HostClient {
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"m","clock":"manual","scene":"# + scene + "}")
    return client
  }

  /// Steps `m` by `frames` frames of 1/60 s and returns the last frame's message.
  private func step(_ client: HostClient, frames: Int) throws -> Message {
    client.send(#"{"op":"step","id":"s","session":"m","count":\#(frames)}"#)
    let messages = try client.read { $0.isReply && $0.id == "s" }
    guard let frame = messages.last(where: { $0.event == "frame" }) else {
      throw TestFailure("no frame in \(messages.map(\.text))")
    }
    return frame
  }

  private func center(_ client: HostClient, _ item: String) throws -> [Double] {
    let reply = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
    guard let c = reply.vector("center", of: item) else { throw TestFailure(reply.text) }
    return c
  }

  @Test("a radial gravity field pulls its item toward its position, and only inside its region")
  func radialFieldAndRegion() throws {
    let rig = HostRig()
    let client = try open(
      #"{"items":[{"id":"near","center":[100,100],"size":[10,10]},"#
        + #"{"id":"far","center":[300,100],"size":[10,10]}],"#
        + #""behaviors":[{"type":"field","id":"f","kind":"radial_gravity","position":[150,100],"#
        + #""region":{"radius":80},"items":["near","far"]}]}"#, rig)
    _ = try step(client, frames: 30)
    let near = try center(client, "near")
    let far = try center(client, "far")
    #expect(near[0] > 100.5, "pulled toward x 150: \(near)")
    #expect(far == [300, 100], "outside the region nothing acts: \(far)")
    rig.expectFinite()
  }

  @Test("set_behavior changes a field live; fields are listed by behaviors and drawn by debug")
  func fieldSetAndDebug() throws {
    let rig = HostRig()
    let client = try open(
      #"{"items":[{"id":"a","center":[100,100],"size":[10,10]}],"#
        + #""behaviors":[{"type":"field","id":"f","kind":"linear_gravity","direction":[1,0],"#
        + #""items":["a"]}]}"#, rig)
    try client.expectOK(
      #"{"op":"set_behavior","session":"m","behavior":"f","strength":0,"position":[130,100],"#
        + #""region":{"difference":[{"size":[100,100]},{"radius":10}]}}"#)
    _ = try step(client, frames: 10)
    #expect(try center(client, "a") == [100, 100], "strength 0 moves nothing")
    let listed = try client.expectOK(#"{"op":"behaviors","session":"m"}"#).reply
    let field = (listed.object["behaviors"] as? [[String: Any]])?.first
    #expect(field?["kind"] as? String == "linear_gravity")
    #expect((field?["strength"] as? NSNumber)?.doubleValue == 0)
    #expect(field?["region"] as? [String: Any] != nil)
    try client.expectOK(#"{"op":"set_behavior","session":"m","behavior":"f","strength":1}"#)
    let debug = try client.expectOK(#"{"op":"debug","session":"m"}"#).reply
    let fields = (debug.object["debug"] as? [String: Any])?["fields"] as? [[String: Any]]
    #expect(fields?.first?["id"] as? String == "f")
    let samples = fields?.first?["samples"] as? [[NSNumber]] ?? []
    #expect(!samples.isEmpty && samples.count <= 256)
    // The region is a 100×100 square around (130, 100) minus a disc of radius 10; the item at
    // (100, 100) is in the square, out of the hole.
    for s in samples.map({ $0.map(\.doubleValue) }) {
      #expect(abs(s[0] - 130) <= 50 && abs(s[1] - 100) <= 50, "sample outside the region: \(s)")
      #expect(hypot(s[0] - 130, s[1] - 100) >= 10, "sample in the hole: \(s)")
    }
    _ = try step(client, frames: 10)
    #expect(try center(client, "a")[0] > 100)
  }

  @Test("a group moves its items as one body; its items cannot be named on their own")
  func groups() throws {
    let rig = HostRig()
    let client = try open(
      #"{"items":[{"id":"a","center":[100,100],"size":[20,20]},"#
        + #"{"id":"b","center":[140,100],"size":[20,20]},"#
        + #"{"id":"c","center":[250,100],"size":[20,20]}],"#
        + #""groups":[{"id":"g","items":["a","b"]}],"#
        + #""behaviors":[{"type":"gravity","id":"down","items":["g"]}]}"#, rig)
    let frame = try step(client, frames: 20)
    let a = frame.vector("center", of: "a") ?? []
    let b = frame.vector("center", of: "b") ?? []
    #expect(a.count == 2 && a[1] > 110, "the group fell: \(a)")
    #expect(
      a.count == 2 && b.count == 2 && abs((b[0] - a[0]) - 40) < 1e-3 && abs(b[1] - a[1]) < 1e-3)
    try client.expectError(
      "invalid_scene",
      #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","items":["a"]}}"#)
    try client.expectError("invalid_scene", #"{"op":"remove_item","session":"m","item":"a"}"#)
    try client.expectError(
      "invalid_scene",
      #"{"op":"add_group","session":"m","group":{"id":"h","items":["b","c"]}}"#)
    let get = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
    #expect((get.object["groups"] as? [[String: Any]])?.first?["id"] as? String == "g")
    try client.expectOK(#"{"op":"remove_group","session":"m","group":"g"}"#)
    let resting = try center(client, "a")
    #expect(resting == a, "the items stay where the group left them")
    try client.expectOK(
      #"{"op":"add_group","session":"m","group":{"id":"h","items":["b","c"]}}"#)
    try client.expectError(
      "unknown_item", #"{"op":"remove_group","session":"m","group":"g"}"#)
    rig.expectFinite()
  }

  @Test("a composite is added and removed as a unit; set_behavior reaches a child by id")
  func composite() throws {
    let rig = HostRig()
    let client = try open(
      #"{"items":[{"id":"a","center":[100,100],"size":[20,20]}]}"#, rig)
    try client.expectOK(
      #"{"op":"add_behavior","session":"m","behavior":{"type":"composite","id":"c","children":["#
        + #"{"type":"gravity","id":"g","items":["a"]},"#
        + #"{"type":"composite","id":"inner","children":["#
        + #"{"type":"dynamic_item","id":"light","items":["a"],"density":0.5}]}]}}"#)
    try client.expectError(
      "invalid_scene",
      #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","id":"light","items":["a"]}}"#
    )
    try client.expectOK(
      #"{"op":"set_behavior","session":"m","behavior":"g","direction":[1,0]}"#)
    _ = try step(client, frames: 10)
    let moved = try center(client, "a")
    #expect(moved[0] > 100 && moved[1] == 100, "gravity now points right: \(moved)")
    let listed = try client.expectOK(#"{"op":"behaviors","session":"m"}"#).reply
    let top = listed.object["behaviors"] as? [[String: Any]] ?? []
    #expect(top.count == 1 && (top.first?["children"] as? [[String: Any]])?.count == 2)
    try client.expectOK(#"{"op":"remove_behavior","session":"m","behavior":"inner"}"#)
    try client.expectError(
      "unknown_behavior", #"{"op":"set_behavior","session":"m","behavior":"light","density":2}"#)
    try client.expectOK(#"{"op":"remove_behavior","session":"m","behavior":"c"}"#)
    try client.expectError(
      "unknown_behavior", #"{"op":"set_behavior","session":"m","behavior":"g","magnitude":2}"#)
    // Its ids are free again.
    try client.expectOK(
      #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","id":"g","items":["a"]}}"#)
  }

  @Test("action rules fire on the step their condition becomes true, once, with the frame")
  func actionRules() throws {
    let rig = HostRig()
    let client = try open(
      #"{"bounds":[320,568],"items":[{"id":"ball","center":[160,100],"size":[20,20]}],"#
        + #""behaviors":[{"type":"gravity","id":"g","items":["ball"],"action":["#
        + #"{"when":{"item":"ball","outside":[0,0,320,300]},"#
        + #""then":[{"emit":"fell"},{"remove_behavior":"g"}]}]},"#
        + #"{"type":"dynamic_item","id":"p","items":["ball"],"action":["#
        + #"{"when":{"item":"ball","speed_above":100},"then":[{"emit":"fast"}],"repeat":true}]}]}"#,
      rig)
    client.send(#"{"op":"step","id":"s","session":"m","count":60}"#)
    let messages = try client.read { $0.isReply && $0.id == "s" }
    let fell = messages.filter { $0.event == "action" && $0.string("name") == "fell" }
    #expect(fell.count == 1)
    #expect(fell.first?.string("behavior") == "g" && fell.first?.string("item") == "ball")
    let fast = messages.filter { $0.event == "action" && $0.string("name") == "fast" }
    let frames = messages.filter { $0.event == "frame" }
    #expect(fast.count > 1 && fast.count <= frames.count, "at most one a frame: \(fast.count)")
    // Every action event follows the frame it belongs to.
    for event in fell + fast {
      guard let index = messages.firstIndex(where: { $0.text == event.text }) else { continue }
      #expect(
        messages[..<index].last(where: { $0.event == "frame" })?.seq == event.seq,
        "\(event.text)")
    }
    try client.expectError(
      "unknown_behavior", #"{"op":"set_behavior","session":"m","behavior":"g","magnitude":2}"#)
    try client.expectError(
      "unknown_behavior",
      #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","items":["ball"],"#
        + #""action":[{"when":{"always":true},"then":[{"remove_behavior":"nope"}]}]}}"#)
    try client.expectError(
      "invalid_scene",
      #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","items":["ball"],"#
        + #""action":[{"when":{"always":true},"then":[{"set":{"behavior":"p","#
        + #""items":[]}}]}]}}"#)
    try client.expectError(
      "invalid_scene",
      #"{"op":"add_behavior","session":"m","behavior":{"type":"collision","items":["ball"],"#
        + #""action":[{"when":{"always":true},"then":[{"set":{"behavior":"p","#
        + #""boundaries":[]}}]}]}}"#)
  }

  @Test("an action rule's set changes a behavior within the step it fires")
  func actionSet() throws {
    let rig = HostRig()
    let client = try open(
      #"{"items":[{"id":"ball","center":[160,100],"size":[20,20]}],"#
        + #""behaviors":[{"type":"gravity","id":"g","items":["ball"],"action":["#
        + #"{"when":{"item":"ball","outside":[0,0,320,150]},"#
        + #""then":[{"set":{"behavior":"g","direction":[0,-1]}}]}]}]}"#, rig)
    _ = try step(client, frames: 120)
    let listed = try client.expectOK(#"{"op":"behaviors","session":"m"}"#).reply
    let g = (listed.object["behaviors"] as? [[String: Any]])?.first
    #expect((g?["direction"] as? [NSNumber])?.map(\.doubleValue) == [0, -1])
    #expect(try center(client, "ball")[1] < 200, "turned back near y 150")
  }

  @Test("items_in_rect lists animated items by their frames; set_bounds moves the walls")
  func itemsInRectAndBounds() throws {
    let rig = HostRig()
    let client = try open(
      #"{"bounds":[200,200],"items":[{"id":"a","center":[50,50],"size":[20,20]},"#
        + #"{"id":"b","center":[150,150],"size":[20,20]},"#
        + #"{"id":"idle","center":[55,55],"size":[20,20]}],"#
        + #""behaviors":[{"type":"gravity","id":"g","items":["a","b"]},"#
        + #"{"type":"collision","id":"c","items":["a","b"],"reference_bounds":true}]}"#, rig)
    let inside = try client.expectOK(
      #"{"op":"items_in_rect","session":"m","rect":[0,0,100,100]}"#
    ).reply
    #expect(inside.object["items"] as? [String] == ["a"])
    try client.expectOK(#"{"op":"set_bounds","session":"m","bounds":[0,0,200,120]}"#)
    _ = try step(client, frames: 240)
    let a = try center(client, "a")
    #expect(abs(a[1] - 110) < 1, "a rests on the new floor at y 120: \(a)")
    let get = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
    #expect((get.object["bounds"] as? [NSNumber])?.map(\.doubleValue) == [0, 0, 200, 120])
    try client.expectError(
      "out_of_range", #"{"op":"set_bounds","session":"m","bounds":[0,0,0,120]}"#)
    rig.expectFinite()
  }

  @Test("a scene with bounds null has no reference bounds: its items fall past any wall")
  func noBounds() throws {
    let rig = HostRig()
    let client = try open(
      #"{"bounds":null,"items":[{"id":"a","center":[50,50],"size":[20,20]}],"#
        + #""behaviors":[{"type":"gravity","id":"g","items":["a"]},"#
        + #"{"type":"collision","id":"c","items":["a"],"reference_bounds":true}]}"#, rig)
    let get = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
    #expect(get.object["bounds"] == nil)
    _ = try step(client, frames: 120)
    #expect(try center(client, "a")[1] > 1000)
    rig.expectFinite()
  }

  @Test("a noise field is deterministic: two manual sessions send the same bytes")
  func noiseDeterminism() throws {
    func run() throws -> [String] {
      let rig = HostRig()
      let client = try open(
        #"{"items":[{"id":"a","center":[100,100],"size":[20,20]}],"#
          + #""behaviors":[{"type":"field","kind":"noise","items":["a"],"smoothness":0.5,"#
          + #""animation_speed":2,"strength":3,"seed":7}]}"#, rig)
      client.send(#"{"op":"step","id":"s","session":"m","count":30}"#)
      return try client.read { $0.isReply && $0.id == "s" }.map(\.text)
    }
    let first = try run()
    #expect(first == (try run()))
    #expect(Set(first.filter { $0.contains("\"frame\"") }).count > 1, "the noise moved the item")
  }

  @Test("fields acting on too many items are refused before anything is built")
  func fieldPairLimit() throws {
    let rig = HostRig()
    let items = (0..<1000).map { #"{"id":"i\#($0)","center":[\#($0 % 300),10],"size":[5,5]}"# }
    let ids = (0..<1000).map { #""i\#($0)""# }.joined(separator: ",")
    let client = try open(#"{"items":["# + items.joined(separator: ",") + "]}", rig)
    for n in 0..<Limits.maxFieldItemPairs / 1000 {
      try client.expectOK(
        #"{"op":"add_behavior","session":"m","behavior":{"type":"field","id":"f\#(n)","#
          + #""kind":"drag","items":["# + ids + "]}}")
    }
    let refused = try client.expectError(
      "out_of_range",
      #"{"op":"add_behavior","session":"m","behavior":{"type":"field","id":"over","#
        + #""kind":"drag","items":["# + ids + "]}}")
    #expect(refused.errorMessage?.contains("at most \(Limits.maxFieldItemPairs)") == true)
  }

  @Test("behaviors naming too many items in all are refused before anything is built")
  func itemReferenceLimit() throws {
    let rig = HostRig()
    let items = (0..<1000).map { #"{"id":"i\#($0)","center":[\#($0 % 300),10],"size":[5,5]}"# }
    let ids = (0..<1000).map { #""i\#($0)""# }.joined(separator: ",")
    let client = try open(#"{"items":["# + items.joined(separator: ",") + "]}", rig)
    let gravity = { (id: String, list: String) in
      #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","id":""# + id
        + #"","items":["# + list + "]}}"
    }
    for n in 0..<Limits.maxItemReferences / 1000 { try client.expectOK(gravity("g\(n)", ids)) }
    let over = try client.expectError("out_of_range", gravity("over", ids))
    #expect(over.errorMessage?.contains("at most \(Limits.maxItemReferences)") == true, "\(over)")
    // set_behavior that would name more is refused too, and so is an open that names too many.
    let small = #""i0""#
    try client.expectOK(gravity("small", small))
    let grown = try client.expectError(
      "out_of_range",
      #"{"op":"set_behavior","session":"m","behavior":"small","items":["# + ids + "]}")
    #expect(grown.errorMessage?.contains("items in all") == true, "\(grown)")
    let behaviors = (0...Limits.maxItemReferences / 1000).map {
      #"{"type":"gravity","id":"b\#($0)","items":["# + ids + "]}"
    }
    let opened = try rig.connect().expectError(
      "out_of_range",
      #"{"op":"open","session":"n","clock":"manual","scene":{"items":["#
        + items.joined(separator: ",") + #"],"behaviors":["# + behaviors.joined(separator: ",")
        + "]}}")
    #expect(opened.errorMessage?.contains("items in all") == true, "\(opened)")
  }
}
