import Primitives

/// What made a `handoff`'s item velocity differ from the finger's (its `constraints`).
public enum HandoffConstraint: Equatable, Sendable {
  /// A rail: only motion along `axis` (a unit vector) remains.
  case rail(axis: Vector)
  /// The item is anchored and does not move.
  case anchored
  /// The engine's speed limit, pt/s.
  case speedLimit(Double)

  /// The `kind` written on the wire.
  public var kind: String {
    switch self {
    case .rail: return "rail"
    case .anchored: return "anchored"
    case .speedLimit: return "speed_limit"
    }
  }
}
