import Primitives

/// The fields of a `set_behavior`: new values for settable properties of one behavior.
///
/// The decoder does not know the behavior's type (only the session does), so it reads every field
/// name that is settable on *some* behavior type, each with its type and the widest range it has
/// on any type, and rejects every other name with `unknown_field`. Once the daemon has looked the
/// behavior up, it must call `check(for:)`, which rejects fields the type does not have and
/// applies the type's own ranges (a snap's `damping` is 0…1, an attachment's 0…1000). `nil` means
/// "leave as is".
///
/// Settable per type (UIKit's read-write properties; `items` replaces the item list):
///
/// | type | fields |
/// |---|---|
/// | gravity | `items`, `direction`, `angle`, `magnitude` |
/// | collision | `items`, `mode`, `reference_bounds`, `insets`, `boundaries` |
/// | attachment | `anchor`, `length`, `damping`, `frequency`, `friction_torque`, `range` |
/// | snap | `point`, `damping` |
/// | push | `items`, `direction`, `angle`, `magnitude`, `offset`, `active` |
/// | dynamic_item | `items`, `elasticity`, `friction`, `density`, `resistance`, `angular_resistance`, `allows_rotation`, `anchored`, `charge` |
/// | field | `items`, `position`, `region`, `strength`, `falloff`, `minimum_radius`, `direction`, `smoothness`, `animation_speed`, `seed` |
/// | spring | `items`, `target`, one whole parameter set (`response`, `damping_ratio`, `duration`, `bounce`, `stiffness`, `damping`, `mass`, `tension`, `friction`) |
/// | decay | `items`, one of `deceleration_rate`, `friction`, `drag` |
/// | composite | — |
///
/// Every type also takes `action` (extension): the behavior's rules, replaced as a whole (`[]`
/// removes them). A field's `kind`, like a push's `mode`, never changes.
///
/// An attachment's `range` must include 0 for a sliding attachment; only the engine knows the
/// kind, so that check is the daemon's.
public struct BehaviorUpdate: Equatable, Sendable {
  public var items: [String]?
  public var direction: Vector?
  public var angle: Double?
  public var magnitude: Double?
  public var mode: CollisionMode?
  public var referenceBounds: Bool?
  public var insets: EdgeInsets?
  public var boundaries: [BoundarySpec]?
  public var anchor: Point?
  public var length: Double?
  public var damping: Double?
  public var frequency: Double?
  public var frictionTorque: Double?
  public var range: FloatRange?
  public var point: Point?
  public var active: Bool?
  public var offset: Vector?
  /// A dynamic item behavior's material properties.
  public var itemProperties = ItemPropertyValues()
  public var position: Point?
  public var region: RegionSpec?
  public var strength: Double?
  public var falloff: Double?
  public var minimumRadius: Double?
  public var smoothness: Double?
  public var animationSpeed: Double?
  public var seed: UInt64?
  /// A spring's new target (a retarget in flight).
  public var target: Point?
  /// A spring's parameter fields but `damping` and `friction`, which are the shared fields
  /// above (`springParameterValues`).
  public var springFields: [SpringField: Double] = [:]
  /// A decay's UIScrollView and Flutter parameters (Android's is `friction`).
  public var decelerationRate: Double?
  public var drag: Double?
  /// The behavior's new rules, replacing all of its rules (`[]` removes them).
  public var action: [ActionRule]?

  public init() {}

  /// The wire names of the fields that are set, in declaration order.
  public var fieldNames: [String] {
    var names: [String] = []
    func note<Value>(_ value: Value?, _ name: String) { if value != nil { names.append(name) } }
    note(items, "items")
    note(direction, "direction")
    note(angle, "angle")
    note(magnitude, "magnitude")
    note(mode, "mode")
    note(referenceBounds, "reference_bounds")
    note(insets, "insets")
    note(boundaries, "boundaries")
    note(anchor, "anchor")
    note(length, "length")
    note(damping, "damping")
    note(frequency, "frequency")
    note(frictionTorque, "friction_torque")
    note(range, "range")
    note(point, "point")
    note(active, "active")
    note(offset, "offset")
    names += itemProperties.fieldNames
    note(position, "position")
    note(region, "region")
    note(strength, "strength")
    note(falloff, "falloff")
    note(minimumRadius, "minimum_radius")
    note(smoothness, "smoothness")
    note(animationSpeed, "animation_speed")
    note(seed, "seed")
    note(target, "target")
    for field in SpringField.allCases where springFields[field] != nil {
      names.append(field.rawValue)
    }
    note(decelerationRate, "deceleration_rate")
    note(drag, "drag")
    note(action, "action")
    return names
  }

  /// The fields settable on a behavior of `type` (`action` on every type).
  public static func settableFields(of type: BehaviorType) -> [String] {
    typeFields(of: type) + ["action"]
  }

  private static func typeFields(of type: BehaviorType) -> [String] {
    switch type {
    case .gravity: return ["items", "direction", "angle", "magnitude"]
    case .collision: return ["items", "mode", "reference_bounds", "insets", "boundaries"]
    case .attachment:
      return ["anchor", "length", "damping", "frequency", "friction_torque", "range"]
    case .snap: return ["point", "damping"]
    case .push: return ["items", "direction", "angle", "magnitude", "offset", "active"]
    case .dynamicItem:
      return [
        "items", "elasticity", "friction", "density", "resistance", "angular_resistance",
        "allows_rotation", "anchored", "charge",
      ]
    case .field:
      return [
        "items", "position", "region", "strength", "falloff", "minimum_radius", "direction",
        "smoothness", "animation_speed", "seed",
      ]
    case .spring:
      return ["items", "target"] + SpringField.allCases.map(\.rawValue)
    case .decay: return ["items"] + DecayField.allCases.map(\.rawValue)
    case .composite: return []
    }
  }

  /// Throws `unknown_field` for a field a behavior of `type` does not have, and `out_of_range` for
  /// a value outside that type's range. The daemon calls this before applying anything.
  public func check(for type: BehaviorType) throws(ProtocolError) {
    let settable = Self.settableFields(of: type)
    for name in fieldNames where !settable.contains(name) {
      throw ProtocolError(
        .unknownField,
        "field '\(name)' is not settable on a '\(type.rawValue)' behavior (settable: "
          + "\(settable.joined(separator: ", ")))")
    }
    if type == .snap, let damping {
      try Self.check(damping, "damping", in: Limits.snapDamping)
    }
    if type == .gravity {
      if let magnitude { try Self.check(magnitude, "magnitude", in: Limits.gravityMagnitude) }
      if let direction {
        try Self.check(direction.dx, "direction[0]", in: Limits.gravityMagnitude)
        try Self.check(direction.dy, "direction[1]", in: Limits.gravityMagnitude)
      }
    }
    if type == .attachment, let damping {
      try Self.check(damping, "damping", in: Limits.attachmentDamping)
    }
    if type == .dynamicItem, let friction = itemProperties.friction {
      try Self.check(friction, "friction", in: Limits.friction)
    }
    if type == .spring { _ = try springParameterValues() }
    if type == .decay { _ = try decayModel() }
    if type == .field, let direction {
      try Self.check(direction.dx, "direction[0]", in: Limits.fieldDirection)
      try Self.check(direction.dy, "direction[1]", in: Limits.fieldDirection)
    }
  }

  private static func check(_ value: Double, _ path: String, in range: NumberRange)
    throws(ProtocolError)
  {
    guard range.contains(value) else {
      throw ProtocolError(
        .outOfRange, "field '\(path)' must be \(range.phrase) (got \(plainNumber(value)))")
    }
  }
}

extension BehaviorUpdate {
  /// Every field name `set_behavior` accepts besides `op`, `id`, `session` and `behavior`.
  static let fields: [StaticString] =
    [
      "items", "direction", "angle", "magnitude", "mode", "reference_bounds", "insets",
      "boundaries", "anchor", "length", "damping", "frequency", "friction_torque", "range",
      "point", "active", "offset",
    ] + ItemPropertyValues.names + [
      "position", "region", "strength", "falloff", "minimum_radius", "smoothness",
      "animation_speed", "seed", "action", "target",
    ] + SpringField.allCases.filter { $0 != .damping && $0 != .friction }.map(\.key)
    + ["deceleration_rate", "drag"]

  /// Reads the settable fields of a `set_behavior` request (unknown names were rejected already).
  init(_ fields: ObjectReader) throws(ProtocolError) {
    if fields.has("items") {
      items = try fields.behaviorItems()
    }
    let force = try fields.directionOrAngle(magnitude: Limits.pushMagnitude)
    direction = force.direction
    angle = force.angle
    magnitude = force.magnitude
    mode = try fields.word("mode", as: CollisionMode.self)
    referenceBounds = try fields.bool("reference_bounds")
    insets = try fields.insets("insets")
    if insets != nil, referenceBounds != nil {
      throw fields.exclusive("insets", with: "reference_bounds")
    }
    if fields.has("boundaries") {
      boundaries = try CollisionSpec.boundaries(fields)
    }
    anchor = try fields.point("anchor")
    length = try fields.number("length", in: Limits.length)
    // The widest `damping`, a spring's; an attachment's is checked by `check(for:)`.
    damping = try fields.number("damping", in: Limits.spring(.damping))
    frequency = try fields.number("frequency", in: Limits.frequency)
    frictionTorque = try fields.number("friction_torque", in: Limits.frictionTorque)
    range = try fields.range("range", in: Limits.coordinate)
    point = try fields.point("point")
    active = try fields.bool("active")
    offset = try fields.vector("offset", in: Limits.coordinate)
    // The same decoder as a new dynamic item behavior's (`DynamicItemSpec`).
    itemProperties = try ItemPropertyValues(fields, frictionRange: Limits.anyFriction)
    // The same decoder as a new field behavior's (`FieldSpec`).
    let f = try FieldValues(fields)
    (position, region, strength, falloff) = (f.position, f.region, f.strength, f.falloff)
    (minimumRadius, smoothness, animationSpeed, seed) =
      (f.minimumRadius, f.smoothness, f.animationSpeed, f.seed)
    action = try fields.actionRules()
    try readMotionFields(fields)
  }
}
