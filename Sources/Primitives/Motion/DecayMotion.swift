/// A point thrown from `start` at `initialVelocity` and slowed by a platform's decay
/// (`DecayModel`), each axis on its own, as one platform animation per axis would move it: an
/// axis stops at its own `stopTime` and stays at its resting coordinate.
public struct DecayMotion: Equatable, Sendable {
  public let model: DecayModel
  public let start: Point
  public let initialVelocity: Vector

  public init(_ model: DecayModel, from start: Point, velocity: Vector) {
    self.model = model
    self.start = start
    initialVelocity = velocity
  }

  /// Position and velocity at `t` seconds.
  public func state(at t: Double) -> (position: Point, velocity: Vector) {
    let x = model.state(at: t, initialVelocity: initialVelocity.dx)
    let y = model.state(at: t, initialVelocity: initialVelocity.dy)
    return (
      Point(x: start.x + x.displacement, y: start.y + y.displacement),
      Vector(dx: x.velocity, dy: y.velocity)
    )
  }

  public func position(at t: Double) -> Point { state(at: t).position }
  public func velocity(at t: Double) -> Vector { state(at: t).velocity }

  /// When the later axis stops (s).
  public var stopTime: Double {
    max(
      model.stopTime(initialVelocity: initialVelocity.dx),
      model.stopTime(initialVelocity: initialVelocity.dy))
  }

  /// Where the motion comes to rest: its projection (`DecayModel.restingDisplacement`).
  public var restingPoint: Point {
    Point(
      x: start.x + model.restingDisplacement(initialVelocity: initialVelocity.dx),
      y: start.y + model.restingDisplacement(initialVelocity: initialVelocity.dy))
  }

  /// Whether both axes have stopped at `t`.
  public func isStopped(at t: Double) -> Bool { t >= stopTime }
}
