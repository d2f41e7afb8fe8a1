import Primitives

/// A gravity behavior (UIGravityBehavior): a constant acceleration of its items.
///
/// `direction` `[dx, dy]` (default `[0, 1]`, 1000 pt/s² down) or `angle` + `magnitude`
/// (defaults π/2 and 1); the two forms are exclusive.
public struct GravitySpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// Each component in `Limits.gravityMagnitude`.
  public var direction: Vector?
  /// Radians, 0 = toward +x.
  public var angle: Double?
  /// In `Limits.gravityMagnitude`; 1 is 1000 pt/s².
  public var magnitude: Double?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], direction: Vector? = nil, angle: Double? = nil,
    magnitude: Double? = nil, action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.direction = direction
    self.angle = angle
    self.magnitude = magnitude
    self.action = action
  }
}

extension GravitySpec {
  static let fields: [StaticString] = [
    "type", "id", "items", "direction", "angle", "magnitude", "action",
  ]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let force = try fields.directionOrAngle(magnitude: Limits.gravityMagnitude)
    self.init(
      id: try fields.name("id"), items: try fields.behaviorItems(), direction: force.direction,
      angle: force.angle, magnitude: force.magnitude, action: try fields.actionRules() ?? [])
  }
}
