import JSON
import Primitives
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
      return ProtocolError(error).code
    }
  }

  private func message(_ line: String) -> String? {
    do {
      _ = try parser.parse(line)
      return nil
    } catch {
      return error.message
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
  }

  /// Every JSON number is a double: integers beyond 64 bits (which json-c would saturate) read as
  /// the nearest double; only integers beyond the largest double overflow.
  @Test func integersOfAnySizeReadAsTheNearestDouble() throws {
    #expect(
      try parser.parse("[123456789012345678901234567890]")
        == .array([.number(123_456_789_012_345_678_901_234_567_890.0)]))
    #expect(try parser.parse("[18446744073709551616]") == .array([.number(0x1p64)]))
    #expect(try parser.parse("[-9223372036854775809]") == .array([.number(-0x1p63)]))
    #expect(try parser.parse("[99999999999999999999]") == .array([.number(1e20)]))
    // Rounded to nearest, ties to even (2^64 + 2048 is halfway between two doubles).
    #expect(try parser.parse("[18446744073709553664]") == .array([.number(0x1p64)]))
    #expect(try parser.parse("[18446744073709553665]") == .array([.number(0x1p64 + 4096)]))
    // Inside objects, several in a line, next to other tokens without spaces.
    #expect(
      try parser.parse(#"{"a":[100000000000000000000,-100000000000000000000],"b":1}"#)
        == .object([
          JSONMember(name: "a", value: .array([.number(1e20), .number(-1e20)])),
          JSONMember(name: "b", value: .number(1)),
        ]))
    // Strings that look like integers are left alone.
    #expect(
      try parser.parse(#"["123456789012345678901234567890"]"#)
        == .array([.string("123456789012345678901234567890")]))
  }

  /// Integers of every length from 19 to 309 digits, either sign: the same double as Swift's own
  /// (correctly rounded) reading of the digits.
  @Test func randomHugeIntegersMatchSwiftsReading() throws {
    var random = SplitMix64(seed: 42)
    for length in 19...309 {
      for _ in 0..<8 {
        var digits = String(Character(Unicode.Scalar(UInt8.random(in: 49...57, using: &random))))
        for _ in 1..<length {
          digits.append(Character(Unicode.Scalar(UInt8.random(in: 48...57, using: &random))))
        }
        let text = Bool.random(using: &random) ? "-" + digits : digits
        let expected = try #require(Double(text))
        if expected.isFinite {
          #expect(try parser.parse("[\(text)]") == .array([.number(expected)]), "\(text)")
        } else {
          #expect(code("[\(text)]") == .invalidNumber, "\(text)")
        }
      }
    }
  }

  @Test func integersBeyondTheLargestDoubleOverflow() throws {
    let largest =
      "17976931348623157081452742373170435679807056752584499659891747680315726078002853876058955"
      + "86327668781715404589535143824642343213268894641827684675467035375169860499105765512820"
      + "76245490090389328944075868508455133942304583236903222948165808559332123348274797826204"
      + "144723168738177180919299881250404026184124858368"
    #expect(largest.count == 309)
    #expect(try parser.parse("[\(largest)]") == .array([.number(.greatestFiniteMagnitude)]))
    #expect(try parser.parse("[-\(largest)]") == .array([.number(-.greatestFiniteMagnitude)]))
    // The largest double plus half its spacing rounds to infinity.
    let halfwayToInfinity =
      "17976931348623158079372897140530341507993413271003782693617377898044496829276475094664901"
      + "79775872070963302864166928879109465555478519404026306574886715058206819089020007083836"
      + "76273854845817711531764475730270069855571366959622842914819860834936475292719074168444"
      + "365510704342711559699508093042880177904174497792"
    #expect(code("[\(halfwayToInfinity)]") == .invalidNumber)
    #expect(code("[1" + String(repeating: "0", count: 399) + "]") == .invalidNumber)
    #expect(code("[-1" + String(repeating: "0", count: 399) + "]") == .invalidNumber)
    // A megabyte of digits costs no more than reading it.
    #expect(code("[1" + String(repeating: "7", count: 1 << 20) + "]") == .invalidNumber)
  }

  @Test func aRewrittenIntegerKeepsLaterColumns() {
    // The rewrite keeps the literal's length, so positions in later messages are the client's.
    let huge = "[123456789012345678901234567890 x]"
    let double = "[1.2345678901234567890123456e29 x]"
    #expect(huge.utf8.count == double.utf8.count)
    #expect(message(huge) == message(double))
    #expect(message(huge)?.contains("column") == true)
  }

  @Test func integersAtThe64BitEdgesAreExact() throws {
    #expect(try parser.parse("[18446744073709551615]") == .array([.number(0x1p64)]))
    #expect(try parser.parse("[-9223372036854775808]") == .array([.number(-9223372036854775808)]))
    #expect(try parser.parse("[1e-999]") == .array([.number(0)]))
  }

  @Test func nestingLimitIsExact() throws {
    let limit = Limits.maxNestingDepth
    let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
    #expect(throws: Never.self) { try parser.parse(deepest) }
    let tooDeep =
      String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
    #expect(code(tooDeep) == .badJSON)
    let shallow = JSONParser(maxDepth: 4)
    #expect(throws: JSONSyntaxError.self) { try shallow.parse("[[[[[]]]]]") }
  }

  @Test func parserIsReusableAfterErrors() throws {
    for line in ["{", "[1,]", "[NaN]", String(repeating: "[", count: 100), "42"] {
      _ = try? parser.parse(line)
      #expect(
        try parser.parse(#"{"ok":true}"#) == .object([JSONMember(name: "ok", value: .bool(true))]))
    }
  }
}
