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
  public var parameters: SpringParameterSet
  /// The velocity the items start with, pt/s (each component in `Limits.speed`); nil: the
  /// velocity each item has when the spring starts acting (so a handoff feeds it).
  public var initialVelocity: Vector?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, items: [String], target: Point, parameters: SpringParameterSet,
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
    ["type", "id", "items", "target"] + SpringParameterSet.fields
    + ["initial_velocity", "action"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    self.init(
      id: try fields.name("id"), items: try fields.behaviorItems(),
      target: try fields.requiredPoint("target"),
      parameters: try SpringParameterSet(fields),
      initialVelocity: try fields.vector("initial_velocity", in: Limits.speed),
      action: try fields.actionRules() ?? [])
  }
}
