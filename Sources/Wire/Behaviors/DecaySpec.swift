import Primitives

/// A decay behavior (extension): each of its items glides on with a velocity that decays
/// exponentially, by the exact closed form of one platform (`DecayModel`), and stops where that
/// platform stops.
///
/// `{"type":"decay","id":…,"items":[…], <one of> "deceleration_rate" | "friction" | "drag",
/// "initial_velocity":[vx,vy]}`: the shape outside tools depend on (PROTOCOL.md, section 6).
public struct DecaySpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// The platform's model and its parameter.
  public var model: DecayModel
  /// The velocity the items start with, pt/s (each component in `Limits.speed`); nil: the
  /// velocity each item has when the decay starts acting (so a handoff feeds it).
  public var initialVelocity: Vector?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], model: DecayModel, initialVelocity: Vector? = nil,
    action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.model = model
    self.initialVelocity = initialVelocity
    self.action = action
  }
}

extension DecaySpec {
  static let fields: [StaticString] =
    ["type", "id", "items"] + DecayField.allCases.map(\.key) + ["initial_velocity", "action"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    guard let model = try Self.model(fields) else {
      throw ProtocolError(
        .missingField,
        "one of the fields '\(fields.fieldPath("deceleration_rate"))', 'friction' or 'drag' is "
          + "required for \(fields.owner)")
    }
    self.init(
      id: try fields.name("id"), items: try fields.behaviorItems(), model: model,
      initialVelocity: try fields.vector("initial_velocity", in: Limits.speed),
      action: try fields.actionRules() ?? [])
  }
}

extension DecaySpec {
  /// The model `fields` gives by its one parameter, nil when it gives none.
  static func model(_ fields: ObjectReader) throws(ProtocolError) -> DecayModel? {
    var given: [DecayField: Double] = [:]
    for field in DecayField.allCases {
      given[field] = try fields.number(field.key, in: .magnitude(.greatestFiniteMagnitude))
    }
    let path = { (field: DecayField) in fields.fieldPath(field.key) }
    return try DecayModel.read(given, path: path, owner: fields.owner)
  }
}

extension DecayModel {
  /// Reads a decay's one parameter from the fields `given` (finite numbers): nil when none is
  /// given, `unknown_field` for two, `out_of_range` naming the field and its range
  /// (`Limits.decay`).
  static func read(_ given: [DecayField: Double], path: (DecayField) -> String, owner: String)
    throws(ProtocolError) -> DecayModel?
  {
    let named = DecayField.allCases.filter { given[$0] != nil }
    guard let field = named.first, let value = given[field] else { return nil }
    if named.count > 1 {
      throw ProtocolError(
        .unknownField,
        "field '\(path(named[1]))' cannot be combined with '\(field.rawValue)' in \(owner); "
          + "send one of them")
    }
    let range = Limits.decay(field)
    guard range.contains(value), let model = try? field.model(value) else {
      throw ProtocolError(
        .outOfRange, "field '\(path(field))' must be \(range.phrase) (got \(plainNumber(value)))")
    }
    return model
  }
}

extension DecayField {
  /// The field's name as the object readers and the encoder take it.
  var key: StaticString {
    switch self {
    case .decelerationRate: return "deceleration_rate"
    case .friction: return "friction"
    case .drag: return "drag"
    }
  }
}
