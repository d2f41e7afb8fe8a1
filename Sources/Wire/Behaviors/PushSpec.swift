import Primitives

/// A push behavior (UIPushBehavior): a continuous force or a one-off impulse on its items.
///
/// Magnitudes are in UIKit Newtons (1 gives a 100×100 item of density 1 an acceleration of
/// 100 pt/s², or, instantaneous, a velocity change of 100 pt/s). `direction` or `angle` +
/// `magnitude` (defaults 0), exclusive.
public struct PushSpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// Required, as in UIKit's initializer; it cannot be changed later.
  public var mode: PushMode
  /// Each component in `Limits.pushMagnitude`.
  public var direction: Vector?
  public var angle: Double?
  /// In `Limits.pushMagnitude`; negative reverses the force.
  public var magnitude: Double?
  /// Where the force applies, relative to each item's center (default the center).
  public var offset: Vector?
  /// Whether the push acts (default true); an instantaneous push turns itself off after acting.
  public var active: Bool?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], mode: PushMode, direction: Vector? = nil,
    angle: Double? = nil, magnitude: Double? = nil, offset: Vector? = nil, active: Bool? = nil,
    action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.mode = mode
    self.direction = direction
    self.angle = angle
    self.magnitude = magnitude
    self.offset = offset
    self.active = active
    self.action = action
  }
}

/// UIPushBehaviorMode.
public enum PushMode: String, CaseIterable, Sendable {
  case continuous, instantaneous
}

extension PushSpec {
  static let fields: [StaticString] = [
    "type", "id", "items", "mode", "direction", "angle", "magnitude", "offset", "active",
    "action",
  ]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let force = try fields.directionOrAngle(magnitude: Limits.pushMagnitude)
    self.init(
      id: try fields.name("id"), items: try fields.behaviorItems(),
      mode: try fields.requiredWord("mode", as: PushMode.self), direction: force.direction,
      angle: force.angle, magnitude: force.magnitude,
      offset: try fields.vector("offset", in: Limits.coordinate),
      active: try fields.bool("active"), action: try fields.actionRules() ?? [])
  }
}
