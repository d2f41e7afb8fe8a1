/// A point sprung toward a target: each axis follows `SpringSolution` independently from its
/// displacement and velocity at t = 0 (a mass-spring-damper per axis, as two platform springs
/// on x and y would move a view).
///
/// Rest: the motion is at rest once, on both axes, the displacement from the target is at most
/// `restDistance` and the speed at most `restSpeed` — Flutter's `Tolerance.defaultTolerance`
/// (distance, time and velocity 0.001: https://api.flutter.dev/flutter/physics/Tolerance-class.html),
/// the figure libadwaita's `AdwSpringAnimation` uses as its default `epsilon` too, tested at each
/// evaluated time as Flutter's `SpringSimulation.isDone` does. Chosen over Android's
/// `SpringForce` thresholds (0.75 px and 46.875 px/s for a translation: `DynamicAnimation`'s
/// minimum visible change of 1 px × 0.75, times 62.5 for the speed) because a motion landing on
/// its target at rest then moves by at most 0.001 pt and 0.001 pt/s, below the accuracy the
/// engine promises for the closed form (0.001 pt, 0.01 pt/s), where Android's would jump by
/// up to 0.75 pt. An undamped spring (ζ = 0) never rests.
public struct SpringMotion: Equatable, Sendable {
  /// Most displacement from the target at rest, per axis (pt).
  public static let restDistance = 1e-3
  /// Most speed at rest, per axis (pt/s).
  public static let restSpeed = 1e-3

  public let parameters: SpringParameters
  public let target: Point
  /// The displacement from the target at t = 0.
  public let initialDisplacement: Vector
  public let initialVelocity: Vector
  public let solution: SpringSolution

  /// The motion from `start`, moving at `velocity`, toward `target`.
  public init(
    _ parameters: SpringParameters, from start: Point, velocity: Vector, to target: Point
  ) {
    self.parameters = parameters
    self.target = target
    initialDisplacement = start - target
    initialVelocity = velocity
    solution = SpringSolution(parameters)
  }

  /// Position and velocity at `t` seconds (one evaluation of the solution for both axes).
  public func state(at t: Double) -> (position: Point, velocity: Vector) {
    state(coefficients: solution.coefficients(at: t))
  }

  /// Position and velocity at the time of `coefficients` (`solution.coefficients(at: t)`): one
  /// evaluation serves every motion of the same spring at that time.
  public func state(coefficients: (c: Double, s: Double)) -> (position: Point, velocity: Vector) {
    let (c, s) = coefficients
    let x = solution.state(
      c: c, s: s, displacement: initialDisplacement.dx, velocity: initialVelocity.dx)
    let y = solution.state(
      c: c, s: s, displacement: initialDisplacement.dy, velocity: initialVelocity.dy)
    return (
      Point(x: target.x + x.displacement, y: target.y + y.displacement),
      Vector(dx: x.velocity, dy: y.velocity)
    )
  }

  public func position(at t: Double) -> Point { state(at: t).position }
  public func velocity(at t: Double) -> Vector { state(at: t).velocity }

  /// Whether a point at `position` moving at `velocity` is at rest on `target` (both axes
  /// within `restDistance` and `restSpeed`).
  public static func isAtRest(_ position: Point, velocity: Vector, on target: Point) -> Bool {
    abs(position.x - target.x) <= restDistance && abs(position.y - target.y) <= restDistance
      && abs(velocity.dx) <= restSpeed && abs(velocity.dy) <= restSpeed
  }

  /// Whether the motion is at rest at `t`.
  public func isAtRest(at t: Double) -> Bool {
    let (position, velocity) = state(at: t)
    return Self.isAtRest(position, velocity: velocity, on: target)
  }
}
