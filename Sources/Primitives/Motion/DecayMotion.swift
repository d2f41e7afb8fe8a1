/// A point thrown from `start` at `initialVelocity` and slowed by a platform's decay
/// (`DecayModel`), each axis on its own, as one platform animation per axis would move it: an
/// axis stops at its own `stopTime` and stays at its resting coordinate.
public struct DecayMotion: Equatable, Sendable {
  public let model: DecayModel
  public let start: Point
  public let initialVelocity: Vector
  private let x: DecayAxis
  private let y: DecayAxis

  public init(_ model: DecayModel, from start: Point, velocity: Vector) {
    self.model = model
    self.start = start
    initialVelocity = velocity
    x = DecayAxis(model, initialVelocity: velocity.dx)
    y = DecayAxis(model, initialVelocity: velocity.dy)
  }

  /// Position and velocity at `t` seconds.
  public func state(at t: Double) -> (position: Point, velocity: Vector) {
    state(at: t, terms: DecayTerms(rate: decayRate, t: t))
  }

  /// λ (1/s): the model's decay rate, worked out once.
  public var decayRate: Double { x.decayRate }

  /// Position and velocity at `t` seconds from the decay's terms at `t` (`DecayTerms(rate:
  /// decayRate, t: t)`, which both axes and every motion of the same rate share).
  public func state(at t: Double, terms: DecayTerms) -> (position: Point, velocity: Vector) {
    let x = x.state(at: t, terms: terms)
    let y = y.state(at: t, terms: terms)
    return (
      Point(x: start.x + x.displacement, y: start.y + y.displacement),
      Vector(dx: x.velocity, dy: y.velocity)
    )
  }

  public func position(at t: Double) -> Point { state(at: t).position }
  public func velocity(at t: Double) -> Vector { state(at: t).velocity }

  /// When the later axis stops (s).
  public var stopTime: Double { max(x.stopTime, y.stopTime) }

  /// Where the motion comes to rest: its projection (`DecayModel.restingDisplacement`).
  public var restingPoint: Point {
    Point(x: start.x + x.restingDisplacement, y: start.y + y.restingDisplacement)
  }

  /// Whether both axes have stopped at `t`.
  public func isStopped(at t: Double) -> Bool { t >= stopTime }
}
