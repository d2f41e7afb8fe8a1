import Primitives

/// A numeric range a request's fields are checked against, with its name in the protocol's
/// description and the fields it applies to.
public struct DescribedRange: Sendable {
  /// The range's key in the description (`r_<name>` in the schemas), snake_case.
  public let name: String
  /// Which fields take it, as PROTOCOL.md words them (backticked names).
  public let fields: String
  /// The unit, or "" for a pure number.
  public let unit: String
  public let range: NumberRange
  /// Whether only whole numbers are accepted.
  public let integral: Bool

  init(
    _ name: String, _ fields: String, _ range: NumberRange, unit: String = "",
    integral: Bool = false
  ) {
    self.name = name
    self.fields = fields
    self.unit = unit
    self.range = range
    self.integral = integral
  }

  init(_ name: String, _ fields: String, whole range: ClosedRange<Int>, unit: String = "") {
    self.name = name
    self.fields = fields
    self.unit = unit
    self.range = .closed(Double(range.lowerBound), Double(range.upperBound))
    integral = true
  }
}

extension Limits {
  /// Every range a request field is checked against, each the very value the decoder uses: the
  /// protocol's description (`dynctl describe-protocol`) lists them, and tools/generate.py writes
  /// from it the schemas' `r_*` definitions and PROTOCOL.md's table of field ranges, so that no
  /// copy of a range is written by hand. A range of `Limits` that a field takes gets a line here
  /// (RangeDescriptionTests: every one the schemas use is listed).
  public static let describedRanges: [DescribedRange] =
    [
      DescribedRange("fps", "`open`'s `fps`", fps, unit: "Hz"),
      DescribedRange("step_dt", "`step`'s `dt`", stepDuration, unit: "s"),
      DescribedRange("step_count", "`step`'s `count`", whole: stepCount),
      DescribedRange("list_from", "`list`'s `from`", whole: listFrom),
      DescribedRange("list_limit", "`list`'s `limit`", whole: listLimit),
      DescribedRange("client_time", "a gesture's `t`", clientTime, unit: "s"),
      DescribedRange(
        "coordinate",
        "each coordinate of centers, points, anchors, offsets, positions, targets, boundaries, axes",
        coordinate, unit: "pt"),
      DescribedRange(
        "side", "each side of an item's `size` and of a scene's bounds", side, unit: "pt"),
      DescribedRange(
        "transition_side", "each side of a transition's `bounds` (`open`)", transitionSide,
        unit: "pt"),
      DescribedRange("angle", "angles: an item's `angle`, gravity's and push's `angle`", angle),
      DescribedRange(
        "speed", "each component of a linear velocity (`vx`, `vy`, `velocity`, `initial_velocity`)",
        speed, unit: "pt/s"),
      DescribedRange("angular_speed", "`add_velocity`'s `angular`", angularSpeed, unit: "rad/s"),
      DescribedRange("inset", "each of `insets`", inset, unit: "pt"),
      DescribedRange(
        "gravity_magnitude", "gravity's `magnitude` and each `direction` component",
        gravityMagnitude, unit: "1000 pt/s²"),
      DescribedRange(
        "push_magnitude", "push's `magnitude` and each `direction` component", pushMagnitude),
      DescribedRange("elasticity", "`elasticity`", elasticity),
      DescribedRange("friction", "a dynamic item's `friction`", friction),
      DescribedRange("density", "`density`", density),
      DescribedRange("resistance", "`resistance`, `angular_resistance`", resistance, unit: "1/s"),
      DescribedRange("charge", "`charge`", charge),
      DescribedRange("snap_damping", "a snap's `damping`", snapDamping),
      DescribedRange("attachment_damping", "an attachment's `damping`", attachmentDamping),
      DescribedRange("frequency", "an attachment's `frequency`", frequency, unit: "Hz"),
      DescribedRange("length", "an attachment's `length`", length, unit: "pt"),
      DescribedRange("friction_torque", "an attachment's `friction_torque`", frictionTorque),
      DescribedRange(
        "field_strength", "a field's `strength`", fieldStrength),
      DescribedRange("falloff", "a field's `falloff`", falloff),
      DescribedRange("minimum_radius", "a field's `minimum_radius`", minimumRadius, unit: "pt"),
      DescribedRange(
        "field_direction", "each component of a field's `direction`", fieldDirection),
      DescribedRange("smoothness", "a field's `smoothness`", smoothness),
      DescribedRange("animation_speed", "a field's `animation_speed`", animationSpeed, unit: "Hz"),
      DescribedRange("seed", "a field's `seed`", fieldSeed, integral: true),
      DescribedRange(
        "region_extent", "a region's `radius` and each side of its `size`", regionExtent,
        unit: "pt"),
      DescribedRange(
        "action_speed", "a rule's `speed_below`, `speed_above`", actionSpeed, unit: "pt/s"),
      DescribedRange(
        "selection_side", "`w`, `h` of `items_in_rect`'s `rect` and of a rule's rectangles",
        selectionSide, unit: "pt"),
    ]
    + SpringField.allCases.map { field in
      DescribedRange(
        "spring_" + field.rawValue, "a spring's `\(field.rawValue)`", spring(field),
        unit: field == .response || field == .duration ? "s" : "")
    }
    + DecayField.allCases.map { field in
      DescribedRange(
        "decay_" + field.rawValue, "a decay's `\(field.rawValue)`", decay(field))
    }
}
