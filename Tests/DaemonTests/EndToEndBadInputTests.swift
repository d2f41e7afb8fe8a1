import Foundation
import Testing

/// A line a client might send to a running daemon, and the code it must be answered with.
struct DaemonBadLine: CustomStringConvertible {
  let label: String
  let bytes: [UInt8]
  let code: String

  init(_ label: String, _ line: String, _ code: String) {
    self.init(label, bytes: Array(line.utf8), code)
  }

  init(_ label: String, bytes: [UInt8], _ code: String) {
    self.label = label
    self.bytes = bytes
    self.code = code
  }

  var description: String { "\(label) → \(code)" }
}

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

/// The corpus sent to a daemon whose connection holds the manual scene session `s` (items `a`
/// and `b`, behaviors `g` and `c`). Lines are listed by the kind of mistake.
let daemonBadLines: [DaemonBadLine] = [
  // Malformed and truncated JSON.
  DaemonBadLine("truncated object", #"{"op":"get","session":"s""#, "bad_json"),
  DaemonBadLine("truncated string", #"{"op":"ge"#, "bad_json"),
  DaemonBadLine("truncated after a colon", #"{"op":"#, "bad_json"),
  DaemonBadLine("trailing comma", #"{"op":"get","session":"s",}"#, "bad_json"),
  DaemonBadLine("two objects on a line", #"{"op":"list"} {"op":"list"}"#, "bad_json"),
  DaemonBadLine("single quotes", "{'op':'list'}", "bad_json"),
  DaemonBadLine("unquoted key", #"{op:"list"}"#, "bad_json"),
  DaemonBadLine("leading zero", tapS + #""x":01,"y":1}"#, "bad_json"),
  DaemonBadLine("fraction without integer part", tapS + #""x":.5,"y":1}"#, "bad_json"),
  DaemonBadLine("empty line", "", "bad_json"),
  DaemonBadLine("blank line", " \t ", "bad_json"),
  DaemonBadLine("invalid escape", #"{"op":"list","id":"\x"}"#, "bad_json"),
  DaemonBadLine("lone surrogate escape", #"{"op":"list","id":"\ud800"}"#, "bad_json"),
  DaemonBadLine(
    "invalid UTF-8: bad continuation",
    bytes: utf8(#"{"op":"list","id":""#) + [0xC3, 0x28, 0x22, 0x7D],
    "bad_json"),
  DaemonBadLine(
    "invalid UTF-8: overlong", bytes: utf8(#"{"op":"list","id":""#) + [0xC0, 0xAF, 0x22, 0x7D],
    "bad_json"),
  DaemonBadLine(
    "invalid UTF-8: encoded surrogate",
    bytes: utf8(#"{"op":"list","id":""#) + [0xED, 0xA0, 0x80, 0x22, 0x7D], "bad_json"),
  DaemonBadLine(
    "invalid UTF-8: truncated at the end", bytes: utf8(#"{"op":"list","id":""#) + [0xE2, 0x82],
    "bad_json"),
  DaemonBadLine("invalid UTF-8: a 0xFF byte", bytes: utf8(#"{"op":"list"}"#) + [0xFF], "bad_json"),
  DaemonBadLine(
    "NUL inside a string", bytes: utf8(#"{"op":"li"#) + [0] + utf8(#"st"}"#), "bad_json"),
  DaemonBadLine("NUL after the object", bytes: utf8(#"{"op":"list"}"#) + [0], "bad_json"),
  DaemonBadLine(
    "nesting 100 000 deep",
    String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000), "bad_json"),
  DaemonBadLine(
    "objects nested 70 deep in a request",
    #"{"op":"list","id":"# + String(repeating: #"{"a":"#, count: 70) + "1"
      + String(repeating: "}", count: 71), "bad_json"),
  // Valid JSON that is not an object.
  DaemonBadLine("a number", "42", "not_an_object"),
  DaemonBadLine("a string", #""list""#, "not_an_object"),
  DaemonBadLine("an array of requests", #"[{"op":"list"}]"#, "not_an_object"),
  DaemonBadLine("null", "null", "not_an_object"),
  DaemonBadLine("a boolean", "true", "not_an_object"),
  // Wrong types.
  DaemonBadLine("op is a number", #"{"op":5}"#, "wrong_type"),
  DaemonBadLine("session is a number", #"{"op":"get","session":7}"#, "wrong_type"),
  DaemonBadLine("x is a string", tapS + #""x":"1","y":1}"#, "wrong_type"),
  DaemonBadLine("id is a boolean", #"{"op":"list","id":true}"#, "wrong_type"),
  DaemonBadLine("id is null", #"{"op":"list","id":null}"#, "wrong_type"),
  DaemonBadLine("scene is an array", #"{"op":"open","session":"n","scene":[]}"#, "wrong_type"),
  DaemonBadLine(
    "a point with three numbers",
    #"{"op":"set_item","session":"s","item":"a","center":[1,2,3]}"#, "wrong_type"),
  DaemonBadLine(
    "keep is a string", #"{"op":"open","transition":"lock-screen","keep":"yes"}"#, "wrong_type"),
  DaemonBadLine("count is a boolean", #"{"op":"step","session":"s","count":true}"#, "wrong_type"),
  DaemonBadLine(
    "a transition parameter of the wrong type",
    #"{"op":"open","transition":"lock-screen","params":{"gravity":"strong"}}"#, "wrong_type"),
  DaemonBadLine(
    "a huge array where an id belongs",
    #"{"op":"list","id":["# + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]}",
    "wrong_type"),
  // Numbers JSON cannot carry, or that overflow.
  DaemonBadLine("NaN", tapS + #""x":NaN,"y":1}"#, "invalid_number"),
  DaemonBadLine("Infinity", tapS + #""x":Infinity,"y":1}"#, "invalid_number"),
  DaemonBadLine("-Infinity", tapS + #""x":1,"y":-Infinity}"#, "invalid_number"),
  DaemonBadLine(
    "1e999 in a point", #"{"op":"set_item","session":"s","item":"a","center":[1e999,0]}"#,
    "invalid_number"),
  DaemonBadLine(
    "1e999 in transition params",
    #"{"op":"open","transition":"lock-screen","params":{"gravity":1e999}}"#, "invalid_number"),
  DaemonBadLine("an id that overflows", #"{"op":"list","id":1e400}"#, "invalid_number"),
  // Missing fields.
  DaemonBadLine("no op", "{}", "missing_field"),
  DaemonBadLine("tap without y", tapS + #""x":1}"#, "missing_field"),
  DaemonBadLine("open without transition or scene", #"{"op":"open"}"#, "missing_field"),
  DaemonBadLine(
    "item without size", addItem(#"{"id":"z","center":[1,1]}"#), "missing_field"),
  DaemonBadLine("behavior without type", addBehavior(#"{"items":["a"]}"#), "missing_field"),
  DaemonBadLine(
    "set_behavior with nothing to set", #"{"op":"set_behavior","session":"s","behavior":"g"}"#,
    "missing_field"),
  // Unknown fields.
  DaemonBadLine("extra field on list", #"{"op":"list","verbose":true}"#, "unknown_field"),
  DaemonBadLine("a misspelt field", #"{"op":"get","session":"s","sesion":"s"}"#, "unknown_field"),
  DaemonBadLine(
    "a misspelt behavior field",
    addBehavior(#"{"type":"dynamic_item","items":["a"],"elasticty":0.5}"#), "unknown_field"),
  DaemonBadLine(
    "a field of another behavior type",
    #"{"op":"set_behavior","session":"s","behavior":"g","elasticity":0.5}"#, "unknown_field"),
  DaemonBadLine(
    "an unknown transition parameter",
    #"{"op":"open","transition":"lock-screen","params":{"gravty":1}}"#, "unknown_field"),
  DaemonBadLine(
    "transition and scene together", #"{"op":"open","transition":"lock-screen","scene":{}}"#,
    "unknown_field"),
  // Out of range.
  DaemonBadLine("fps 0", #"{"op":"open","transition":"lock-screen","fps":0}"#, "out_of_range"),
  DaemonBadLine("count 0", #"{"op":"step","session":"s","count":0}"#, "out_of_range"),
  DaemonBadLine("negative dt", #"{"op":"step","session":"s","dt":-1}"#, "out_of_range"),
  DaemonBadLine(
    "a step spanning 100 000 s", #"{"op":"step","session":"s","count":100000,"dt":1}"#,
    "out_of_range"),
  DaemonBadLine(
    "phase moved", #"{"op":"gesture","session":"s","phase":"moved","x":1,"y":1}"#, "out_of_range"),
  DaemonBadLine(
    "a transition parameter out of its range",
    #"{"op":"open","transition":"lock-screen","params":{"gravity":100}}"#, "out_of_range"),
  DaemonBadLine(
    "a center beyond a million points",
    #"{"op":"set_item","session":"s","item":"a","center":[2e6,0]}"#, "out_of_range"),
  DaemonBadLine("an empty session name", #"{"op":"get","session":""}"#, "out_of_range"),
  DaemonBadLine(
    "elasticity 1.5", addBehavior(#"{"type":"dynamic_item","items":["a"],"elasticity":1.5}"#),
    "out_of_range"),
  DaemonBadLine(
    "1001 items in one behavior",
    addBehavior(
      #"{"type":"gravity","items":["# + (0...1_000).map { #""i\#($0)""# }.joined(separator: ",")
        + "]}"), "out_of_range"),
  // Degenerate shapes.
  DaemonBadLine(
    "a zero-width item", zItem("").replacingOccurrences(of: "[10,10]", with: "[0,10]"),
    "out_of_range"),
  DaemonBadLine(
    "a negative size", zItem("").replacingOccurrences(of: "[10,10]", with: "[-10,10]"),
    "out_of_range"),
  DaemonBadLine(
    "a non-convex path", zItem(#","shape":"path","path":[[0,0],[20,0],[5,5],[0,20]]"#),
    "invalid_scene"),
  DaemonBadLine(
    "a collinear path", zItem(#","shape":"path","path":[[0,0],[10,0],[20,0]]"#), "invalid_scene"),
  DaemonBadLine(
    "a zero-length boundary",
    addBehavior(
      #"{"type":"collision","items":["a"],"boundaries":[{"id":"f","from":[5,5],"to":[5,5]}]}"#),
    "invalid_scene"),
  DaemonBadLine(
    "an attachment to itself", addBehavior(#"{"type":"attachment","item":"a","to":"a"}"#),
    "invalid_scene"),
  DaemonBadLine(
    "an item id that is taken", addItem(#"{"id":"a","center":[1,1],"size":[2,2]}"#),
    "invalid_scene"),
  DaemonBadLine(
    "a gesture on a scene session", #"{"op":"gesture","session":"s","phase":"began","x":1,"y":1}"#,
    "invalid_scene"),
  DaemonBadLine(
    "a scene with duplicate item ids",
    #"{"op":"open","session":"n","scene":{"items":[{"id":"q","center":[0,0],"size":[1,1]},"#
      + #"{"id":"q","center":[5,5],"size":[1,1]}]}}"#, "invalid_scene"),
  // Unknown ops, and names of nothing.
  DaemonBadLine("op in the wrong case", #"{"op":"List"}"#, "unknown_op"),
  DaemonBadLine("op from another protocol", #"{"op":"subscribe","session":"s"}"#, "unknown_op"),
  DaemonBadLine(
    "an unknown transition", #"{"op":"open","transition":"no-such"}"#,
    "unknown_transition"),
  DaemonBadLine("step an unknown session", #"{"op":"step","session":"ghost"}"#, "unknown_session"),
  DaemonBadLine(
    "watch an unknown session", #"{"op":"watch","session":"ghost"}"#,
    "unknown_session"),
  DaemonBadLine(
    "close an unknown session", #"{"op":"close","session":"ghost"}"#,
    "unknown_session"),
  DaemonBadLine(
    "add velocity to an unknown item",
    #"{"op":"add_velocity","session":"s","item":"ghost","velocity":[1,1]}"#, "unknown_item"),
  DaemonBadLine(
    "move an unknown item", #"{"op":"set_item","session":"s","item":"ghost","center":[1,1]}"#,
    "unknown_item"),
  DaemonBadLine(
    "a behavior naming an unknown item", addBehavior(#"{"type":"gravity","items":["ghost"]}"#),
    "unknown_item"),
  DaemonBadLine(
    "remove an unknown behavior", #"{"op":"remove_behavior","session":"s","behavior":"ghost"}"#,
    "unknown_behavior"),
  DaemonBadLine(
    "open a session name that is taken", #"{"op":"open","session":"s","transition":"lock-screen"}"#,
    "session_exists"),
]

@Suite("End to end: bad input corpus")
struct EndToEndBadInputTests {
  /// The codes protocol/PROTOCOL.md, “8. Error codes”, lists as core ("Error codes every
  /// implementation must use"; `SessionHostTests/HostErrorTests` triggers each of them).
  static let coreCodes = [
    "bad_json", "not_an_object", "missing_field", "unknown_field", "wrong_type", "invalid_number",
    "out_of_range", "unknown_op", "unknown_transition", "unknown_session", "session_exists",
    "unknown_item", "unknown_behavior", "invalid_scene", "line_too_long", "busy",
  ]

  @Test("the corpus has over 50 lines and covers every code a line alone can earn")
  func corpusIsLarge() {
    #expect(daemonBadLines.count >= 50)
    let perLine = Set(Self.coreCodes).subtracting(["line_too_long", "busy"])
    #expect(Set(daemonBadLines.map(\.code)) == perLine)
  }

  @Test("every bad line gets its code; the connection and another session carry on unchanged")
  func corpus() throws {
    try withDaemon { daemon in
      let client = try daemon.connect("bad")
      let neighbour = try daemon.connect("neighbour")
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
      for line in daemonBadLines {
        try client.send(bytes: line.bytes + [0x0A])
        let reply = try #require(try client.readMessage(), "\(line)")
        #expect(reply.isReply && reply.errorCode == line.code, "\(line): \(reply.text)")
        // The same connection answers the next request, and nothing changed.
        let probe = try client.request(#"{"op":"get","session":"s","id":"probe"}"#)
        #expect(probe.reply.id == "probe" && probe.events.isEmpty, "\(line): \(probe.reply.text)")
        #expect(
          probe.reply.text
            == before.replacingOccurrences(
              of: "{\"ok\":true,", with: "{\"ok\":true,\"id\":\"probe\","),
          "\(line) changed the session")
        // Another connection's session keeps stepping.
        let step = try neighbour.expectOK(#"{"op":"step","session":"other"}"#)
        seq += 1
        #expect(step.events("frame").map(\.seq) == [seq], "\(line)")
      }
      #expect(try client.expectOK(#"{"op":"get","session":"s"}"#).reply.text == before)
      // No bad line added a session or a behavior ("b1" is the first name the daemon gives).
      let sessions =
        try client.expectOK(#"{"op":"list"}"#).reply.object["sessions"] as? [[String: Any]]
      #expect(sessions?.compactMap { $0["session"] as? String } == ["s", "other"])
      try client.expectError(
        "unknown_behavior", #"{"op":"remove_behavior","session":"s","behavior":"b1"}"#)

      // An over-long line (1 MiB is the default limit) is answered first, then closed.
      let long = try daemon.connect("long")
      // The daemon stops reading at the limit and closes, so the rest of the write may fail.
      try? long.send(bytes: [0x7B] + [UInt8](repeating: 0x20, count: 1 << 20) + [0x7D, 0x0A])
      let answer = try long.readToEnd()
      #expect(answer.map(\.errorCode) == ["line_too_long"], "\(answer.map(\.text))")
      try client.expectOK(#"{"op":"get","session":"s"}"#)
      try neighbour.expectOK(#"{"op":"step","session":"other"}"#)
    }
  }

  @Test("a line over --max-line is answered line_too_long, then closed; others are unaffected")
  func configuredLineLimit() throws {
    try withDaemon(
      configured: { $0.maxLine = 4096 },
      body: { daemon in
        let client = try daemon.connect()
        let other = try daemon.connect("other")
        try client.expectOK(#"{"op":"hello"}"#)
        try client.send(String(repeating: " ", count: 5000) + #"{"op":"hello"}"#)
        let rest = try client.readToEnd()
        #expect(rest.count == 1)
        #expect(rest.first?.errorCode == "line_too_long", "\(rest.map(\.text))")
        try other.expectOK(#"{"op":"list"}"#)
      })
  }
}
