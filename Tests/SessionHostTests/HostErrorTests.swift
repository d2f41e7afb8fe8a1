import Testing
import Wire

/// Every error code of the protocol (PROTOCOL.md §8), each with a condition that triggers it.
@Suite("Host: error codes")
struct HostErrorTests {
  /// The core codes PROTOCOL.md §8 lists, the ones every implementation must use.
  static let coreCodes = [
    "bad_json", "not_an_object", "missing_field", "unknown_field", "wrong_type", "invalid_number",
    "out_of_range", "unknown_op", "unknown_transition", "unknown_session", "session_exists",
    "unknown_item", "unknown_behavior", "invalid_scene", "line_too_long", "busy",
  ]

  /// One condition per code (line_too_long is sent last: it closes the connection).
  static let triggers: [(code: String, line: String)] = [
    ("bad_json", #"{"op":"hello""#),
    ("not_an_object", #"["hello"]"#),
    ("missing_field", #"{"op":"get"}"#),
    (
      "unknown_field",
      #"{"op":"add_behavior","session":"s","behavior":"#
        + #"{"type":"dynamic_item","items":["a"],"elasticty":0.5}}"#
    ),
    ("wrong_type", #"{"op":"tap","session":"s","x":"1","y":2}"#),
    ("invalid_number", #"{"op":"tap","session":"s","x":1e999,"y":2}"#),
    ("out_of_range", #"{"op":"open","transition":"lock-screen","fps":1000}"#),
    ("unknown_op", #"{"op":"explode"}"#),
    ("unknown_transition", #"{"op":"open","transition":"fold-in-half"}"#),
    ("unknown_session", #"{"op":"get","session":"nobody"}"#),
    ("session_exists", #"{"op":"open","session":"s","scene":{}}"#),
    ("unknown_item", #"{"op":"remove_item","session":"s","item":"ghost"}"#),
    (
      "unknown_behavior",
      #"{"op":"set_behavior","session":"s","behavior":"ghost","#
        + #""magnitude":2}"#
    ),
    (
      "invalid_scene",
      #"{"op":"add_item","session":"s","item":{"id":"a","#
        + #""center":[1,1],"size":[5,5]}}"#
    ),
    // `step` belongs to manual sessions; a realtime one cannot take it now.
    ("busy", #"{"op":"step","session":"rt"}"#),
  ]

  @Test("the table covers exactly the core codes, which are the codec's codes")
  func tableIsComplete() {
    #expect(Set(Self.triggers.map(\.code)).union(["line_too_long"]) == Set(Self.coreCodes))
    // dynd's extensions: line_timeout (EndToEndOperationsTests triggers it),
    // conflicting_fields (HostMotionInForceTests) and evicted (EndToEndConnectionSlotsTests).
    #expect(
      Set(ErrorCode.allCases.map(\.rawValue))
        == Set(Self.coreCodes + ["line_timeout", "conflicting_fields", "evicted"]))
  }

  @Test("each condition gets its code, with the request's id, and the peer stays usable")
  func everyCode() throws {
    do {
      let daemon = HostRig()
      let client = daemon.connect()
      try client.expectOK(
        #"{"op":"open","session":"s","clock":"manual","scene":{"items":["#
          + #"{"id":"a","center":[10,10],"size":[5,5]}],"#
          + #""behaviors":[{"type":"gravity","id":"g","items":["a"]}]}}"#)
      try client.expectOK(#"{"op":"open","session":"rt","transition":"lock-screen"}"#)
      for (number, trigger) in Self.triggers.enumerated() {
        let reply = try client.expectError(trigger.code, trigger.line)
        #expect(reply.object["id"] == nil)
        // With an id the same condition echoes it (where the line is well-formed enough).
        if trigger.line.hasPrefix("{\"op\""), trigger.line.hasSuffix("}") {
          let withID = #"{"id":\#(number),"# + trigger.line.dropFirst()
          let again = try client.expectError(trigger.code, withID)
          #expect(again.id == "\(number)", "\(withID) → \(again.text)")
        }
        try client.expectOK(#"{"op":"get","session":"s"}"#)
      }

      // line_too_long is the transport's (the daemon tests trigger it).
      daemon.expectFinite()
    }
  }

  @Test("a misspelt session gets a suggestion while at most 100 are open, and none beyond")
  func sessionSuggestions() throws {
    let daemon = HostRig()
    let client = daemon.connect()
    let scene = #""scene":{"items":[{"id":"a","center":[10,10],"size":[5,5]}]}"#
    try client.expectOK(#"{"op":"open","session":"menu","clock":"manual",\#(scene)}"#)
    try client.expectOK(#"{"op":"open","session":"lock","clock":"manual",\#(scene)}"#)
    let suggested = try client.expectError("unknown_session", #"{"op":"get","session":"lokc"}"#)
    #expect(suggested.text.contains("no session is named 'lokc'; did you mean 'lock'?"))
    for number in 0..<99 {
      try client.expectOK(#"{"op":"open","session":"s\#(number)","clock":"manual",\#(scene)}"#)
    }
    let plain = try client.expectError("unknown_session", #"{"op":"get","session":"lokc"}"#)
    #expect(plain.text.contains(#""message":"no session is named 'lokc'"}"#), "\(plain.text)")
  }
}
