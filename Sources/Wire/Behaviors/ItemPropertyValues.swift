import Primitives

/// The eight material properties of a dynamic item behavior (UIDynamicItemBehavior), each `nil`
/// when not sent: one type for a new behavior (`DynamicItemSpec`), `set_behavior`
/// (`BehaviorUpdate`) and the `behaviors` report, read and written by the functions below only.
public struct ItemPropertyValues: Equatable, Sendable {
  /// In `Limits.elasticity`.
  public var elasticity: Double?
  /// In `Limits.friction`.
  public var friction: Double?
  /// In `Limits.density`.
  public var density: Double?
  /// In `Limits.resistance`.
  public var resistance: Double?
  /// In `Limits.angularResistance`.
  public var angularResistance: Double?
  public var allowsRotation: Bool?
  public var anchored: Bool?
  /// In `Limits.charge`.
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

  /// The wire names, in wire order.
  static let names: [StaticString] = [
    "elasticity", "friction", "density", "resistance", "angular_resistance", "allows_rotation",
    "anchored", "charge",
  ]

  /// Reads the properties of a request, each in its `Limits` range.
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

  /// Reads the properties of a `behaviors` reply's entry (client side).
  init(_ entry: MessageFields) throws(ProtocolError) {
    elasticity = try entry.optionalNumber("elasticity")
    friction = try entry.optionalNumber("friction")
    density = try entry.optionalNumber("density")
    resistance = try entry.optionalNumber("resistance")
    angularResistance = try entry.optionalNumber("angular_resistance")
    allowsRotation = try entry.optionalBool("allows_rotation")
    anchored = try entry.optionalBool("anchored")
    charge = try entry.optionalNumber("charge")
  }

  /// The properties that are set, as reply members (numbers with at most 6 decimals).
  var replyFields: [ReplyField] {
    var fields: [ReplyField] = []
    func number(_ name: String, _ value: Double?) {
      if let value { fields.append(.number(name, value, decimals: WireProtocol.angularDecimals)) }
    }
    number("elasticity", elasticity)
    number("friction", friction)
    number("density", density)
    number("resistance", resistance)
    number("angular_resistance", angularResistance)
    if let allowsRotation { fields.append(.bool("allows_rotation", allowsRotation)) }
    if let anchored { fields.append(.bool("anchored", anchored)) }
    number("charge", charge)
    return fields
  }
}

extension RequestEncoder {
  /// The material properties that are set, in wire order (a request's members).
  mutating func itemProperties(_ p: ItemPropertyValues) {
    number("elasticity", p.elasticity)
    number("friction", p.friction)
    number("density", p.density)
    number("resistance", p.resistance)
    number("angular_resistance", p.angularResistance)
    if let allows = p.allowsRotation { bool("allows_rotation", allows) }
    if let anchored = p.anchored { bool("anchored", anchored) }
    number("charge", p.charge)
  }
}
