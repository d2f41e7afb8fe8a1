/// A dynamic item behavior (UIDynamicItemBehavior): material properties of its items.
///
/// When several apply to one item, the last in the behavior tree wins per property; removing it
/// restores UIKit's defaults (elasticity 0, friction 0, density 1, resistance 0, angular resistance
/// 0, allows rotation, not anchored, charge 0).
public struct DynamicItemSpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// In `Limits.elasticity`.
  public var elasticity: Double?
  /// In `Limits.friction`.
  public var friction: Double?
  /// In `Limits.density` (positive).
  public var density: Double?
  /// In `Limits.resistance`.
  public var resistance: Double?
  /// In `Limits.angularResistance`.
  public var angularResistance: Double?
  public var allowsRotation: Bool?
  public var anchored: Bool?
  /// In `Limits.charge`.
  public var charge: Double?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], elasticity: Double? = nil, friction: Double? = nil,
    density: Double? = nil, resistance: Double? = nil, angularResistance: Double? = nil,
    allowsRotation: Bool? = nil, anchored: Bool? = nil, charge: Double? = nil,
    action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.elasticity = elasticity
    self.friction = friction
    self.density = density
    self.resistance = resistance
    self.angularResistance = angularResistance
    self.allowsRotation = allowsRotation
    self.anchored = anchored
    self.charge = charge
    self.action = action
  }
}

extension DynamicItemSpec {
  static let fields: [StaticString] = [
    "type", "id", "items", "elasticity", "friction", "density", "resistance",
    "angular_resistance", "allows_rotation", "anchored", "charge", "action",
  ]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let id = try fields.name("id")
    let items = try fields.behaviorItems()
    // The same decoder as set_behavior's (`BehaviorUpdate`).
    let p = try ItemPropertyValues(fields)
    self.init(
      id: id, items: items, elasticity: p.elasticity, friction: p.friction, density: p.density,
      resistance: p.resistance, angularResistance: p.angularResistance,
      allowsRotation: p.allowsRotation, anchored: p.anchored, charge: p.charge,
      action: try fields.actionRules() ?? [])
  }
}
