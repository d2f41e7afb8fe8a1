import EmbeddedHost
import Foundation
import TestSupport
import Testing

// Over 50 bad lines, each sent to an embedded host and answered with its code while the peer's
// session and another peer's stay as they were. The daemon's `End to end: bad input corpus`
// sends through a socket only the lines whose framing a socket can change (empty lines, NUL
// bytes, a line cut inside a character, a long line) and the over-long lines.

private func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }
private let tapS = #"{"op":"tap","session":"s","#
private func addItem(_ item: String) -> String {
  #"{"op":"add_item","session":"s","item":"# + item + "}"
}
private func addBehavior(_ behavior: String) -> String {
  #"{"op":"add_behavior","session":"s","behavior":"# + behavior + "}"
}
private func zItem(_ extra: String) -> String {
  addItem(#"{"id":"z","center":[50,50],"size":[10,10]"# + extra + "}")
}

/// The corpus sent by a peer whose host holds the manual scene session `s` (items `a` and `b`,
/// behaviors `g` and `c`). Lines are listed by the kind of mistake.
let badLines: [BadLine] = [
  // Malformed and truncated JSON.
  BadLine("truncated object", #"{"op":"get","session":"s""#, "bad_json"),
  BadLine("truncated string", #"{"op":"ge"#, "bad_json"),
  BadLine("truncated after a colon", #"{"op":"#, "bad_json"),
  BadLine("trailing comma", #"{"op":"get","session":"s",}"#, "bad_json"),
  BadLine("two objects on a line", #"{"op":"list"} {"op":"list"}"#, "bad_json"),
  BadLine("single quotes", "{'op':'list'}", "bad_json"),
  BadLine("unquoted key", #"{op:"list"}"#, "bad_json"),
  BadLine("leading zero", tapS + #""x":01,"y":1}"#, "bad_json"),
  BadLine("fraction without integer part", tapS + #""x":.5,"y":1}"#, "bad_json"),
  BadLine("empty line", "", "bad_json"),
  BadLine("blank line", " \t ", "bad_json"),
  BadLine("invalid escape", #"{"op":"list","id":"\x"}"#, "bad_json"),
  BadLine("lone surrogate escape", #"{"op":"list","id":"\ud800"}"#, "bad_json"),
  BadLine(
    "invalid UTF-8: bad continuation",
    bytes: utf8(#"{"op":"list","id":""#) + [0xC3, 0x28, 0x22, 0x7D],
    "bad_json"),
  BadLine(
    "invalid UTF-8: overlong", bytes: utf8(#"{"op":"list","id":""#) + [0xC0, 0xAF, 0x22, 0x7D],
    "bad_json"),
  BadLine(
    "invalid UTF-8: encoded surrogate",
    bytes: utf8(#"{"op":"list","id":""#) + [0xED, 0xA0, 0x80, 0x22, 0x7D], "bad_json"),
  BadLine(
    "invalid UTF-8: truncated at the end", bytes: utf8(#"{"op":"list","id":""#) + [0xE2, 0x82],
    "bad_json"),
  BadLine("invalid UTF-8: a 0xFF byte", bytes: utf8(#"{"op":"list"}"#) + [0xFF], "bad_json"),
  BadLine(
    "NUL inside a string", bytes: utf8(#"{"op":"li"#) + [0] + utf8(#"st"}"#), "bad_json"),
  BadLine("NUL after the object", bytes: utf8(#"{"op":"list"}"#) + [0], "bad_json"),
  BadLine(
    "nesting 100 000 deep",
    String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), "bad_json"),
  BadLine(
    "objects nested 70 deep in a request",
    #"{"op":"list","id":"# + String(repeating: #"{"a":"#, count: 70) + "1"
      + String(repeating: "}", count: 71), "bad_json"),
  // Valid JSON that is not an object.
  BadLine("a number", "42", "not_an_object"),
  BadLine("a string", #""list""#, "not_an_object"),
  BadLine("an array of requests", #"[{"op":"list"}]"#, "not_an_object"),
  BadLine("null", "null", "not_an_object"),
  BadLine("a boolean", "true", "not_an_object"),
  // Wrong types.
  BadLine("op is a number", #"{"op":5}"#, "wrong_type"),
  BadLine("session is a number", #"{"op":"get","session":7}"#, "wrong_type"),
  BadLine("x is a string", tapS + #""x":"1","y":1}"#, "wrong_type"),
  BadLine("id is a boolean", #"{"op":"list","id":true}"#, "wrong_type"),
  BadLine("id is null", #"{"op":"list","id":null}"#, "wrong_type"),
  BadLine("scene is an array", #"{"op":"open","session":"n","scene":[]}"#, "wrong_type"),
  BadLine(
    "a point with three numbers",
    #"{"op":"set_item","session":"s","item":"a","center":[1,2,3]}"#, "wrong_type"),
  BadLine(
    "keep is a string", #"{"op":"open","transition":"lock-screen","keep":"yes"}"#, "wrong_type"),
  BadLine("count is a boolean", #"{"op":"step","session":"s","count":true}"#, "wrong_type"),
  BadLine(
    "a transition parameter of the wrong type",
    #"{"op":"open","transition":"lock-screen","params":{"gravity":"strong"}}"#, "wrong_type"),
  BadLine(
    "a huge array where an id belongs",
    #"{"op":"list","id":["# + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]}",
    "wrong_type"),
  // Numbers JSON cannot carry, or that overflow.
  BadLine("NaN", tapS + #""x":NaN,"y":1}"#, "invalid_number"),
  BadLine("Infinity", tapS + #""x":Infinity,"y":1}"#, "invalid_number"),
  BadLine("-Infinity", tapS + #""x":1,"y":-Infinity}"#, "invalid_number"),
  BadLine(
    "1e999 in a point", #"{"op":"set_item","session":"s","item":"a","center":[1e999,0]}"#,
    "invalid_number"),
  BadLine(
    "1e999 in transition params",
    #"{"op":"open","transition":"lock-screen","params":{"gravity":1e999}}"#, "invalid_number"),
  BadLine("an id that overflows", #"{"op":"list","id":1e400}"#, "invalid_number"),
  // Missing fields.
  BadLine("no op", "{}", "missing_field"),
  BadLine("tap without y", tapS + #""x":1}"#, "missing_field"),
  BadLine("open without transition or scene", #"{"op":"open"}"#, "missing_field"),
  BadLine(
    "item without size", addItem(#"{"id":"z","center":[1,1]}"#), "missing_field"),
  BadLine("behavior without type", addBehavior(#"{"items":["a"]}"#), "missing_field"),
  BadLine(
    "set_behavior with nothing to set", #"{"op":"set_behavior","session":"s","behavior":"g"}"#,
    "missing_field"),
  // Unknown fields.
  BadLine("extra field on list", #"{"op":"list","verbose":true}"#, "unknown_field"),
  BadLine("a misspelt field", #"{"op":"get","session":"s","sesion":"s"}"#, "unknown_field"),
  BadLine(
    "a misspelt behavior field",
    addBehavior(#"{"type":"dynamic_item","items":["a"],"elasticty":0.5}"#), "unknown_field"),
  BadLine(
    "a field of another behavior type",
    #"{"op":"set_behavior","session":"s","behavior":"g","elasticity":0.5}"#, "unknown_field"),
  BadLine(
    "an unknown transition parameter",
    #"{"op":"open","transition":"lock-screen","params":{"gravty":1}}"#, "unknown_field"),
  BadLine(
    "transition and scene together", #"{"op":"open","transition":"lock-screen","scene":{}}"#,
    "unknown_field"),
  // Out of range.
  BadLine("fps 0", #"{"op":"open","transition":"lock-screen","fps":0}"#, "out_of_range"),
  BadLine("count 0", #"{"op":"step","session":"s","count":0}"#, "out_of_range"),
  BadLine("negative dt", #"{"op":"step","session":"s","dt":-1}"#, "out_of_range"),
  BadLine(
    "a step spanning 100 000 s", #"{"op":"step","session":"s","count":100000,"dt":1}"#,
    "out_of_range"),
  BadLine(
    "phase moved", #"{"op":"gesture","session":"s","phase":"moved","x":1,"y":1}"#, "out_of_range"),
  BadLine(
    "a transition parameter out of its range",
    #"{"op":"open","transition":"lock-screen","params":{"gravity":100}}"#, "out_of_range"),
  BadLine(
    "a center beyond a million points",
    #"{"op":"set_item","session":"s","item":"a","center":[2e6,0]}"#, "out_of_range"),
  BadLine("an empty session name", #"{"op":"get","session":""}"#, "out_of_range"),
  BadLine(
    "elasticity 1.5", addBehavior(#"{"type":"dynamic_item","items":["a"],"elasticity":1.5}"#),
    "out_of_range"),
  BadLine(
    "1001 items in one behavior",
    addBehavior(
      #"{"type":"gravity","items":["# + (0...1_000).map { #""i\#($0)""# }.joined(separator: ",")
        + "]}"), "out_of_range"),
  // Degenerate shapes.
  BadLine(
    "a zero-width item", zItem("").replacingOccurrences(of: "[10,10]", with: "[0,10]"),
    "out_of_range"),
  BadLine(
    "a negative size", zItem("").replacingOccurrences(of: "[10,10]", with: "[-10,10]"),
    "out_of_range"),
  BadLine(
    "a non-convex path", zItem(#","shape":"path","path":[[0,0],[20,0],[5,5],[0,20]]"#),
    "invalid_scene"),
  BadLine(
    "a collinear path", zItem(#","shape":"path","path":[[0,0],[10,0],[20,0]]"#), "invalid_scene"),
  BadLine(
    "a zero-length boundary",
    addBehavior(
      #"{"type":"collision","items":["a"],"boundaries":[{"id":"f","from":[5,5],"to":[5,5]}]}"#),
    "invalid_scene"),
  BadLine(
    "an attachment to itself", addBehavior(#"{"type":"attachment","item":"a","to":"a"}"#),
    "invalid_scene"),
  BadLine(
    "an item id that is taken", addItem(#"{"id":"a","center":[1,1],"size":[2,2]}"#),
    "invalid_scene"),
  BadLine(
    "a tap on a scene session", #"{"op":"tap","session":"s","x":1,"y":1}"#,
    "invalid_scene"),
  BadLine(
    "a scene with duplicate item ids",
    #"{"op":"open","session":"n","scene":{"items":[{"id":"q","center":[0,0],"size":[1,1]},"#
      + #"{"id":"q","center":[5,5],"size":[1,1]}]}}"#, "invalid_scene"),
  // Unknown ops, and names of nothing.
  BadLine("op in the wrong case", #"{"op":"List"}"#, "unknown_op"),
  BadLine("op from another protocol", #"{"op":"subscribe","session":"s"}"#, "unknown_op"),
  BadLine(
    "an unknown transition", #"{"op":"open","transition":"no-such"}"#,
    "unknown_transition"),
  BadLine("step an unknown session", #"{"op":"step","session":"ghost"}"#, "unknown_session"),
  BadLine(
    "watch an unknown session", #"{"op":"watch","session":"ghost"}"#,
    "unknown_session"),
  BadLine(
    "close an unknown session", #"{"op":"close","session":"ghost"}"#,
    "unknown_session"),
  BadLine(
    "add velocity to an unknown item",
    #"{"op":"add_velocity","session":"s","item":"ghost","velocity":[1,1]}"#, "unknown_item"),
  BadLine(
    "move an unknown item", #"{"op":"set_item","session":"s","item":"ghost","center":[1,1]}"#,
    "unknown_item"),
  BadLine(
    "a behavior naming an unknown item", addBehavior(#"{"type":"gravity","items":["ghost"]}"#),
    "unknown_item"),
  BadLine(
    "remove an unknown behavior", #"{"op":"remove_behavior","session":"s","behavior":"ghost"}"#,
    "unknown_behavior"),
  BadLine(
    "open a session name that is taken", #"{"op":"open","session":"s","transition":"lock-screen"}"#,
    "session_exists"),
]

@Suite("Host bad input corpus")
struct HostBadInputTests {
  @Test("the corpus has over 50 lines and covers every code a line alone can earn")
  func corpusIsLarge() {
    #expect(badLines.count >= 50)
    let perLine = Set(HostErrorTests.coreCodes).subtracting(["line_too_long", "busy"])
    #expect(Set(badLines.map(\.code)) == perLine)
  }

  @Test("every bad line gets its code and a sentence; the peer and another session carry on")
  func corpus() throws {
    let rig = HostRig()
    let client = rig.connect("bad")
    let neighbour = rig.connect("neighbour")
    try client.expectOK(
      #"{"op":"open","session":"s","clock":"manual","scene":{"items":["#
        + #"{"id":"a","center":[100,100],"size":[20,20]},"#
        + #"{"id":"b","center":[150,100],"size":[20,20]}],"behaviors":["#
        + #"{"type":"gravity","id":"g","items":["a","b"]},"#
        + #"{"type":"collision","id":"c","items":["a","b"],"reference_bounds":true}]}}"#)
    try neighbour.expectOK(
      #"{"op":"open","session":"other","clock":"manual","scene":"#
        + Scenes.endlessFall(items: 1) + "}")
    let before = try client.expectOK(#"{"op":"get","session":"s"}"#).reply.text
    var seq = 0
    for line in badLines {
      client.send(bytes: line.bytes)
      let reply = try #require(try client.readMessage(), "\(line)")
      #expect(reply.isReply && reply.errorCode == line.code, "\(line): \(reply.text)")
      #expect(reply.errorMessage?.isEmpty == false, "\(line): an error needs a sentence")
      #expect(client.inbox.isEmpty, "\(line): more than one reply: \(client.inbox)")
      // The same peer is answered next, and nothing changed.
      let probe = try client.request(#"{"op":"get","session":"s","id":"probe"}"#)
      #expect(probe.reply.id == "probe" && probe.events.isEmpty, "\(line): \(probe.reply.text)")
      #expect(
        probe.reply.text
          == before.replacingOccurrences(
            of: "{\"ok\":true,", with: "{\"ok\":true,\"id\":\"probe\","),
        "\(line) changed the session")
      // Another peer's session keeps stepping.
      let step = try neighbour.expectOK(#"{"op":"step","session":"other"}"#)
      seq += 1
      #expect(step.events("frame").map(\.seq) == [seq], "\(line)")
    }
    #expect(try client.expectOK(#"{"op":"get","session":"s"}"#).reply.text == before)
    // No bad line added a session or a behavior ("b1" is the first name the host gives).
    let sessions =
      try client.expectOK(#"{"op":"list"}"#).reply.object["sessions"] as? [[String: Any]]
    #expect(sessions?.compactMap { $0["session"] as? String } == ["s", "other"])
    try client.expectError(
      "unknown_behavior", #"{"op":"remove_behavior","session":"s","behavior":"b1"}"#)
    rig.expectFinite()
  }
}

extension HostClient {
  /// Sends one line given as bytes (without `\n`), which need not be UTF-8.
  fileprivate func send(bytes: [UInt8]) { rig.take(rig.embedded.send(bytes, from: peer)) }
}
