/// Why a line is not a JSON value this library reads. The protocol maps the two kinds to its
/// error codes (`malformed` is `bad_json`, `nonFiniteNumber` is `invalid_number`).
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Sendable {
    /// Not JSON: a syntax error, bad UTF-8, nesting too deep, nothing or more than one value.
    case malformed
    /// A number JSON cannot carry as a finite double: NaN, Infinity, or one that overflows.
    case nonFiniteNumber
  }

  public var kind: Kind
  /// What is wrong and where, for a person ("invalid JSON at column 7: ...").
  public var message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
