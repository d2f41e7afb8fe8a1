/// Text from the daemon made safe to print on a terminal.
///
/// Names, messages and outcomes come from the daemon, and messages quote what clients sent. A
/// control character there could drive the terminal (ESC starts a sequence; U+009B is an 8-bit
/// CSI) and a bidirectional formatting character could make one name display as another, so
/// dynctl never prints them as they are: it writes each as a `\uXXXX` escape, which reads the same
/// in a JSON request (`dynctl send`). These are the characters dynd refuses in names: C0
/// (U+0000–U+001F), DEL (U+007F), C1 (U+0080–U+009F) and U+061C, U+200E, U+200F, U+202A–U+202E,
/// U+2066–U+2069.
enum TerminalText {
  /// Whether `scalar` is one of the characters never printed as it is.
  static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
      return true
    default:
      return false
    }
  }

  /// `text` with every unsafe character written as `\uXXXX` (readable output: every one, tabs and
  /// newlines included, since each printed line is one line).
  static func safe(_ text: String) -> String {
    escaping(text) { isUnsafe($0) }
  }

  /// A JSON line the daemon wrote, for `--json`: the daemon already escapes C0 inside strings
  /// (and a valid line has no other raw C0 than JSON's tab and carriage-return whitespace), but
  /// writes DEL, C1 and the bidirectional formatting characters raw. These can only stand inside
  /// strings, where `\uXXXX` is the same JSON value, so the line stays the daemon's line to any
  /// JSON reader. Lines without them are printed byte for byte.
  static func jsonLine(_ text: String) -> String {
    escaping(text) { $0.value >= 0x7F && isUnsafe($0) }
  }

  private static func escaping(_ text: String, where unsafe: (Unicode.Scalar) -> Bool) -> String {
    // The common case, plain ASCII without controls, costs one pass and no copy.
    guard text.unicodeScalars.contains(where: unsafe) else { return text }
    var result = ""
    result.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if unsafe(scalar) {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
