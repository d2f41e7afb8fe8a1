/// Something that keeps an item from moving with the velocity it is given: what the engine
/// reports (`DynamicAnimator.allowedVelocity`) and a `handoff` event lists in `constraints`.
public enum MotionConstraint: Equatable, Sendable {
  /// A sliding attachment to an anchor: only motion along `axis` (a unit vector) remains.
  case rail(axis: Vector)
  /// The item is anchored: it does not move.
  case anchored
  /// The engine's speed limit (`DynamicAnimator.maxSpeed`), pt/s.
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
