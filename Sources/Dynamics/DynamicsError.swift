/// Why the engine refused an input. Nothing changes when one is thrown.
public struct DynamicsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of input was wrong.
  public enum Kind: String, Sendable {
    /// A shape the engine cannot build: zero or tiny size, non-convex or degenerate path.
    case invalidShape
    /// A number that is NaN or infinite, or beyond the engine's coordinate range.
    case nonFinite
    /// A finite value outside the documented range of its property.
    case outOfRange
    /// A reference to something that is not part of the scene (e.g. the same item twice).
    case invalidReference
  }
  public let kind: Kind
  public let message: String
  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }
  public var description: String { message }
}
