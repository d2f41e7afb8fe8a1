import Primitives

/// `gesture`: one sample of a pan.
public struct GestureRequest: Equatable, Sendable {
  public var session: String
  public var phase: GesturePhase
  /// The finger position.
  public var point: Point
  /// The sample time on the client's clock, in seconds.
  public var t: Double?
  /// The finger velocity (`vx`, `vy`, sent together). On `ended` it is the release velocity; when
  /// absent there, the daemon estimates it from the recent samples.
  public var velocity: Vector?
  /// `estimator`: how the daemon estimates the finger's velocity for this request (at `changed`,
  /// and the release velocity at `ended` without `vx`, `vy`); `.platform` when absent.
  public var estimator: VelocityEstimator

  public init(
    session: String, phase: GesturePhase, point: Point, t: Double? = nil,
    velocity: Vector? = nil, estimator: VelocityEstimator = .platform
  ) {
    self.session = session
    self.phase = phase
    self.point = point
    self.t = t
    self.velocity = velocity
    self.estimator = estimator
  }
}

/// The reply is empty; the session answers with frames and, at `ended`, a `handoff` event.
extension GestureRequest: SessionOpRequest {
  public static let name = "gesture"
  public static let fields: [StaticString] = [
    "session", "phase", "x", "y", "t", "vx", "vy", "estimator",
  ]
  public static let target = OpTarget.transition
  public static let changesStepCost = false

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"),
      phase: try fields.requiredWord("phase", as: GesturePhase.self),
      point: try fields.requiredPair("x", "y", in: Limits.coordinate, Point.init),
      t: try fields.number("t", in: Limits.clientTime),
      velocity: try fields.pair("vx", "vy", in: Limits.speed, Vector.init),
      estimator: try fields.word("estimator", as: VelocityEstimator.self) ?? .platform)
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("phase", phase.rawValue)
    encoder.number("x", point.x)
    encoder.number("y", point.y)
    encoder.number("t", t)
    encoder.vector("vx", "vy", velocity)
    if estimator != .platform { encoder.word("estimator", estimator.rawValue) }
  }
}
