/// Appends JSON text to a reusable byte buffer: the primitives under `MessageEncoder`.
///
/// Hand-written so that encoding a frame allocates nothing once the buffer has grown to its
/// working size: no json-c trees, no Foundation, no `String(format:)`, no intermediate strings.
public struct JSONWriter: Sendable {
  public var bytes: [UInt8]
  /// Non-finite numbers written as `0` since creation.
  public var nonFiniteCount = 0

  public init(capacity: Int) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// Appends ASCII text verbatim (keys and punctuation known at compile time).
  public mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  public mutating func byte(_ character: Unicode.Scalar) {
    bytes.append(UInt8(ascii: character))
  }

  public mutating func bool(_ value: Bool) {
    value ? raw("true") : raw("false")
  }

  /// Appends a JSON string: `"` and `\` escaped, control characters as `\u00xx`, everything
  /// else (including non-ASCII UTF-8) verbatim.
  public mutating func string(_ text: String) {
    byte("\"")
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { escaped($0) }
    if done == nil {
      var copy = text
      copy.withUTF8 { escaped($0) }
    }
    byte("\"")
  }

  /// Escapes the quote, the backslash and C0 as JSON requires, and also DEL, the C1 controls and
  /// the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
  /// U+2066–U+2069) as `\u` escapes: names cannot contain them, but an error message may quote
  /// what a client sent, and no terminal reading dynd's output should act on them.
  private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
    var runStart = 0
    var index = 0
    while index < utf8.count {
      let unit = utf8[index]
      guard unit < 0x20 || unit >= 0x7F || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\")
      else {
        index += 1
        continue
      }
      let (scalar, length) = Self.escapedScalar(utf8, at: index)
      guard length > 0 else {
        index += 1
        continue
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
      switch unit {
      case UInt8(ascii: "\""): raw("\\\"")
      case UInt8(ascii: "\\"): raw("\\\\")
      default:
        raw("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
          bytes.append(hexDigit(UInt8(truncatingIfNeeded: scalar >> UInt32(shift)) & 0xF))
        }
      }
      index += length
      runStart = index
    }
    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
  }

  /// The character at `index` if it must be escaped, with its length in bytes; length 0 if not.
  private static func escapedScalar(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int)
    -> (UInt32, Int)
  {
    let unit = utf8[index]
    if unit < 0x20 || unit == 0x7F || unit == UInt8(ascii: "\"") || unit == UInt8(ascii: "\\") {
      return (UInt32(unit), 1)
    }
    func next(_ offset: Int) -> UInt8 { index + offset < utf8.count ? utf8[index + offset] : 0 }
    switch unit {
    case 0xC2 where (0x80...0x9F).contains(next(1)):
      return (UInt32(next(1)), 2)  // U+0080–U+009F
    case 0xD8 where next(1) == 0x9C:
      return (0x061C, 2)
    case 0xE2 where next(1) == 0x80 && [0x8E, 0x8F].contains(next(2)):
      return (0x2000 | UInt32(next(2) & 0x3F), 3)  // U+200E, U+200F
    case 0xE2 where next(1) == 0x80 && (0xAA...0xAE).contains(next(2)):
      return (0x2000 | UInt32(next(2) & 0x3F), 3)  // U+202A–U+202E
    case 0xE2 where next(1) == 0x81 && (0xA6...0xA9).contains(next(2)):
      return (0x2040 | UInt32(next(2) & 0x3F), 3)  // U+2066–U+2069
    default:
      return (0, 0)
    }
  }

  /// Appends a non-negative integer.
  public mutating func integer(_ value: UInt64) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      var start = digits.count
      var rest = value
      repeat {
        start -= 1
        digits[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
    }
  }

  /// Appends a signed integer.
  public mutating func integer(_ value: Int) {
    if value < 0 { byte("-") }
    integer(UInt64(value.magnitude))
  }

  /// Appends `value` with at most `decimals` (clamped to 0…9) decimals, trailing zeros trimmed:
  /// `160`, `12.5`, `0.017`. Rounds half away from zero after scaling by 10^decimals in double
  /// arithmetic (deterministic for a given binary). Anything that rounds to zero, `-0` included,
  /// is written `0`. A non-finite value is written `0` and counted in `nonFiniteCount`: output
  /// must stay valid JSON, and the count lets the daemon report that the engine diverged.
  public mutating func number(_ value: Double, decimals requested: Int) {
    let decimals = min(max(requested, 0), 9)
    guard value.isFinite else {
      nonFiniteCount += 1
      byte("0")
      return
    }
    let scaled = value.magnitude * powerOfTen(decimals)
    guard scaled < 9e18 else {
      // Beyond 9e18 / 10^decimals the double has no digits left at those decimals; Swift's
      // shortest round-trip text ("1e+30") is valid JSON. Only reached by diverged values.
      bytes.append(contentsOf: value.description.utf8)
      return
    }
    // Round half away from zero without libm: below 2^53 the subtraction is exact, above it
    // `scaled` is already an integer.
    var units = UInt64(scaled)
    if scaled - Double(units) >= 0.5 { units += 1 }
    if units == 0 {
      byte("0")
      return
    }
    // Sign, up to 19 integer digits, the point and up to 9 decimals fit in 32 bytes; the text is
    // built backwards from the last decimal and appended once.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { text in
      var start = text.count
      var rest = units
      var position = 0
      var trimming = true
      while position < decimals {
        let digit = UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
        position += 1
        if trimming, digit == 0 { continue }
        trimming = false
        start -= 1
        text[start] = UInt8(ascii: "0") &+ digit
      }
      if !trimming {
        start -= 1
        text[start] = UInt8(ascii: ".")
      }
      repeat {
        start -= 1
        text[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
        rest /= 10
      } while rest > 0
      if value < 0 {
        start -= 1
        text[start] = UInt8(ascii: "-")
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
    }
  }

  /// `[x,y]` with `decimals` decimals.
  public mutating func pair(_ first: Double, _ second: Double, decimals: Int) {
    byte("[")
    number(first, decimals: decimals)
    byte(",")
    number(second, decimals: decimals)
    byte("]")
  }
}

/// The lowercase hex digit for a nibble.
private func hexDigit(_ nibble: UInt8) -> UInt8 {
  nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
}

/// 10^exponent for the decimal counts the encoder uses (0…9; larger give 1e9).
private func powerOfTen(_ exponent: Int) -> Double {
  switch exponent {
  case 0: return 1
  case 1: return 1e1
  case 2: return 1e2
  case 3: return 1e3
  case 4: return 1e4
  case 5: return 1e5
  case 6: return 1e6
  case 7: return 1e7
  case 8: return 1e8
  default: return 1e9
  }
}
