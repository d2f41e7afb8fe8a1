/// A dynamic item behavior (UIDynamicItemBehavior): material properties of its items.
///
/// When several apply to one item, the last in the behavior tree wins per property; removing it
/// restores UIKit's defaults (elasticity 0, friction 0, density 1, resistance 0, angular resistance
/// 0, allows rotation, not anchored, charge 0).
public struct DynamicItemSpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// The properties it sets (`nil`: not set by this behavior).
  public var properties: ItemPropertyValues
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], properties: ItemPropertyValues,
    action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.properties = properties
    self.action = action
  }

  /// The behavior with each property given by name.
  public init(
    id: String? = nil, items: [String], elasticity: Double? = nil, friction: Double? = nil,
    density: Double? = nil, resistance: Double? = nil, angularResistance: Double? = nil,
    allowsRotation: Bool? = nil, anchored: Bool? = nil, charge: Double? = nil,
    action: [ActionRule] = []
  ) {
    self.init(
      id: id, items: items,
      properties: ItemPropertyValues(
        elasticity: elasticity, friction: friction, density: density, resistance: resistance,
        angularResistance: angularResistance, allowsRotation: allowsRotation, anchored: anchored,
        charge: charge),
      action: action)
  }
}

extension DynamicItemSpec {
  static let fields: [StaticString] =
    ["type", "id", "items"] + ItemPropertyValues.names + ["action"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    self.init(
      id: try fields.name("id"), items: try fields.behaviorItems(),
      // The same decoder as set_behavior's (`BehaviorUpdate`).
      properties: try ItemPropertyValues(fields), action: try fields.actionRules() ?? [])
  }
}
