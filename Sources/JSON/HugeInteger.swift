import Glibc

/// Integer literals beyond 64 bits, read as the doubles they denote.
///
/// Every JSON number is a double to the protocol (PROTOCOL.md §4), but json-c parses an integer
/// literal as an int64 or uint64 and saturates one that does not fit. `JSONLexicalCheck` therefore
/// hands json-c such a literal rewritten, in the same bytes, as a double literal of the same
/// value: `123456789012345678901234567890` becomes `12345678901234568e13` and spaces. The value
/// is the double nearest to the integer (glibc's `strtod`, correctly rounded); an integer beyond
/// the largest double becomes `1e999`, which overflows where it is read and is refused there with
/// `invalid_number` like any other overflowing number. Lengths never change, so columns in later
/// messages stay the client's.
///
/// The one place the text of a number matters is the request `id`, which the reply echoes as the
/// client wrote it; `JSONParser` gives a rewritten `id` its original text back
/// (`topLevelIDValueStart`).
enum HugeInteger {
  /// Longest integer, in digits, that can still be a finite double (`1.8e308` has 309 digits).
  static let maximumFiniteDigits = 309

  /// Rewrites `token` (`-?[1-9][0-9]*`, beyond 64 bits, so at least 19 digits) in place as a
  /// double literal of the same value followed by spaces. Returns false, leaving it as it is, if
  /// the literal would not fit (which `literal` shows cannot happen).
  static func rewrite(_ token: UnsafeMutableBufferPointer<UInt8>) -> Bool {
    let negative = token.first == UInt8(ascii: "-")
    let digitCount = token.count - (negative ? 1 : 0)
    var value = Double.infinity
    if digitCount <= maximumFiniteDigits {
      // At most 310 bytes: the copy is cheap, and strtod needs the NUL.
      var text = Array(token)
      text.append(0)
      value = text.withUnsafeBufferPointer {
        $0.withMemoryRebound(to: CChar.self) { strtod($0.baseAddress!, nil) }
      }
    }
    let literal = Self.literal(value.magnitude, negative: negative)
    guard literal.count <= token.count else { return false }
    for index in token.indices {
      token[index] = index < literal.count ? literal[index] : UInt8(ascii: " ")
    }
    return true
  }

  /// The shortest digits of `magnitude` (an integer ≥ 2^63, or infinity) with a decimal exponent,
  /// e.g. `12345678901234568e13`; `1e999` for infinity. For an integer of n ≥ 19 digits this is
  /// never longer than n: k ≤ 17 digits and an exponent x = n − k or less (n on rounding up to a
  /// power of ten, with k = 1) take k + 2 bytes when x < 10, and when x ≥ 10 then n ≥ k + 10 while
  /// the text takes at most k + 4. The sign is the literal's own.
  static func literal(_ magnitude: Double, negative: Bool) -> [UInt8] {
    var result: [UInt8] = negative ? [UInt8(ascii: "-")] : []
    guard magnitude.isFinite else {
      result += Array("1e999".utf8)
      return result
    }
    // Swift's description is the shortest text that reads back as the same double:
    // "1.2345678901234568e+29", "1e+20", or without an exponent for smaller values.
    let description = "\(magnitude)"
    let parts = description.split(separator: "e", maxSplits: 1)
    var exponent = parts.count == 2 ? Int(parts[1]) ?? 0 : 0
    var digits: [UInt8] = []
    var afterPoint = false
    for byte in parts[0].utf8 {
      if byte == UInt8(ascii: ".") {
        afterPoint = true
      } else {
        digits.append(byte)
        if afterPoint { exponent -= 1 }
      }
    }
    while digits.count > 1, digits.last == UInt8(ascii: "0") {
      digits.removeLast()
      exponent += 1
    }
    while digits.count > 1, digits.first == UInt8(ascii: "0") { digits.removeFirst() }
    result += digits
    if exponent != 0 { result += Array("e\(exponent)".utf8) }
    return result
  }

  /// Where the value of the request's `id` starts in `line`: the last member named `id` (as
  /// json-c decodes its key, escapes included) of the top-level object, since the last of
  /// duplicate keys wins. `line` has passed the lexical check and json-c; nil if it is not an
  /// object or has no `id`.
  static func topLevelIDValueStart(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    func skipWhitespace() {
      while index < line.count, isWhitespace(line[index]) { index += 1 }
    }
    skipWhitespace()
    guard index < line.count, line[index] == UInt8(ascii: "{") else { return nil }
    index += 1
    var found: Int?
    while true {
      skipWhitespace()
      guard index < line.count else { return found }
      if line[index] == UInt8(ascii: "}") { return found }
      if line[index] == UInt8(ascii: ",") {
        index += 1
        skipWhitespace()
      }
      guard index < line.count, line[index] == UInt8(ascii: "\"") else { return found }
      let keyStart = index
      index = endOfString(line, from: index)
      let isID = keyIsID(
        UnsafeBufferPointer(rebasing: line[keyStart + 1..<max(keyStart + 1, index - 1)]))
      skipWhitespace()
      guard index < line.count, line[index] == UInt8(ascii: ":") else { return found }
      index += 1
      skipWhitespace()
      if isID { found = index }
      index = endOfValue(line, from: index)
    }
  }

  /// The index after the string whose opening quote is at `start`.
  private static func endOfString(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var index = start + 1
    while index < line.count {
      switch line[index] {
      case UInt8(ascii: "\\"): index += 2
      case UInt8(ascii: "\""): return index + 1
      default: index += 1
      }
    }
    return line.count
  }

  /// The index after the value starting at `start`.
  private static func endOfValue(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard start < line.count else { return line.count }
    switch line[start] {
    case UInt8(ascii: "\""):
      return endOfString(line, from: start)
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      var depth = 0
      var index = start
      while index < line.count {
        switch line[index] {
        case UInt8(ascii: "\""):
          index = endOfString(line, from: index)
          continue
        case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          depth -= 1
          if depth == 0 { return index + 1 }
        default: break
        }
        index += 1
      }
      return line.count
    default:
      // A number or a literal: up to the next separator.
      var index = start
      while index < line.count, !isWhitespace(line[index]),
        ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(line[index])
      {
        index += 1
      }
      return index
    }
  }

  /// Whether a key's bytes (between its quotes) decode to `id`: `"id"`, `"\u0069d"`, ….
  private static func keyIsID(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    var decoded: [UInt32] = []
    var index = 0
    while index < key.count, decoded.count <= 2 {
      if key[index] == UInt8(ascii: "\\"), index + 1 < key.count {
        if key[index + 1] == UInt8(ascii: "u"), index + 6 <= key.count {
          let hex = String(
            decoding: UnsafeBufferPointer(rebasing: key[index + 2..<index + 6]), as: UTF8.self)
          decoded.append(UInt32(hex, radix: 16) ?? 0)
          index += 6
        } else {
          decoded.append(UInt32(key[index + 1]))
          index += 2
        }
      } else {
        decoded.append(UInt32(key[index]))
        index += 1
      }
    }
    return decoded == [UInt32(UInt8(ascii: "i")), UInt32(UInt8(ascii: "d"))]
  }
}
