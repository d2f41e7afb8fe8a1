import Primitives

extension BehaviorSpec {
  /// The values of the fields `set_behavior` can set (`BehaviorUpdate.settableFields`), as this
  /// spec gives them: a new behavior is made from its other fields (items, kind, the item it
  /// snaps, what an attachment ties) and then these are applied exactly as an update's are, so
  /// create and update share one path. `items` and `action` are left out: the behavior is made
  /// with its items, and its rules are kept by the scene.
  public var settableValues: BehaviorUpdate {
    var u = BehaviorUpdate()
    switch self {
    case .gravity(let s):
      (u.direction, u.angle, u.magnitude) = (s.direction, s.angle, s.magnitude)
    case .collision(let s):
      (u.mode, u.referenceBounds, u.insets) = (s.mode, s.referenceBounds, s.insets)
      u.boundaries = s.boundaries.isEmpty ? nil : s.boundaries
    case .attachment(let s):
      (u.length, u.damping, u.frequency) = (s.length, s.damping, s.frequency)
      (u.frictionTorque, u.range) = (s.frictionTorque, s.range)
    case .snap(let s):
      u.damping = s.damping
    case .push(let s):
      (u.direction, u.angle, u.magnitude) = (s.direction, s.angle, s.magnitude)
      (u.offset, u.active) = (s.offset, s.active)
    case .dynamicItem(let s):
      u.itemProperties = s.properties
    case .field(let s):
      (u.position, u.region, u.strength, u.falloff) = (s.position, s.region, s.strength, s.falloff)
      (u.minimumRadius, u.direction, u.smoothness) = (s.minimumRadius, s.direction, s.smoothness)
      (u.animationSpeed, u.seed) = (s.animationSpeed, s.seed)
    case .spring, .decay, .composite:
      break
    }
    return u
  }
}

/// The eight material properties of a dynamic item behavior (UIDynamicItemBehavior), each `nil`
/// when not sent: read by one decoder for a new behavior and for `set_behavior`.
public struct ItemPropertyValues: Equatable, Sendable {
  public var elasticity: Double?
  public var friction: Double?
  public var density: Double?
  public var resistance: Double?
  public var angularResistance: Double?
  public var allowsRotation: Bool?
  public var anchored: Bool?
  public var charge: Double?

  public init(
    elasticity: Double? = nil, friction: Double? = nil, density: Double? = nil,
    resistance: Double? = nil, angularResistance: Double? = nil, allowsRotation: Bool? = nil,
    anchored: Bool? = nil, charge: Double? = nil
  ) {
    self.elasticity = elasticity
    self.friction = friction
    self.density = density
    self.resistance = resistance
    self.angularResistance = angularResistance
    self.allowsRotation = allowsRotation
    self.anchored = anchored
    self.charge = charge
  }

  /// Reads the properties, each in its `Limits` range.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    elasticity = try fields.number("elasticity", in: Limits.elasticity)
    friction = try fields.number("friction", in: Limits.friction)
    density = try fields.number("density", in: Limits.density)
    resistance = try fields.number("resistance", in: Limits.resistance)
    angularResistance = try fields.number("angular_resistance", in: Limits.angularResistance)
    allowsRotation = try fields.bool("allows_rotation")
    anchored = try fields.bool("anchored")
    charge = try fields.number("charge", in: Limits.charge)
  }
}

extension DynamicItemSpec {
  /// The spec's material properties.
  public var properties: ItemPropertyValues {
    ItemPropertyValues(
      elasticity: elasticity, friction: friction, density: density, resistance: resistance,
      angularResistance: angularResistance, allowsRotation: allowsRotation, anchored: anchored,
      charge: charge)
  }
}

extension BehaviorUpdate {
  /// The update's material properties (a dynamic item behavior's).
  public var itemProperties: ItemPropertyValues {
    get {
      ItemPropertyValues(
        elasticity: elasticity, friction: friction, density: density, resistance: resistance,
        angularResistance: angularResistance, allowsRotation: allowsRotation, anchored: anchored,
        charge: charge)
    }
    set {
      (elasticity, friction, density) = (newValue.elasticity, newValue.friction, newValue.density)
      (resistance, angularResistance) = (newValue.resistance, newValue.angularResistance)
      (allowsRotation, anchored) = (newValue.allowsRotation, newValue.anchored)
      charge = newValue.charge
    }
  }
}
