/// The kinds of UIFieldBehavior, one per factory method; the raw values are the wire's words.
///
/// What each kind does, and its units, is documented on `FieldBehavior`.
public enum FieldKind: String, CaseIterable, Sendable {
  /// A uniform acceleration along `direction` (linearGravityFieldWithVector:).
  case linearGravity = "linear_gravity"
  /// An acceleration toward `position` (radialGravityFieldWithPosition:).
  case radialGravity = "radial_gravity"
  /// Slows items in proportion to their velocity (dragField).
  case drag
  /// Gives items the velocity `direction` (velocityFieldWithVector:).
  case velocity
  /// A smooth, time-varying random acceleration (noiseFieldWithSmoothness:animationSpeed:).
  case noise
  /// Noise scaled by the item's speed (turbulenceFieldWithSmoothness:animationSpeed:).
  case turbulence
  /// Hooke's law toward `position` (springField).
  case spring
  /// F = q·E, radial from `position` (electricField).
  case electric
  /// F = q·v × B, B out of the screen (magneticField).
  case magnetic
  /// Carries items round `position` (vortexField).
  case vortex
  /// A caller's closure (fieldWithEvaluationBlock:).
  case custom
}
