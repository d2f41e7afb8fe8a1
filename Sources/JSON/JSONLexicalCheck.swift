/// A single pass over a line that rejects what json-c accepts but JSON does not.
///
/// json-c 0.16 in strict mode still accepts single-quoted strings, `NaN`, `Infinity`, `1.`,
/// unescaped control characters in strings and malformed UTF-8 (its own UTF-8 flag lets
/// surrogates and overlong forms through), and it silently saturates integers that do not fit
/// 64 bits. This check runs before json-c and leaves only structure (brackets, commas, literals) to
/// it. It costs one branch per byte outside strings and one compare per ASCII byte inside them.
///
/// Every JSON number is a double to the protocol, so an integer literal beyond 64 bits is not an
/// error: the check rewrites it in place, in the buffer json-c parses next, as a literal json-c
/// reads as a double with the same value (`HugeInteger`), padded with spaces to the same length.
public enum JSONLexicalCheck {
  /// Throws `bad_json` or `invalid_number` for the first lexical fault in `bytes`; rewrites each
  /// integer literal beyond 64 bits (see `HugeInteger`) and returns where they were, in order
  /// (empty, without allocating, when there were none).
  static func check(
    _ bytes: UnsafeMutableBufferPointer<UInt8>
  ) throws(JSONSyntaxError) -> [Range<Int>] {
    var rewritten: [Range<Int>] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case UInt8(ascii: "\""):
        index = try scanString(bytes, openingQuote: index)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        index = try scanNumber(bytes, start: index, rewritten: &rewritten)
      case UInt8(ascii: "'"):
        throw fault("single-quoted strings are not JSON", at: index)
      case UInt8(ascii: "N"), UInt8(ascii: "I"):
        if matches(bytes, at: index, "NaN") || matches(bytes, at: index, "Infinity") {
          throw nonFinite(at: index)
        }
        throw fault("unexpected character '\(Character(Unicode.Scalar(byte)))'", at: index)
      case 0:
        throw fault("NUL byte outside a string", at: index)
      case 0x80...:
        throw fault("non-ASCII byte outside a string", at: index)
      default:
        index += 1
      }
    }
    return rewritten
  }

  /// Checks the string starting at `openingQuote`; returns the index after its closing quote.
  private static func scanString(
    _ bytes: UnsafeMutableBufferPointer<UInt8>, openingQuote: Int
  ) throws(JSONSyntaxError) -> Int {
    var index = openingQuote + 1
    var hasEscapedNUL = false
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        // json-c stores object keys as C strings, so a NUL would silently cut the key short.
        if hasEscapedNUL, isFollowedByColon(bytes, from: index) {
          throw fault("object keys must not contain \\u0000", at: openingQuote)
        }
        return index
      } else if byte == UInt8(ascii: "\\") {
        guard index + 1 < bytes.count else { break }
        switch bytes[index + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
          UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          index += 2
        case UInt8(ascii: "u"):
          guard index + 6 <= bytes.count, (2..<6).allSatisfy({ isHexDigit(bytes[index + $0]) })
          else { throw fault("\\u must be followed by four hex digits", at: index) }
          let unit = hexValue(bytes, at: index + 2)
          if unit == 0 { hasEscapedNUL = true }
          // A surrogate escape must be a high one followed by a low one: json-c turns a lone
          // surrogate into U+FFFD, so an id holding one would not be echoed unchanged.
          if (0xDC00...0xDFFF).contains(unit) {
            throw fault("\\u\(String(unit, radix: 16)) is a lone low surrogate", at: index)
          }
          if (0xD800...0xDBFF).contains(unit) {
            guard index + 12 <= bytes.count, bytes[index + 6] == UInt8(ascii: "\\"),
              bytes[index + 7] == UInt8(ascii: "u"),
              (8..<12).allSatisfy({ isHexDigit(bytes[index + $0]) }),
              (0xDC00...0xDFFF).contains(hexValue(bytes, at: index + 8))
            else {
              throw fault(
                "\\u\(String(unit, radix: 16)) is a high surrogate without a low one", at: index)
            }
            index += 6
          }
          index += 6
        default:
          throw fault("invalid escape sequence in a string", at: index)
        }
      } else if byte < 0x20 {
        throw fault("control character \(hexByte(byte)) in a string must be escaped", at: index)
      } else if byte < 0x80 {
        index += 1
      } else {
        index = try scanUTF8Sequence(bytes, start: index)
      }
    }
    // Unterminated: json-c reports it with its position.
    return bytes.count
  }

  /// Validates one multi-byte UTF-8 sequence (Unicode 15, table 3-7: no overlong forms, no
  /// surrogates, nothing above U+10FFFF); returns the index after it.
  private static func scanUTF8Sequence(
    _ bytes: UnsafeMutableBufferPointer<UInt8>, start: Int
  ) throws(JSONSyntaxError) -> Int {
    let lead = bytes[start]
    let length: Int
    var secondByte: ClosedRange<UInt8> = 0x80...0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      secondByte = 0xA0...0xBF
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      secondByte = 0x80...0x9F
    case 0xF0:
      length = 4
      secondByte = 0x90...0xBF
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      secondByte = 0x80...0x8F
    default:
      throw fault("invalid UTF-8 byte \(hexByte(lead))", at: start)
    }
    guard start + length <= bytes.count, secondByte.contains(bytes[start + 1]),
      (2..<length).allSatisfy({ (0x80...0xBF).contains(bytes[start + $0]) })
    else { throw fault("invalid UTF-8 sequence", at: start) }
    return start + length
  }

  /// Checks a number token against the JSON grammar `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`;
  /// returns the index after it. An integer beyond 64 bits is rewritten and its range appended to
  /// `rewritten`.
  private static func scanNumber(
    _ bytes: UnsafeMutableBufferPointer<UInt8>, start: Int, rewritten: inout [Range<Int>]
  ) throws(JSONSyntaxError) -> Int {
    if bytes[start] == UInt8(ascii: "-"), matches(bytes, at: start + 1, "Infinity") {
      throw nonFinite(at: start)
    }
    let lexeme: NumberLexeme
    switch lexNumber(UnsafeRawBufferPointer(bytes), start: start) {
    case .success(let found): lexeme = found
    case .failure(let reason): throw fault(reason.message, at: start)
    }
    let index = lexeme.end
    let integerStart = lexeme.integerStart
    let integerDigits = index - integerStart
    let isInteger = lexeme.isInteger
    // json-c parses integer literals as int64/uint64 and saturates beyond them, which would turn
    // the number into a different one without a word: such a literal is handed to json-c as a
    // double literal of the same value instead.
    if isInteger, integerDigits >= 19 {
      let digits = UnsafeBufferPointer(rebasing: bytes[integerStart..<index])
      let negative = integerStart > start
      let limit: StaticString = negative ? "9223372036854775808" : "18446744073709551615"
      if !fitsIn(digits, limit: limit) {
        guard HugeInteger.rewrite(UnsafeMutableBufferPointer(rebasing: bytes[start..<index]))
        else {
          throw JSONSyntaxError(
            .nonFiniteNumber, "the integer at column \(start + 1) cannot be read as a double")
        }
        rewritten.append(start..<index)
      }
    }
    return index
  }

  /// A JSON number's extent, as `lexNumber` found it.
  public struct NumberLexeme {
    /// Just past its last byte.
    public var end: Int
    /// Where its integer part's digits begin (after a `-`).
    public var integerStart: Int
    /// No fraction and no exponent.
    public var isInteger: Bool
  }

  /// Why bytes that start like a number are not one.
  public struct NumberFault: Error {
    public let message: String
  }

  /// Reads the JSON number grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`) at `start`:
  /// its extent, or why it breaks the grammar. This check and `MessageHead` share it.
  public static func lexNumber(
    _ bytes: UnsafeRawBufferPointer, start: Int
  ) -> Result<NumberLexeme, NumberFault> {
    var index = start
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    guard index < bytes.count, isDigit(bytes[index]) else {
      return .failure(NumberFault(message: "a number needs digits"))
    }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
      if index < bytes.count, isDigit(bytes[index]) {
        return .failure(NumberFault(message: "numbers must not have leading zeros"))
      }
    } else {
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      guard index < bytes.count, isDigit(bytes[index]) else {
        return .failure(NumberFault(message: "a decimal point must be followed by digits"))
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      guard index < bytes.count, isDigit(bytes[index]) else {
        return .failure(NumberFault(message: "an exponent needs digits"))
      }
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    return .success(NumberLexeme(end: index, integerStart: integerStart, isInteger: isInteger))
  }

  /// Whether the decimal digits are at most `limit` (both without leading zeros).
  private static func fitsIn(_ digits: UnsafeBufferPointer<UInt8>, limit: StaticString) -> Bool {
    let limitCount = limit.utf8CodeUnitCount
    if digits.count != limitCount { return digits.count < limitCount }
    return limit.withUTF8Buffer { !$0.lexicographicallyPrecedes(digits) }
  }

  private static func isFollowedByColon(
    _ bytes: UnsafeMutableBufferPointer<UInt8>, from start: Int
  )
    -> Bool
  {
    var index = start
    while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
    return index < bytes.count && bytes[index] == UInt8(ascii: ":")
  }

  private static func matches(
    _ bytes: UnsafeMutableBufferPointer<UInt8>, at index: Int, _ word: StaticString
  ) -> Bool {
    let count = word.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    return word.withUTF8Buffer {
      UnsafeMutableBufferPointer(rebasing: bytes[index..<index + count]).elementsEqual($0)
    }
  }

  private static func fault(_ what: String, at index: Int) -> JSONSyntaxError {
    JSONSyntaxError(.malformed, "invalid JSON at column \(index + 1): \(what)")
  }

  private static func nonFinite(at index: Int) -> JSONSyntaxError {
    JSONSyntaxError(
      .nonFiniteNumber, "NaN and Infinity at column \(index + 1) are not JSON numbers")
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// The value of the four hex digits at `start` (already checked to be hex digits).
  private static func hexValue(_ bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
    (start..<start + 4).reduce(0) { value, i in
      let byte = bytes[i] | 0x20  // lower-case letters; digits are unchanged
      return value << 4 + Int(byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : byte - 87)
    }
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
  }

  private static func hexByte(_ byte: UInt8) -> String {
    let hex = String(byte, radix: 16, uppercase: true)
    return "0x" + (hex.count < 2 ? "0" + hex : hex)
  }
}

/// JSON's insignificant whitespace: space, tab, line feed, carriage return.
public func isWhitespace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}
