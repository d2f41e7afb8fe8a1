import TestSupport
import Testing
import Wire

extension BadLine {
  /// A line and the code it must be rejected with, named by the codec's type.
  init(_ label: String, _ line: String, _ code: ErrorCode) {
    self.init(label, line, code.rawValue)
  }

  init(_ label: String, bytes: [UInt8], _ code: ErrorCode) {
    self.init(label, bytes: bytes, code.rawValue)
  }
}

private let tap = #"{"op":"tap","session":"s","#
private func item(_ fields: String = "", center: String = "[0,0]", size: String = "[10,10]")
  -> String
{
  #"{"op":"add_item","session":"s","item":{"id":"a","center":"# + center + #","size":"# + size
    + fields + "}}"
}
private func behavior(_ body: String) -> String {
  #"{"op":"add_behavior","session":"s","behavior":"# + body + "}"
}
private func scene(_ body: String) -> String {
  #"{"op":"open","scene":"# + body + "}"
}
private let twoItems =
  #""items":[{"id":"a","center":[50,50],"size":[10,10]},"#
  + #"{"id":"b","center":[80,50],"size":[10,10]}]"#

let badLines: [BadLine] = [
  // Malformed or truncated JSON.
  BadLine("truncated object", #"{"op":"hello""#, .badJSON),
  BadLine("truncated string", #"{"op":"hel"#, .badJSON),
  BadLine("trailing comma in object", #"{"op":"hello",}"#, .badJSON),
  BadLine("trailing comma in array", tap + #""x":1,"y":2,"z":[1,]}"#, .badJSON),
  BadLine("trailing garbage", #"{"op":"hello"} x"#, .badJSON),
  BadLine("two objects on a line", #"{"op":"hello"}{"op":"list"}"#, .badJSON),
  BadLine("single-quoted strings", "{'op':'hello'}", .badJSON),
  BadLine("single quote inside a value position", #"{"op":'hello'}"#, .badJSON),
  BadLine("leading zero", tap + #""x":01,"y":2}"#, .badJSON),
  BadLine("decimal point without digits", tap + #""x":1.,"y":2}"#, .badJSON),
  BadLine("fraction without integer part", tap + #""x":.5,"y":2}"#, .badJSON),
  BadLine("explicit plus sign", tap + #""x":+1,"y":2}"#, .badJSON),
  BadLine("exponent without digits", tap + #""x":1e,"y":2}"#, .badJSON),
  BadLine("lone minus", #"{"op":"hello","id":-}"#, .badJSON),
  BadLine("unquoted key", #"{op:"hello"}"#, .badJSON),
  BadLine("missing colon", #"{"op" "hello"}"#, .badJSON),
  BadLine("double comma", #"{"op":"hello",,"id":1}"#, .badJSON),
  BadLine("upper-case literal", #"{"op":"hello","id":TRUE}"#, .badJSON),
  BadLine("empty line", "", .badJSON),
  BadLine("blank line", "  \t ", .badJSON),
  BadLine("invalid escape", #"{"op":"hello","id":"\q"}"#, .badJSON),
  BadLine("short unicode escape", #"{"op":"hello","id":"\u12"}"#, .badJSON),
  BadLine("raw tab in a string", "{\"op\":\"hello\",\"id\":\"a\tb\"}", .badJSON),
  BadLine("escaped NUL in a key", #"{"op\u0000x":"hello"}"#, .badJSON),
  BadLine("embedded NUL outside strings", bytes: Array(#"{"op":"hello"}"#.utf8) + [0], .badJSON),
  BadLine(
    "raw NUL inside a string", bytes: Array(#"{"op":"he"#.utf8) + [0] + Array(#"llo"}"#.utf8),
    .badJSON),
  BadLine(
    "invalid UTF-8: bad continuation",
    bytes: Array(#"{"op":"hello","id":""#.utf8) + [0xC3, 0x28, 0x22, 0x7D],
    .badJSON),
  BadLine(
    "invalid UTF-8: surrogate",
    bytes: Array(#"{"op":"hello","id":""#.utf8) + [0xED, 0xA0, 0x80, 0x22, 0x7D],
    .badJSON),
  BadLine(
    "invalid UTF-8: overlong slash",
    bytes: Array(#"{"op":"hello","id":""#.utf8) + [0xC0, 0xAF, 0x22, 0x7D],
    .badJSON),
  BadLine(
    "invalid UTF-8: above U+10FFFF",
    bytes: Array(#"{"op":"hello","id":""#.utf8) + [0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D], .badJSON),
  BadLine(
    "invalid UTF-8: truncated sequence",
    bytes: Array(#"{"op":"hello","id":""#.utf8) + [0xE2, 0x82], .badJSON),
  BadLine(
    "non-ASCII outside strings", bytes: Array(#"{"op":"hello"}"#.utf8) + [0xC3, 0xA9], .badJSON),
  BadLine(
    "nesting depth 10 000",
    String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000), .badJSON),
  BadLine(
    "nesting depth 10 000 inside a request",
    #"{"op":"hello","id":"# + String(repeating: "[", count: 10_000)
      + String(repeating: "]", count: 10_000)
      + "}", .badJSON),
  // Numbers JSON cannot carry, or that overflow.
  BadLine("NaN", tap + #""x":NaN,"y":1}"#, .invalidNumber),
  BadLine("Infinity", tap + #""x":Infinity,"y":1}"#, .invalidNumber),
  BadLine("-Infinity", tap + #""x":-Infinity,"y":1}"#, .invalidNumber),
  BadLine("1e999", tap + #""x":1e999,"y":1}"#, .invalidNumber),
  BadLine("-1e999 in a nested point", item(center: "[-1e999,0]"), .invalidNumber),
  BadLine("overflowing id", #"{"op":"hello","id":1e400}"#, .invalidNumber),
  BadLine(
    "integer beyond the largest double",
    tap + #""x":1"# + String(repeating: "0", count: 399) + #","y":1}"#, .invalidNumber),
  BadLine(
    "integer beyond 64 bits, read as a double",
    tap + #""x":123456789012345678901234,"y":1}"#, .outOfRange),
  BadLine(
    "NaN in params", #"{"op":"open","transition":"snap","params":{"damping":NaN}}"#, .invalidNumber),
  BadLine(
    "1e999 in params", #"{"op":"open","transition":"snap","params":{"damping":1e999}}"#,
    .invalidNumber),
  // Valid JSON that is not an object.
  BadLine("number", "42", .notAnObject),
  BadLine("string", #""hello""#, .notAnObject),
  BadLine("array of requests", #"[{"op":"hello"}]"#, .notAnObject),
  BadLine("null", "null", .notAnObject),
  BadLine("boolean", "true", .notAnObject),
  // Missing fields.
  BadLine("no op", "{}", .missingField),
  BadLine("tap without y", tap + #""x":1}"#, .missingField),
  BadLine("gesture without phase", #"{"op":"gesture","session":"s","x":1,"y":2}"#, .missingField),
  BadLine(
    "gesture with vx but no vy",
    #"{"op":"gesture","session":"s","phase":"ended","x":1,"y":2,"vx":3}"#, .missingField),
  BadLine(
    "swipe with y but no x", #"{"op":"swipe","session":"s","direction":"left","y":2}"#,
    .missingField),
  BadLine("open without transition or scene", #"{"op":"open","fps":60}"#, .missingField),
  BadLine("get without session", #"{"op":"get"}"#, .missingField),
  BadLine(
    "item without size", #"{"op":"add_item","session":"s","item":{"id":"a","center":[0,0]}}"#,
    .missingField),
  BadLine("shape path without path", item(#","shape":"path""#), .missingField),
  BadLine("behavior without type", behavior(#"{"items":["a"]}"#), .missingField),
  BadLine("gravity without items", behavior(#"{"type":"gravity"}"#), .missingField),
  BadLine("push without mode", behavior(#"{"type":"push","items":["a"]}"#), .missingField),
  BadLine(
    "attachment without to or anchor", behavior(#"{"type":"attachment","item":"a"}"#), .missingField
  ),
  BadLine(
    "pin attachment without anchor",
    behavior(#"{"type":"attachment","kind":"pin","item":"a","to":"b"}"#), .missingField),
  BadLine(
    "boundary without geometry",
    behavior(#"{"type":"collision","items":[],"boundaries":[{"id":"f"}]}"#), .missingField),
  BadLine(
    "set_behavior with nothing to set", #"{"op":"set_behavior","session":"s","behavior":"b"}"#,
    .missingField),
  // Unknown fields.
  BadLine("typo at the top level", #"{"op":"hello","sesion":"s"}"#, .unknownField),
  BadLine("extra field on list", #"{"op":"list","verbose":true}"#, .unknownField),
  BadLine(
    "typo in a behavior", behavior(#"{"type":"dynamic_item","items":["a"],"elasticty":0.5}"#),
    .unknownField),
  BadLine(
    "typo in set_behavior", #"{"op":"set_behavior","session":"s","behavior":"b","elasticty":0.5}"#,
    .unknownField),
  BadLine(
    "transition and scene together", #"{"op":"open","transition":"snap","scene":{}}"#, .unknownField
  ),
  BadLine("params with a scene", #"{"op":"open","scene":{},"params":{}}"#, .unknownField),
  BadLine("path on a rectangle", item(#","path":[[0,0],[10,0],[0,10]]"#), .unknownField),
  BadLine(
    "gravity direction and angle",
    behavior(#"{"type":"gravity","items":["a"],"direction":[0,1],"angle":1}"#), .unknownField),
  BadLine(
    "axis on a distance attachment",
    behavior(#"{"type":"attachment","item":"a","anchor":[0,0],"axis":[1,0]}"#), .unknownField),
  BadLine(
    "to and anchor on a distance attachment",
    behavior(#"{"type":"attachment","item":"a","to":"b","anchor":[0,0]}"#), .unknownField),
  BadLine(
    "reference_bounds and insets",
    behavior(#"{"type":"collision","items":[],"reference_bounds":true,"insets":[0,0,0,0]}"#),
    .unknownField),
  BadLine("unknown field in an item", item(#","colour":"red""#), .unknownField),
  BadLine("unknown field in a scene", scene(#"{"gravity":1}"#), .unknownField),
  // Wrong types.
  BadLine("op is a number", #"{"op":5}"#, .wrongType),
  BadLine("x is a string", tap + #""x":"1","y":2}"#, .wrongType),
  BadLine("session is a number", #"{"op":"tap","session":7,"x":1,"y":2}"#, .wrongType),
  BadLine("id is a boolean", #"{"op":"hello","id":true}"#, .wrongType),
  BadLine("id is null", #"{"op":"hello","id":null}"#, .wrongType),
  BadLine("id is an object", #"{"op":"hello","id":{}}"#, .wrongType),
  BadLine("x is null", tap + #""x":null,"y":2}"#, .wrongType),
  BadLine("keep is a string", #"{"op":"open","transition":"snap","keep":"yes"}"#, .wrongType),
  BadLine(
    "param is an array", #"{"op":"open","transition":"snap","params":{"a":[1]}}"#, .wrongType),
  BadLine("params is an array", #"{"op":"open","transition":"snap","params":[]}"#, .wrongType),
  BadLine("scene is an array", scene("[]"), .wrongType),
  BadLine("center has three numbers", item(center: "[0,0,0]"), .wrongType),
  BadLine("center is an object", item(center: #"{"x":0,"y":0}"#), .wrongType),
  BadLine("items is not an array", behavior(#"{"type":"gravity","items":"a"}"#), .wrongType),
  BadLine("bounds has three numbers", scene(#"{"bounds":[1,2,3]}"#), .wrongType),
  BadLine(
    "huge array where a string belongs",
    #"{"op":"hello","id":["# + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]}",
    .wrongType),
  BadLine("count is a boolean", #"{"op":"step","session":"s","count":true}"#, .wrongType),
  // Out of range.
  BadLine("fps 500", #"{"op":"open","transition":"snap","fps":500}"#, .outOfRange),
  BadLine("fps 0", #"{"op":"open","transition":"snap","fps":0}"#, .outOfRange),
  BadLine("dt 0", #"{"op":"step","session":"s","dt":0}"#, .outOfRange),
  BadLine("dt 11 s", #"{"op":"step","session":"s","dt":11}"#, .outOfRange),
  BadLine("count 0", #"{"op":"step","session":"s","count":0}"#, .outOfRange),
  BadLine("count 2.5", #"{"op":"step","session":"s","count":2.5}"#, .outOfRange),
  BadLine("count 100 001", #"{"op":"step","session":"s","count":100001}"#, .outOfRange),
  BadLine("size [0, 10]", item(size: "[0,10]"), .outOfRange),
  BadLine("size [10, 1e6]", item(size: "[10,1e6]"), .outOfRange),
  BadLine("negative size", item(size: "[-10,10]"), .outOfRange),
  BadLine("2-point path", item(#","shape":"path","path":[[0,0],[10,0]]"#), .outOfRange),
  BadLine(
    "65-point path",
    item(#","shape":"path","path":["# + (0..<65).map { "[\($0),0]" }.joined(separator: ",") + "]"),
    .outOfRange),
  BadLine("x beyond a million points", tap + #""x":2e6,"y":1}"#, .outOfRange),
  BadLine(
    "elasticity 1.5", behavior(#"{"type":"dynamic_item","items":["a"],"elasticity":1.5}"#),
    .outOfRange),
  BadLine(
    "density 0", behavior(#"{"type":"dynamic_item","items":["a"],"density":0}"#), .outOfRange),
  BadLine(
    "negative resistance", behavior(#"{"type":"dynamic_item","items":["a"],"resistance":-1}"#),
    .outOfRange),
  BadLine(
    "snap damping 2", behavior(#"{"type":"snap","item":"a","point":[0,0],"damping":2}"#),
    .outOfRange),
  BadLine(
    "negative frequency",
    behavior(#"{"type":"attachment","item":"a","anchor":[0,0],"frequency":-1}"#), .outOfRange),
  BadLine(
    "zero sliding axis",
    behavior(#"{"type":"attachment","kind":"sliding","item":"a","anchor":[0,0],"axis":[0,0]}"#),
    .outOfRange),
  BadLine(
    "sliding range without 0",
    behavior(
      #"{"type":"attachment","kind":"sliding","item":"a","anchor":[0,0],"axis":[1,0],"range":[1,2]}"#
    ), .outOfRange),
  BadLine(
    "range with min > max",
    behavior(
      #"{"type":"attachment","kind":"pin","item":"a","to":"b","anchor":[0,0],"range":[1,-1]}"#),
    .outOfRange),
  BadLine(
    "phase moved", #"{"op":"gesture","session":"s","phase":"moved","x":1,"y":2}"#, .outOfRange),
  BadLine("swipe diagonal", #"{"op":"swipe","session":"s","direction":"diagonal"}"#, .outOfRange),
  BadLine("clock wall", #"{"op":"open","transition":"snap","clock":"wall"}"#, .outOfRange),
  BadLine("behavior type magnet", behavior(#"{"type":"magnet","items":["a"]}"#), .outOfRange),
  BadLine("empty session name", #"{"op":"get","session":""}"#, .outOfRange),
  BadLine("control character in a name", #"{"op":"get","session":"a\u0001"}"#, .outOfRange),
  BadLine("C1 control character in a name", #"{"op":"get","session":"a\u009b"}"#, .outOfRange),
  BadLine("bidi override in a name", #"{"op":"get","session":"a\u202eb"}"#, .outOfRange),
  BadLine(
    "bidi isolate in a parameter name",
    #"{"op":"open","transition":"snap","params":{"\u2066damping":1}}"#, .outOfRange),
  BadLine(
    "name longer than 256 bytes",
    #"{"op":"get","session":""# + String(repeating: "n", count: 257) + #""}"#, .outOfRange),
  BadLine(
    "huge items array",
    behavior(
      #"{"type":"gravity","items":["# + (0...1_000).map { "\"i\($0)\"" }.joined(separator: ",")
        + "]}"),
    .outOfRange),
  BadLine(
    "huge params object",
    #"{"op":"open","transition":"snap","params":{"#
      + (0...64).map { "\"p\($0)\":1" }.joined(separator: ",") + "}}", .outOfRange),
  // Unknown ops.
  BadLine("misspelt op", #"{"op":"helo"}"#, .unknownOp),
  BadLine("op in the wrong case", #"{"op":"Hello"}"#, .unknownOp),
  BadLine("op from another protocol", #"{"op":"subscribe","session":"s"}"#, .unknownOp),
  // Scenes that cannot exist.
  BadLine(
    "duplicate item ids",
    scene(
      #"{"items":[{"id":"a","center":[0,0],"size":[1,1]},{"id":"a","center":[5,5],"size":[1,1]}]}"#),
    .invalidScene),
  BadLine(
    "behavior names a missing item",
    scene(#"{"items":[],"behaviors":[{"type":"gravity","items":["ghost"]}]}"#), .invalidScene),
  BadLine(
    "duplicate behavior ids",
    scene(
      "{" + twoItems
        + #","behaviors":[{"type":"gravity","id":"g","items":["a"]},{"type":"gravity","id":"g","items":["b"]}]}"#
    ), .invalidScene),
  BadLine(
    "attachment to itself", behavior(#"{"type":"attachment","item":"a","to":"a"}"#), .invalidScene),
  BadLine(
    "item listed twice in a behavior", behavior(#"{"type":"gravity","items":["a","a"]}"#),
    .invalidScene),
  BadLine(
    "non-convex path", item(#","shape":"path","path":[[0,0],[20,0],[5,5],[0,20]]"#), .invalidScene),
  BadLine("collinear path", item(#","shape":"path","path":[[0,0],[10,0],[20,0]]"#), .invalidScene),
  BadLine(
    "pentagram path", item(#","shape":"path","path":[[0,-10],[6,8],[-9,-3],[9,-3],[-6,8]]"#),
    .invalidScene),
  BadLine(
    "path with repeated vertex", item(#","shape":"path","path":[[0,0],[10,0],[10,0],[0,10]]"#),
    .invalidScene),
  BadLine(
    "path with tiny area", item(#","shape":"path","path":[[0,0],[1,0],[0,1]]"#), .invalidScene),
  BadLine(
    "zero-length boundary",
    behavior(#"{"type":"collision","items":[],"boundaries":[{"id":"f","from":[5,5],"to":[5,5]}]}"#),
    .invalidScene),
  BadLine(
    "duplicate boundary ids",
    behavior(
      #"{"type":"collision","items":[],"boundaries":[{"id":"f","from":[0,0],"to":[9,0]},{"id":"f","from":[0,9],"to":[9,9]}]}"#
    ), .invalidScene),
]

@Suite("Bad input corpus")
struct BadInputCorpusTests {
  @Test func corpusIsLargeAndCoversEveryCodecCode() {
    #expect(badLines.count >= 50)
    let codes = Set(badLines.compactMap { ErrorCode(rawValue: $0.code) })
    let codecCodes: Set<ErrorCode> = [
      .badJSON, .notAnObject, .missingField, .unknownField, .wrongType, .invalidNumber,
      .outOfRange, .unknownOp, .invalidScene,
    ]
    #expect(codes == codecCodes)
  }

  @Test(arguments: badLines)
  func lineIsRejectedWithItsCode(_ line: BadLine) {
    let error = rejection(line.bytes)
    #expect(error?.code.rawValue == line.code, "\(error?.message ?? "decoded")")
    #expect(error?.message.isEmpty == false)
  }

  /// A rejected line must leave the decoder usable for the next line.
  @Test func decoderRecoversAfterEveryBadLine() throws {
    let decoder = RequestDecoder()
    for line in badLines {
      _ = try? decoder.decode(line.bytes)
      let request = try decoder.decode(#"{"op":"hello","id":1}"#)
      #expect(request == Request(id: .number("1"), op: Op(HelloRequest())))
    }
  }
}
