import Primitives

/// A decay behavior (extension): each of its items glides on with a velocity that decays
/// exponentially, by the exact closed form of one platform, and stops where that platform stops.
///
/// `{"type":"decay","id":…,"items":[…], <one of> "deceleration_rate" | "friction" | "drag",
/// "initial_velocity":[vx,vy]}`: the shape outside tools depend on (PROTOCOL.md, section 6).
public struct DecaySpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// The platform's model and its parameter.
  public var model: DecayParameter
  /// The velocity the items start with, pt/s (each component in `Limits.speed`); nil: the
  /// velocity each item has when the decay starts acting (so a handoff feeds it).
  public var initialVelocity: Vector?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], model: DecayParameter, initialVelocity: Vector? = nil,
    action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.model = model
    self.initialVelocity = initialVelocity
    self.action = action
  }
}

/// A decay's one parameter, named as its platform names it.
public enum DecayParameter: Equatable, Sendable {
  /// UIScrollView's `decelerationRate`, the velocity kept per millisecond (`normal` 0.998,
  /// `fast` 0.99).
  case decelerationRate(Double)
  /// Android `FlingAnimation.setFriction` (default 1).
  case friction(Double)
  /// Flutter `FrictionSimulation`'s `drag`, the velocity kept per second.
  case drag(Double)

  /// The wire name of the parameter.
  public var name: StaticString {
    switch self {
    case .decelerationRate: return "deceleration_rate"
    case .friction: return "friction"
    case .drag: return "drag"
    }
  }

  /// The parameter's value.
  public var value: Double {
    switch self {
    case .decelerationRate(let v), .friction(let v), .drag(let v): return v
    }
  }
}

extension DecaySpec {
  static let fields: [StaticString] = [
    "type", "id", "items", "deceleration_rate", "friction", "drag", "initial_velocity", "action",
  ]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    self.init(
      id: try fields.name("id"), items: try fields.behaviorItems(),
      model: try DecayParameter(fields),
      initialVelocity: try fields.vector("initial_velocity", in: Limits.speed),
      action: try fields.actionRules() ?? [])
  }
}

extension DecayParameter {
  /// The parameters, in the order a behavior lists them.
  static let fields: [StaticString] = ["deceleration_rate", "friction", "drag"]

  /// Reads the one parameter of a decay: `missing_field` without one, `unknown_field` with two,
  /// `out_of_range` naming the field and its range.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    let given = Self.fields.filter { fields.has($0) }
    guard let first = given.first else {
      throw ProtocolError(
        .missingField,
        "one of the fields '\(fields.fieldPath("deceleration_rate"))', 'friction' or 'drag' is "
          + "required for \(fields.owner)")
    }
    if given.count > 1 { throw fields.exclusive(given[1], with: first) }
    switch "\(first)" {
    case "deceleration_rate":
      self = .decelerationRate(
        try fields.requiredNumber("deceleration_rate", in: Limits.decelerationRate))
    case "friction":
      self = .friction(try fields.requiredNumber("friction", in: Limits.flingFriction))
    default:
      self = .drag(try fields.requiredNumber("drag", in: Limits.frictionDrag))
    }
  }
}
