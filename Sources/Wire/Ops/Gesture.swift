import Primitives

/// `gesture`: one sample of a pan, for a session.
public struct GestureRequest: Equatable, Sendable {
  public var session: String
  public var sample: GestureSample

  public init(session: String, sample: GestureSample) {
    self.session = session
    self.sample = sample
  }

  /// The request of a sample given by its parts (`t`: its time, as the wire names it).
  public init(
    session: String, phase: GesturePhase, point: Point, t: Double? = nil,
    velocity: Vector? = nil, estimator: VelocityEstimator = defaultEstimator
  ) {
    self.init(
      session: session,
      sample: GestureSample(
        phase: phase, point: point, time: t, velocity: velocity, estimator: estimator))
  }
}

/// The reply is empty; the session answers with frames and, at `ended`, a `handoff` event.
extension GestureRequest: SessionOpRequest {
  public static let name = "gesture"
  public static let fields: [StaticString] = [
    "session", "phase", "x", "y", "t", "vx", "vy", "estimator",
  ]
  public static let target = OpTarget.session
  public static let changesStepCost = false

  public static let defaultEstimator = VelocityEstimator.platform
  public static var defaults: [FieldDefault] {
    [FieldDefault("estimator", .word(defaultEstimator.rawValue))]
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"),
      phase: try fields.requiredWord("phase", as: GesturePhase.self),
      point: try fields.requiredPair("x", "y", in: Limits.coordinate, Point.init),
      t: try fields.number("t", in: Limits.clientTime),
      velocity: try fields.pair("vx", "vy", in: Limits.speed, Vector.init),
      estimator: try fields.word("estimator", as: VelocityEstimator.self) ?? defaultEstimator)
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("phase", sample.phase.rawValue)
    encoder.number("x", sample.point.x)
    encoder.number("y", sample.point.y)
    encoder.number("t", sample.time)
    encoder.vector("vx", "vy", sample.velocity)
    if sample.estimator != Self.defaultEstimator {
      encoder.word("estimator", sample.estimator.rawValue)
    }
  }
}
