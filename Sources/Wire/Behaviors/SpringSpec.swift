import Primitives

/// A spring behavior (extension): each of its items follows the exact solution of a damped
/// spring toward `target`, and no other behavior moves it while the spring holds it.
///
/// `{"type":"spring","id":…,"items":[…],"target":[x,y], <one parameter set>,
/// "initial_velocity":[vx,vy]}`: the shape outside tools depend on (PROTOCOL.md, section 6).
public struct SpringSpec: Equatable, Sendable {
  public var id: String?
  public var items: [String]
  /// Where the items come to rest, in reference coordinates.
  public var target: Point
  /// The spring, in the parameters of the platform the client took it from.
  public var parameters: SpringParameterValues
  /// The velocity the items start with, pt/s (each component in `Limits.speed`); nil: the
  /// velocity each item has when the spring starts acting (so a handoff feeds it).
  public var initialVelocity: Vector?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], target: Point, parameters: SpringParameterValues,
    initialVelocity: Vector? = nil, action: [ActionRule] = []
  ) {
    self.id = id
    self.items = items
    self.target = target
    self.parameters = parameters
    self.initialVelocity = initialVelocity
    self.action = action
  }
}

extension SpringSpec {
  static let fields: [StaticString] =
    ["type", "id", "items", "target"] + SpringField.allCases.map(\.key)
    + ["initial_velocity", "action"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    self.init(
      id: try fields.name("id"), items: try fields.behaviorItems(),
      target: try fields.requiredPoint("target"),
      parameters: try Self.parameters(fields),
      initialVelocity: try fields.vector("initial_velocity", in: Limits.speed),
      action: try fields.actionRules() ?? [])
  }
}

extension SpringSpec {
  /// The spring's one parameter set (`SpringParameterValues.read`); none is `missing_field`.
  static func parameters(_ fields: ObjectReader) throws(ProtocolError) -> SpringParameterValues {
    guard let values = try parameterValues(fields) else {
      throw ProtocolError(
        .missingField,
        "one parameter set ('\(fields.fieldPath("response"))' or another) is required for "
          + "\(fields.owner): send \(SpringParameterValues.phrase)")
    }
    return values
  }

  /// The parameter set `fields` gives, nil when it gives none (a `set_behavior` that only
  /// retargets).
  static func parameterValues(_ fields: ObjectReader) throws(ProtocolError)
    -> SpringParameterValues?
  {
    let given = try fields.springFields()
    let path = { (field: SpringField) in fields.fieldPath(field.key) }
    return try SpringParameterValues.read(given, path: path, owner: fields.owner)
  }
}
