import Primitives

/// `swipe`: a swipe, optionally with where it started and how fast it went.
public struct SwipeRequest: Equatable, Sendable {
  public var session: String
  public var direction: SwipeDirection
  /// `x`, `y` (sent together).
  public var point: Point?
  /// `vx`, `vy` (sent together).
  public var velocity: Vector?

  public init(
    session: String, direction: SwipeDirection, point: Point? = nil,
    velocity: Vector? = nil
  ) {
    self.session = session
    self.direction = direction
    self.point = point
    self.velocity = velocity
  }
}

/// The reply is `tap`'s: `taken`.
extension SwipeRequest: SessionOpRequest {
  public static let name = "swipe"
  public static let fields: [StaticString] = ["session", "direction", "x", "y", "vx", "vy"]
  public static let target = OpTarget.transition
  public static let changesStepCost = false

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"),
      direction: try fields.requiredWord("direction", as: SwipeDirection.self),
      point: try fields.pair("x", "y", in: Limits.coordinate, Point.init),
      velocity: try fields.pair("vx", "vy", in: Limits.speed, Vector.init))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("direction", direction.rawValue)
    encoder.number("x", point?.x)
    encoder.number("y", point?.y)
    encoder.vector("vx", "vy", velocity)
  }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    try TapRequest.readReply(fields)
  }
}
