import Testing
import Wire

/// Names (session, item, behavior, boundary, transition, parameter) refuse every control
/// character and every bidirectional formatting character, naming it.
@Suite("Names")
struct NameTests {
  static let bidiNames: [(scalar: UInt32, name: String)] = [
    (0x061C, "ARABIC LETTER MARK"), (0x200E, "LEFT-TO-RIGHT MARK"),
    (0x200F, "RIGHT-TO-LEFT MARK"), (0x202A, "LEFT-TO-RIGHT EMBEDDING"),
    (0x202B, "RIGHT-TO-LEFT EMBEDDING"), (0x202C, "POP DIRECTIONAL FORMATTING"),
    (0x202D, "LEFT-TO-RIGHT OVERRIDE"), (0x202E, "RIGHT-TO-LEFT OVERRIDE"),
    (0x2066, "LEFT-TO-RIGHT ISOLATE"), (0x2067, "RIGHT-TO-LEFT ISOLATE"),
    (0x2068, "FIRST STRONG ISOLATE"), (0x2069, "POP DIRECTIONAL ISOLATE"),
  ]

  /// `\uXXXX` for a JSON string.
  static func escape(_ scalar: UInt32) -> String {
    let hex = String(scalar, radix: 16)
    return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
  }

  static func hex(_ scalar: UInt32) -> String {
    let hex = String(scalar, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - hex.count) + hex
  }

  static let rule =
    "names must not contain control characters or bidirectional formatting characters"

  @Test("every C0, DEL and C1 control character is refused and named")
  func controlCharacters() {
    for scalar in Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F) {
      let value = UInt32(scalar)
      #expect(
        rejection(#"{"op":"get","session":"a\#(Self.escape(value))b"}"#)
          == ProtocolError(
            .outOfRange,
            "field 'session' contains U+\(Self.hex(value)) (a control character); \(Self.rule)"),
        "U+\(Self.hex(value))")
    }
  }

  @Test("every bidirectional formatting character is refused and named")
  func bidiFormattingCharacters() {
    for (scalar, name) in Self.bidiNames {
      #expect(
        rejection(#"{"op":"get","session":"a\#(Self.escape(scalar))b"}"#)
          == ProtocolError(
            .outOfRange, "field 'session' contains U+\(Self.hex(scalar)) \(name); \(Self.rule)"))
      // Sent as raw UTF-8 rather than escaped: the same.
      let raw = String(Character(Unicode.Scalar(scalar)!))
      #expect(
        rejection(#"{"op":"get","session":"\#(raw)"}"#)?.message
          == "field 'session' contains U+\(Self.hex(scalar)) \(name); \(Self.rule)")
    }
    #expect(
      rejection(#"{"op":"get","session":"a\u202eb"}"#)?.message
        == "field 'session' contains U+202E RIGHT-TO-LEFT OVERRIDE; \(Self.rule)")
  }

  @Test("the neighbours of the refused characters are accepted")
  func neighboursAreAccepted() throws {
    for scalar: UInt32 in [
      0x20, 0x7E, 0xA0, 0xFF, 0x061B, 0x061D, 0x200D, 0x2010, 0x2029, 0x2030, 0x202F, 0x2065,
      0x206A, 0xFEFF, 0x1F600,
    ] {
      let character = String(Character(Unicode.Scalar(scalar)!))
      #expect(
        try decoded(#"{"op":"get","session":"a\#(character)b"}"#).op
          == Op(GetRequest(session: "a\(character)b")), "U+\(Self.hex(scalar))")
    }
  }

  @Test("every kind of name is checked, and the message names its field")
  func everyName() {
    let rlo = "\\u202e"
    let expectations: [(line: String, field: String)] = [
      (#"{"op":"get","session":"\#(rlo)"}"#, "field 'session'"),
      (#"{"op":"open","transition":"lock\#(rlo)"}"#, "field 'transition'"),
      (#"{"op":"open","transition":"snap","session":"\#(rlo)"}"#, "field 'session'"),
      (#"{"op":"remove_item","session":"s","item":"\#(rlo)"}"#, "field 'item'"),
      (#"{"op":"remove_behavior","session":"s","behavior":"\#(rlo)"}"#, "field 'behavior'"),
      (
        #"{"op":"add_item","session":"s","item":{"id":"\#(rlo)","center":[0,0],"size":[9,9]}}"#,
        "field 'item.id'"
      ),
      (
        #"{"op":"add_behavior","session":"s","behavior":{"type":"gravity","id":"\#(rlo)","items":[]}}"#,
        "field 'behavior.id'"
      ),
      (
        #"{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":["a","\#(rlo)"]}}"#,
        "field 'behavior.items[1]'"
      ),
      (
        #"{"op":"add_behavior","session":"s","behavior":{"type":"collision","items":[],"#
          + #""boundaries":[{"id":"\#(rlo)","from":[0,0],"to":[9,0]}]}}"#,
        "field 'behavior.boundaries[0].id'"
      ),
      (
        #"{"op":"open","transition":"snap","params":{"mode":"a\#(rlo)"}}"#,
        "field 'params.mode'"
      ),
      (
        #"{"op":"open","transition":"snap","params":{"a\#(rlo)":1}}"#,
        "a parameter name in 'params'"
      ),
    ]
    for (line, field) in expectations {
      #expect(
        rejection(line)
          == ProtocolError(
            .outOfRange, "\(field) contains U+202E RIGHT-TO-LEFT OVERRIDE; \(Self.rule)"),
        "\(line)")
    }
  }

  @Test("length faults still say the allowed length")
  func lengths() {
    #expect(
      rejection(#"{"op":"get","session":""}"#)
        == ProtocolError(.outOfRange, "field 'session' must be a name of 1 to 256 bytes (got 0)"))
    #expect(
      rejection(#"{"op":"open","transition":"snap","params":{"":1}}"#)
        == ProtocolError(
          .outOfRange, "parameter names in 'params' must be 1 to 256 bytes (got 0)"))
  }
}
