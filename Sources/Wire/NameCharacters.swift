/// The characters a name (session, item, behavior, boundary, transition, parameter) must not
/// contain: every control character — C0 (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F) — and
/// the bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069), which would let a name display as another one or reorder the text around it
/// (CVE-2021-42574, "Trojan Source").
///
/// Names are echoed in every frame and printed by clients, so they are refused at the door with
/// `out_of_range` and a message naming the character.
enum NameCharacters {
  /// The bidirectional formatting characters, with their Unicode names.
  static let bidiFormatting: [(scalar: UInt32, name: String)] = [
    (0x061C, "ARABIC LETTER MARK"),
    (0x200E, "LEFT-TO-RIGHT MARK"),
    (0x200F, "RIGHT-TO-LEFT MARK"),
    (0x202A, "LEFT-TO-RIGHT EMBEDDING"),
    (0x202B, "RIGHT-TO-LEFT EMBEDDING"),
    (0x202C, "POP DIRECTIONAL FORMATTING"),
    (0x202D, "LEFT-TO-RIGHT OVERRIDE"),
    (0x202E, "RIGHT-TO-LEFT OVERRIDE"),
    (0x2066, "LEFT-TO-RIGHT ISOLATE"),
    (0x2067, "RIGHT-TO-LEFT ISOLATE"),
    (0x2068, "FIRST STRONG ISOLATE"),
    (0x2069, "POP DIRECTIONAL ISOLATE"),
  ]

  /// The first forbidden character in `utf8` (valid UTF-8, as the lexical check guarantees for
  /// every string json-c returns), or nil. One compare per ASCII byte.
  static func firstForbidden(_ utf8: UnsafeRawBufferPointer) -> UInt32? {
    var index = 0
    while index < utf8.count {
      let byte = utf8[index]
      if byte < 0x20 || byte == 0x7F { return UInt32(byte) }
      if byte < 0x80 {
        index += 1
        continue
      }
      let second = index + 1 < utf8.count ? utf8[index + 1] : 0
      let third = index + 2 < utf8.count ? utf8[index + 2] : 0
      switch byte {
      case 0xC2 where (0x80...0x9F).contains(second):  // C1: U+0080–U+009F
        return UInt32(second)
      case 0xD8 where second == 0x9C:  // U+061C
        return 0x061C
      case 0xE2 where second == 0x80 && (third == 0x8E || third == 0x8F):  // U+200E, U+200F
        return 0x2000 + UInt32(third & 0x3F)
      case 0xE2 where second == 0x80 && (0xAA...0xAE).contains(third):  // U+202A–U+202E
        return 0x2000 + UInt32(third & 0x3F)
      case 0xE2 where second == 0x81 && (0xA6...0xA9).contains(third):  // U+2066–U+2069
        return 0x2040 + UInt32(third & 0x3F)
      default:
        break
      }
      index += byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
    }
    return nil
  }

  /// `U+202E RIGHT-TO-LEFT OVERRIDE`, `U+0085 (a control character)`.
  static func describe(_ scalar: UInt32) -> String {
    var hex = String(scalar, radix: 16, uppercase: true)
    hex = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    if let entry = bidiFormatting.first(where: { $0.scalar == scalar }) {
      return "U+\(hex) \(entry.name)"
    }
    return "U+\(hex) (a control character)"
  }

  /// The sentence that ends the `out_of_range` message for a name holding `scalar`.
  static func fault(_ scalar: UInt32) -> String {
    "contains \(describe(scalar)); names must not contain control characters or bidirectional "
      + "formatting characters"
  }
}

extension Limits {
  /// Why `name` cannot be a name on the wire (a session's, an item's, a transition's): its
  /// length or a forbidden character, as `open` would say; nil when it can.
  public static func nameProblem(_ name: String) -> String? {
    let bytes = Array(name.utf8)
    guard nameBytes.contains(bytes.count) else {
      return "must be a name of \(nameBytes.lowerBound) to \(nameBytes.upperBound) bytes (got "
        + "\(bytes.count))"
    }
    let forbidden = bytes.withUnsafeBytes { NameCharacters.firstForbidden($0) }
    return forbidden.map(NameCharacters.fault)
  }
}
