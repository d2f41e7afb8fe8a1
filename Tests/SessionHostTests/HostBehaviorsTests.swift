import Foundation
import SessionHost
import Testing
import Wire

/// The `behaviors` op (extension): a scene's behaviors read back with the current value of every
/// field `set_behavior` can set.
@Suite("Host: behaviors")
struct HostBehaviorsTests {
  static let scene =
    #"{"items":[{"id":"a","center":[100,100],"size":[20,20]},"#
    + #"{"id":"b","center":[200,100],"size":[30,30],"shape":"ellipse"},"#
    + #"{"id":"c","center":[240,200],"size":[40,40]}],"behaviors":["#
    + #"{"type":"gravity","id":"g","items":["a"]},"#
    + #"{"type":"collision","id":"walls","items":["a"]},"#
    + #"{"type":"attachment","id":"rope","item":"b","anchor":[200,50]},"#
    + #"{"type":"snap","id":"home","item":"c","point":[240,300]},"#
    + #"{"type":"push","id":"kick","items":["b"],"mode":"continuous"},"#
    + #"{"type":"dynamic_item","id":"props","items":["a"]},"#
    + #"{"type":"attachment","id":"hinge","kind":"pin","item":"a","to":"c","anchor":[170,150]},"#
    + #"{"type":"attachment","id":"rail","kind":"sliding","item":"c","anchor":[240,200],"#
    + #""axis":[1,0],"range":[-10,10]}]}"#

  /// Per behavior, a `set_behavior` changing every field its type can set (`direction` is
  /// set through `angle` and `magnitude`, which exclude it).
  static let updates: [(id: String, type: String, fields: String)] = [
    ("g", "gravity", #""items":["b","c"],"angle":0.5,"magnitude":2"#),
    (
      "walls", "collision",
      #""items":["a","b"],"mode":"items","insets":[1,2,3,4],"#
        + #""boundaries":[{"id":"shelf","from":[0,200],"to":[320,200]},"#
        + #"{"id":"ledge","path":[[0,300],[100,320],[200,300]]}]"#
    ),
    (
      "rope", "attachment",
      #""anchor":[10,20],"length":33,"damping":0.7,"frequency":3,"friction_torque":4,"#
        + #""range":[-5,5]"#
    ),
    ("home", "snap", #""point":[50,60],"damping":0.25"#),
    ("kick", "push", #""items":["a","c"],"angle":1,"magnitude":3,"offset":[1,2],"active":false"#),
    (
      "props", "dynamic_item",
      #""items":["c"],"elasticity":0.6,"friction":0.7,"density":2.5,"resistance":1.5,"#
        + #""angular_resistance":2.5,"allows_rotation":false,"anchored":true,"charge":-3"#
    ),
  ]

  @Test("every settable field of each type is read back as set_behavior left it")
  func settableFieldsReadBack() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"m","clock":"manual","scene":"# + Self.scene + "}")
    for update in Self.updates {
      try client.expectOK(
        #"{"op":"set_behavior","session":"m","behavior":""# + update.id + #"","# + update.fields
          + "}")
    }
    let entries = try behaviors(client, "m")
    #expect(entries.map { $0["id"] as? String } == Self.updates.map(\.id) + ["hinge", "rail"])
    for update in Self.updates {
      let entry = try #require(entries.first { $0["id"] as? String == update.id })
      #expect(entry["type"] as? String == update.type)
      let type = try #require(BehaviorType(rawValue: update.type))
      // `action` is listed only when the behavior has rules (none here).
      for field in BehaviorUpdate.settableFields(of: type) where field != "action" {
        #expect(entry[field] != nil, "\(update.id) lacks '\(field)': \(entry)")
      }
      let sent = try object("{" + update.fields + "}")
      for (field, value) in sent {
        #expect(sameJSON(entry[field], value), "\(update.id).\(field): \(entry[field] ?? "nil")")
      }
    }
    // Direction, angle and magnitude describe one vector.
    let gravity = try #require(entries.first)
    #expect(sameJSON(gravity["direction"], [2 * cos(0.5), 2 * sin(0.5)]))
    let push = try #require(entries.first { $0["id"] as? String == "kick" })
    #expect(sameJSON(push["direction"], [3 * cos(1.0), 3 * sin(1.0)]))
    #expect(entries.first { $0["id"] as? String == "walls" }?["reference_bounds"] as? Bool == true)
  }

  /// set_behavior's fields, and a rule's `set`, are read for the type of the behavior they name
  /// once the session has looked it up: the type's own fields and ranges, nothing wider.
  @Test("set_behavior and a rule's set are read for their behavior's type")
  func fieldsReadForTheType() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"m","clock":"manual","scene":"# + Self.scene + "}")
    // 5 is an attachment's damping, not a snap's; 5000 a push's magnitude, not gravity's.
    try client.expectOK(#"{"op":"set_behavior","session":"m","behavior":"rope","damping":5}"#)
    try client.expectError(
      "out_of_range", #"{"op":"set_behavior","session":"m","behavior":"home","damping":5}"#)
    try client.expectOK(#"{"op":"set_behavior","session":"m","behavior":"kick","magnitude":5000}"#)
    try client.expectError(
      "out_of_range", #"{"op":"set_behavior","session":"m","behavior":"g","magnitude":5000}"#)
    try client.expectError(
      "unknown_field", #"{"op":"set_behavior","session":"m","behavior":"g","point":[1,2]}"#)
    // The behavior is looked up first: its fields cannot be read before.
    try client.expectError(
      "unknown_behavior", #"{"op":"set_behavior","session":"m","behavior":"zz","damping":"x"}"#)
    // A rule's set: refused when attached, for the type it names.
    let rule = { (set: String) in
      #"{"op":"add_behavior","session":"m","behavior":{"type":"gravity","items":["a"],"#
        + #""action":[{"when":{"always":true},"then":[{"set":{"behavior":"home","# + set + "}}]}]}}"
    }
    try client.expectError("out_of_range", rule(#""damping":5"#))
    try client.expectError("unknown_field", rule(#""magnitude":1"#))
    try client.expectOK(rule(#""damping":0.5"#))
  }

  @Test("attachments carry their kind's fields: to, offsets, axis; an unlimited range is null")
  func attachmentKinds() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"m","clock":"manual","scene":"# + Self.scene + "}")
    let entries = try behaviors(client, "m")
    func entry(_ id: String) throws -> [String: Any] {
      try #require(entries.first { $0["id"] as? String == id })
    }
    let rope = try entry("rope")
    #expect(rope["kind"] as? String == "distance" && rope["item"] as? String == "b")
    #expect(rope["to"] == nil && rope["range"] is NSNull)
    #expect(sameJSON(rope["offset"], [0, 0]) && sameJSON(rope["length"], 50))
    let hinge = try entry("hinge")
    #expect(hinge["to"] as? String == "c" && hinge["offset"] == nil && hinge["axis"] == nil)
    #expect(sameJSON(hinge["anchor"], [170, 150]))
    let rail = try entry("rail")
    #expect(sameJSON(rail["axis"], [1, 0]) && sameJSON(rail["range"], [-10, 10]))
    let props = try entry("props")
    #expect(props["allows_rotation"] as? Bool == true && sameJSON(props["density"], 1))
  }

  @Test("a client can send a behavior's entry back as set_behavior, and nothing changes")
  func entriesAreSetBehaviorFields() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"m","clock":"manual","scene":"# + Self.scene + "}")
    try client.expectOK(
      #"{"op":"set_behavior","session":"m","behavior":"walls","insets":[1,2,3,4]}"#)
    let before = try behaviors(client, "m")
    for entry in before {
      let type = try #require(BehaviorType(rawValue: entry["type"] as? String ?? ""))
      var fields = entry.filter { BehaviorUpdate.settableFields(of: type).contains($0.key) }
      // One form of each pair the request takes one of; an unlimited range cannot be sent.
      fields["angle"] = nil
      fields["magnitude"] = nil
      if fields["insets"] != nil { fields["reference_bounds"] = nil }
      if fields["range"] is NSNull { fields["range"] = nil }
      fields["op"] = "set_behavior"
      fields["session"] = "m"
      fields["behavior"] = entry["id"]
      let line = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
      try client.expectOK(line)
    }
    let after = try behaviors(client, "m")
    #expect(after.count == before.count)
    for (old, new) in zip(before, after) {
      #expect(sameJSON(new, old), "\(old["id"] ?? "?"): \(old) became \(new)")
    }
  }

  @Test("removed behaviors and items leave the list; a new scene has none")
  func followsTheScene() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"m","clock":"manual","scene":"# + Self.scene + "}")
    try client.expectOK(#"{"op":"remove_behavior","session":"m","behavior":"kick"}"#)
    try client.expectOK(#"{"op":"remove_item","session":"m","item":"c"}"#)
    let entries = try behaviors(client, "m")
    #expect(entries.map { $0["id"] as? String } == ["g", "walls", "rope", "props"])
    #expect(sameJSON(entries.first?["items"], ["a"]))
    try client.expectOK(#"{"op":"add_velocity","session":"m","item":"b","velocity":[1,0]}"#)
    #expect(try behaviors(client, "m").count == 4, "add_velocity's carrier is not listed")
    try client.expectOK(#"{"op":"open","session":"e","scene":{}}"#)
    #expect(try behaviors(client, "e").isEmpty)
  }

  @Test("a transition session is refused as by every scene op; an unknown session too")
  func refusals() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"L","transition":"lock-screen","clock":"manual"}"#)
    let refused = try client.expectError(
      "invalid_scene", #"{"op":"behaviors","id":1,"session":"L"}"#)
    #expect(refused.errorMessage?.contains("lock-screen") == true)
    try client.expectError("unknown_session", #"{"op":"behaviors","session":"l"}"#)
    try client.expectError("unknown_field", #"{"op":"behaviors","session":"L","all":true}"#)
    try client.expectError("missing_field", #"{"op":"behaviors"}"#)
  }

  private func behaviors(_ client: HostClient, _ session: String) throws -> [[String: Any]] {
    let reply = try client.expectOK(#"{"op":"behaviors","session":""# + session + #""}"#).reply
    return try #require(reply.object["behaviors"] as? [[String: Any]], "\(reply)")
  }
  @Test("a scene whose behaviors would make a reply over 1 MiB is out_of_range, told at once")
  func largestReply() throws {
    let rig = HostRig()
    let peer = rig.connect()
    // 1 000 items with 64-byte ids; gravity behaviors listing all of them (67 kB each).
    let ids = (0..<1000).map { "i" + String(repeating: "0", count: 63 - "\($0)".count) + "\($0)" }
    let items = ids.enumerated().map { k, id in
      #"{"id":"\#(id)","center":[\#(10 + k % 300),\#(10 + k / 4)],"size":[2,2]}"#
    }
    try peer.expectOK(
      #"{"op":"open","session":"big","clock":"manual","scene":{"items":["#
        + items.joined(separator: ",") + "]}}")
    let list = "[" + ids.map { #""\#($0)""# }.joined(separator: ",") + "]"
    for b in 0..<15 {
      try peer.expectOK(
        #"{"op":"add_behavior","session":"big","behavior":{"type":"gravity","id":"g\#(b)","#
          + #""items":\#(list)}}"#)
    }
    // 15 fit: the reply is about 1 MB, within the bound.
    let fits = try peer.expectOK(#"{"op":"behaviors","session":"big"}"#).reply
    #expect(
      fits.text.utf8.count > 1_000_000 && fits.text.utf8.count <= Limits.maxBehaviorsReplyBytes)
    try peer.expectOK(
      #"{"op":"add_behavior","session":"big","behavior":{"type":"gravity","id":"g15","#
        + #""items":\#(list)}}"#)
    let refused = try peer.expectError("out_of_range", #"{"op":"behaviors","session":"big"}"#)
    #expect(
      refused.errorMessage?.contains("more than the 1048576 a behaviors reply may be") == true)
  }
}

/// A JSON object parsed by Foundation.
func object(_ text: String) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
}

/// Whether two parsed JSON values are equal, numbers within 1e-6 (the wire's 6 decimals);
/// booleans count as the numbers 0 and 1, as Foundation parses them.
func sameJSON(_ a: Any?, _ b: Any?) -> Bool {
  if let x = a.flatMap(jsonNumber), let y = b.flatMap(jsonNumber) { return abs(x - y) <= 1e-6 }
  switch (a, b) {
  case (nil, nil), (is NSNull, is NSNull): return true
  case (let x as String, let y as String): return x == y
  case (let x as [Any], let y as [Any]):
    return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
  case (let x as [String: Any], let y as [String: Any]):
    return Set(x.keys) == Set(y.keys) && x.allSatisfy { sameJSON($0.value, y[$0.key]) }
  default: return false
  }
}

private func jsonNumber(_ value: Any) -> Double? {
  switch value {
  case let n as NSNumber: return n.doubleValue
  case let d as Double: return d
  case let i as Int: return Double(i)
  case let b as Bool: return b ? 1 : 0
  default: return nil
  }

}
