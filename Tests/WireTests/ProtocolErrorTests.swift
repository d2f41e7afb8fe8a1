import Testing
import Wire

@Suite("Protocol errors")
struct ProtocolErrorTests {
  @Test func codesAreSpelledAsInTheProtocol() {
    #expect(
      ErrorCode.allCases.map(\.rawValue) == [
        "bad_json", "not_an_object", "missing_field", "unknown_field", "wrong_type",
        "invalid_number", "out_of_range", "unknown_op", "unknown_transition", "unknown_session",
        "session_exists", "unknown_item", "unknown_behavior", "invalid_scene", "line_too_long",
        "busy", "line_timeout", "conflicting_fields", "evicted",
      ])
  }

  @Test func daemonErrorsHaveTheirCodes() {
    #expect(ProtocolError.lineTooLong(limit: 1 << 20).code == .lineTooLong)
    #expect(ProtocolError.unknownTransition("x", known: []).code == .unknownTransition)
    #expect(ProtocolError.unknownSession("x").code == .unknownSession)
    #expect(ProtocolError.sessionExists("x").code == .sessionExists)
    #expect(ProtocolError.unknownItem("a", session: "s").code == .unknownItem)
    #expect(ProtocolError.unknownBehavior("b", session: "s").code == .unknownBehavior)
    #expect(
      ProtocolError.unknownSession("lock").description
        == "unknown_session: no session is named 'lock'")
  }

  @Test("misspelt names get the closest as a suggestion; far ones none")
  func suggestions() {
    #expect(
      ProtocolError.unknownSession("lokc", open: ["menu", "lock"]).message
        == "no session is named 'lokc'; did you mean 'lock'?")
    #expect(
      ProtocolError.unknownSession("pager", open: ["menu", "lock"]).message
        == "no session is named 'pager'")
    #expect(
      ProtocolError.unknownTransition("lock-scren", known: ["lock-screen", "snap"]).message
        == "no transition is named 'lock-scren' (did you mean 'lock-screen'?); the transitions "
        + "are lock-screen, snap")
    #expect(
      ProtocolError.unknownTransition("page-curl", known: ["lock-screen", "snap"]).message
        == "no transition is named 'page-curl'; the transitions are lock-screen, snap")
  }

  @Test func lineTooLongReply() {
    var encoder = MessageEncoder()
    encoder.errorReply(id: nil, .lineTooLong(limit: 1_048_576))
    #expect(
      text(encoder)
        == #"{"ok":false,"error":{"code":"line_too_long","message":"line is longer than 1048576 "#
        + #"bytes; the connection will be closed"}}"# + "\n")
  }

  @Test func stepSpanIsLimited() throws {
    #expect(rejection(#"{"op":"step","session":"s","dt":10,"count":61}"#)?.code == .outOfRange)
    #expect(rejection(#"{"op":"step","session":"s","dt":10,"count":60}"#) == nil)
    let step = StepRequest(session: "s", count: 100_000)
    #expect(throws: ProtocolError.self) { try step.check(fps: 60) }
    #expect(throws: Never.self) { try StepRequest(session: "s", count: 36_000).check(fps: 60) }
    #expect(step.span(fps: 100) == 1_000)
  }
}
