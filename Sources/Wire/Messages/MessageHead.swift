import Glibc
import JSON

/// The leading members of a line dynd wrote, read without parsing the rest: for loops that see
/// thousands of lines a second and only need to tell replies, events and frames apart (a
/// benchmark's receiver), where `ServerMessageDecoder` would cost more than what is measured.
///
/// It relies on the order `MessageEncoder` writes: `ok` first in a reply; `ev`, then `session`
/// (except `shutdown`), then for a `frame`, a `debug` and an `action` event `seq` and `t`, first
/// in an event.
/// It reads those members and stops; it checks nothing after them, so a line it accepts may
/// still be malformed further on. Anything that does not start that way is `.other`.
public struct MessageHead: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    /// A reply, with its `ok`.
    case reply(ok: Bool)
    /// An event, with its `ev` word.
    case event(String)
    /// A line that starts some other way (not an object, or another first member).
    case other
  }

  public var kind: Kind
  /// The event's `session`, when it comes right after `ev`.
  public var session: String?
  /// The event's `seq`, when it comes right after `session`.
  public var seq: UInt64?
  /// The event's `t` (simulated seconds), when it comes right after `seq`.
  public var t: Double?

  /// Reads the head of `line` (without its `\n`).
  public init(_ line: UnsafeRawBufferPointer) {
    var scanner = HeadScanner(bytes: line)
    kind = .other
    guard scanner.take(UInt8(ascii: "{")), let first = scanner.key() else { return }
    if first == "ok" {
      if let ok = scanner.bool() { kind = .reply(ok: ok) }
      return
    }
    guard first == "ev", let name = scanner.string() else { return }
    kind = .event(name)
    guard scanner.take(UInt8(ascii: ",")), scanner.key() == "session",
      let session = scanner.string()
    else { return }
    self.session = session
    guard scanner.take(UInt8(ascii: ",")), scanner.key() == "seq",
      let seq = scanner.unsigned()
    else { return }
    self.seq = seq
    guard scanner.take(UInt8(ascii: ",")), scanner.key() == "t" else { return }
    t = scanner.number()
  }

  /// Reads the head of `line`.
  public init(_ line: [UInt8]) {
    self = line.withUnsafeBytes { MessageHead($0) }
  }

  /// Whether the line is an event.
  public var isEvent: Bool {
    if case .event = kind { return true }
    return false
  }

  /// The `ev` word of an event.
  public var eventName: String? {
    if case .event(let name) = kind { return name }
    return nil
  }
}

/// A cursor over the first tokens of a JSON object. Strings with escapes are not read (dynd's
/// member names and the words before `seq` never need them): `string()` then returns `nil`.
private struct HeadScanner {
  let bytes: UnsafeRawBufferPointer
  var index = 0

  mutating func skipSpace() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D
    {
      index += 1
    }
  }

  /// Consumes `byte` (after whitespace) if it is next.
  mutating func take(_ byte: UInt8) -> Bool {
    skipSpace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  /// A string without escapes.
  mutating func string() -> String? {
    guard take(UInt8(ascii: "\"")) else { return nil }
    let start = index
    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
      if bytes[index] == UInt8(ascii: "\\") { return nil }
      index += 1
    }
    guard index < bytes.count else { return nil }
    defer { index += 1 }
    return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  /// A member name and its colon.
  mutating func key() -> String? {
    guard let name = string(), take(UInt8(ascii: ":")) else { return nil }
    return name
  }

  mutating func bool() -> Bool? {
    skipSpace()
    if matches("true") {
      index += 4
      return true
    }
    if matches("false") {
      index += 5
      return false
    }
    return nil
  }

  /// Decimal digits (a whole number that fits 64 bits, followed by no fraction or exponent).
  mutating func unsigned() -> UInt64? {
    skipSpace()
    var value: UInt64 = 0
    let start = index
    while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
      let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[index] - 0x30))
      guard !overflow1, !overflow2 else { return nil }
      value = sum
      index += 1
    }
    guard index > start else { return nil }
    if index < bytes.count,
      [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(
        bytes[index])
    {
      return nil
    }
    return value
  }

  /// A JSON number (`JSONLexicalCheck.lexNumber`'s grammar) that is a finite double, read by
  /// `strtod` from a copy on the stack.
  mutating func number() -> Double? {
    skipSpace()
    guard case .success(let lexeme) = JSONLexicalCheck.lexNumber(bytes, start: index) else {
      return nil
    }
    let token = UnsafeRawBufferPointer(rebasing: bytes[index..<lexeme.end])
    index = lexeme.end
    let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: token.count + 1) { text in
      for (offset, byte) in token.enumerated() { text[offset] = CChar(bitPattern: byte) }
      text[token.count] = 0
      return strtod(text.baseAddress!, nil)
    }
    return value.isFinite ? value : nil
  }

  private func matches(_ word: String) -> Bool {
    let utf8 = word.utf8
    guard bytes.count - index >= utf8.count else { return false }
    return zip(bytes[index...], utf8).allSatisfy { $0 == $1 }
  }
}
