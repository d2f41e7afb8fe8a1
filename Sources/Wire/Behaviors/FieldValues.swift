import Primitives

/// The settable values a field behavior has besides its `items` and `direction` (whose range
/// `set_behavior` checks by type), each `nil` when not sent: read by one decoder for a new field
/// (`FieldSpec`) and for `set_behavior` (`BehaviorUpdate`).
struct FieldValues {
  var position: Point?
  var region: RegionSpec?
  var strength: Double?
  var falloff: Double?
  var minimumRadius: Double?
  var smoothness: Double?
  var animationSpeed: Double?
  var seed: UInt64?

  /// Reads the values, each in its `Limits` range.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    position = try fields.point("position")
    region = try fields.region("region")
    strength = try fields.number("strength", in: Limits.fieldStrength)
    falloff = try fields.number("falloff", in: Limits.falloff)
    minimumRadius = try fields.number("minimum_radius", in: Limits.minimumRadius)
    smoothness = try fields.number("smoothness", in: Limits.smoothness)
    animationSpeed = try fields.number("animation_speed", in: Limits.animationSpeed)
    seed = try fields.seed("seed")
  }
}
