import Primitives

/// `add_velocity`: add to an item's velocity (UIDynamicItemBehavior addLinearVelocity and
/// addAngularVelocity).
public struct AddVelocityRequest: Equatable, Sendable {
  public var session: String
  public var item: String
  /// Linear velocity to add, pt/s.
  public var velocity: Vector?
  /// Angular velocity to add, rad/s.
  public var angular: Double?

  public init(session: String, item: String, velocity: Vector? = nil, angular: Double? = nil) {
    self.session = session
    self.item = item
    self.velocity = velocity
    self.angular = angular
  }
}

/// The reply is empty.
enum AddVelocityOp {
  static let fields: [StaticString] = ["session", "item", "velocity", "angular"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .addVelocity(
      AddVelocityRequest(
        session: try fields.requiredName("session"), item: try fields.requiredName("item"),
        velocity: try fields.vector("velocity", in: Limits.speed),
        angular: try fields.number("angular", in: Limits.angularSpeed)))
  }

  static func write(_ add: AddVelocityRequest, to encoder: inout RequestEncoder) {
    encoder.word("item", add.item)
    encoder.pair("velocity", add.velocity.map { ($0.dx, $0.dy) })
    encoder.number("angular", add.angular)
  }
}
