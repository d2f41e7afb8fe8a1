import Testing
import Wire

/// The strict JSON layer: what json-c alone would accept and the protocol must not.
@Suite("JSON parsing")
struct JSONParserTests {
  let parser = JSONParser()

  private func code(_ line: String) -> ErrorCode? {
    do {
      _ = try parser.parse(line)
      return nil
    } catch {
      return error.code
    }
  }

  @Test func parsesATree() throws {
    let value = try parser.parse(#"{"a":[1,2.5,-3e2],"b":{"c":null,"d":true},"e":"x\u00e9\n"}"#)
    #expect(
      value
        == .object([
          JSONMember(name: "a", value: .array([.number(1), .number(2.5), .number(-300)])),
          JSONMember(
            name: "b",
            value: .object([
              JSONMember(name: "c", value: .null), JSONMember(name: "d", value: .bool(true)),
            ])),
          JSONMember(name: "e", value: .string("xé\n")),
        ]))
    #expect(value["a"]?[1]?.number == 2.5)
    #expect(value["b"]?["d"]?.bool == true)
    #expect(value["e"]?.string == "xé\n")
  }

  @Test func topLevelScalarsAndNullParse() throws {
    #expect(try parser.parse("42") == .number(42))
    #expect(try parser.parse("null") == .null)
    #expect(try parser.parse(" \"s\" ") == .string("s"))
  }

  @Test func trailingWhitespaceIsAllowed() throws {
    #expect(try parser.parse("{} \t\r") == .object([]))
  }

  @Test func embeddedEscapedNULInAStringValueIsKept() throws {
    #expect(try parser.parse(#"["a\u0000b"]"#) == .array([.string("a\u{0}b")]))
  }

  @Test func surrogatePairEscapesDecode() throws {
    #expect(try parser.parse(#"["\ud83d\ude00"]"#) == .array([.string("😀")]))
  }

  @Test func validUTF8OfEveryLengthIsAccepted() throws {
    #expect(try parser.parse("[\"é € 𝄞 \u{10FFFF}\"]") == .array([.string("é € 𝄞 \u{10FFFF}")]))
  }

  @Test func rejectsWhatJsonCAccepts() {
    #expect(code("{'a':1}") == .badJSON)
    #expect(code("[NaN]") == .invalidNumber)
    #expect(code("[Infinity]") == .invalidNumber)
    #expect(code("[-Infinity]") == .invalidNumber)
    #expect(code("[1e999]") == .invalidNumber)
    #expect(code("[-1e999]") == .invalidNumber)
    #expect(code("[1.]") == .badJSON)
    #expect(code("[01]") == .badJSON)
    #expect(code("[1,]") == .badJSON)
    #expect(code("{} {}") == .badJSON)
    #expect(code("[\"a\tb\"]") == .badJSON)
    #expect(code("[18446744073709551616]") == .invalidNumber)
    #expect(code("[-9223372036854775809]") == .invalidNumber)
  }

  @Test func integersAtThe64BitEdgesAreExact() throws {
    #expect(try parser.parse("[18446744073709551615]") == .array([.number(0x1p64)]))
    #expect(try parser.parse("[-9223372036854775808]") == .array([.number(-9223372036854775808)]))
    #expect(try parser.parse("[1e-999]") == .array([.number(0)]))
  }

  @Test func nestingLimitIsExact() throws {
    let deepest = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    #expect(throws: Never.self) { try parser.parse(deepest) }
    let tooDeep = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
    #expect(code(tooDeep) == .badJSON)
    let shallow = JSONParser(maxDepth: 4)
    #expect(throws: ProtocolError.self) { try shallow.parse("[[[[[]]]]]") }
  }

  @Test func parserIsReusableAfterErrors() throws {
    for line in ["{", "[1,]", "[NaN]", String(repeating: "[", count: 100), "42"] {
      _ = try? parser.parse(line)
      #expect(
        try parser.parse(#"{"ok":true}"#) == .object([JSONMember(name: "ok", value: .bool(true))]))
    }
  }
}
