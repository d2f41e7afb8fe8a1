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
extension AddVelocityRequest: SessionOpRequest {
  public static let name = "add_velocity"
  public static let fields: [StaticString] = ["session", "item", "velocity", "angular"]
  public static let target = OpTarget.scene
  public static let changesStepCost = false

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"), item: try fields.requiredName("item"),
      velocity: try fields.vector("velocity", in: Limits.speed),
      angular: try fields.number("angular", in: Limits.angularSpeed))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("item", item)
    encoder.pair("velocity", velocity.map { ($0.dx, $0.dy) })
    encoder.number("angular", angular)
  }
}
