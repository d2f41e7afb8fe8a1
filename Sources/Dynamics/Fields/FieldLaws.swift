import Glibc
import Primitives

/// The laws of the field kinds (see the table on `FieldBehavior`).
///
/// Box2D integrates a force over a step as v += h·F/m, then x += h·v (semi-implicit Euler,
/// h = 1/120 s). That is accurate for forces that do not depend on the velocity, so gravity,
/// springs, electric and noise fields are plain forces. Three laws that do depend on it are
/// written as the force that produces their exact motion over one step instead, so that they
/// neither gain nor lose energy step by step:
/// - drag: the velocity is multiplied by e^(−s·h) each step (exponential decay at rate s at
///   every step size; a plain −s·v would reverse the velocity once s·h > 1);
/// - magnetic: the velocity is turned by the angle ω·h, ω = q·s/m (speed kept exactly; a
///   plain q·v × B adds (ω·h)² of kinetic energy every step);
/// - vortex: the item's motion about `position` is carried along the circle it is on: each
///   step repeats the item's last turn about `position` and its last change of distance, plus
///   the angular acceleration. A tangential force alone flings an item outward on a spiral,
///   since nothing would supply the centripetal force v²/d; the issue asks for circles. UIKit's
///   "combine with radial gravity to pull items into a spinning vortex" still holds, because
///   other forces add to this one.
extension FieldBehavior {
  /// The largest falloff factor used (a distance ratio of 10⁻¹² at falloff 1): past it the
  /// force is cut by `maximumAcceleration` anyway, and keeping it finite keeps 0 × factor 0.
  static let maximumFalloffFactor = 1e12
  /// The acceleration of one UIKit Newton on mass 1, in pt/s².
  static let newtonAcceleration = Units.pointsPerMeter
  /// The largest angle (radians) a magnetic or vortex field turns a velocity by in one step.
  static let maximumTurnPerStep = Double.pi / 2

  /// The falloff factor at distance `d` (pt) from `position`.
  func falloffFactor(distance d: Double) -> Double {
    guard falloff != 0 else { return 1 }
    let f = pow(max(d, minimumRadius) / Self.referenceDistance, -falloff)
    return f.isFinite ? min(f, Self.maximumFalloffFactor) : Self.maximumFalloffFactor
  }

  /// A velocity field's velocity at `point` (pt/s), at most `maximumSpeed`.
  func velocityTarget(at point: Point) -> Vector {
    let v = direction * (strength * falloffFactor(distance: (point - position).length))
    let speed = hypot(v.dx, v.dy)
    return speed > Self.maximumSpeed ? v * (Self.maximumSpeed / speed) : v
  }

  /// The feature size of noise and turbulence: 10 pt × 32^smoothness (10 … 320 pt).
  var noiseCellSize: Double { 10 * pow(32, smoothness) }

  /// The noise vector at an offset from `position` and a time: each component within −1…1.
  func noise(at offset: Vector, time: Double) -> Vector {
    let generator = GradientNoise(seed: seed)
    let cell = noiseCellSize
    let x = offset.dx / cell
    let y = offset.dy / cell
    let z = time * animationSpeed
    return Vector(
      dx: generator.value(x, y, z, channel: 0), dy: generator.value(x, y, z, channel: 1))
  }

  /// The force (N) of the field's law on an item inside its region, at simulated time `time`.
  func evaluate(at point: Point, velocity v: Vector, mass m: Double, charge q: Double, time: Double)
    -> Vector
  {
    let h = DynamicAnimator.stepInterval
    let offset = point - position
    let d = offset.length
    let s = strength * falloffFactor(distance: d)
    switch kind {
    case .linearGravity:
      return accelerating(m, direction * (s * Units.gravityAcceleration))
    case .radialGravity:
      guard d > 0 else { return .zero }
      return accelerating(m, offset * (-s * Units.gravityAcceleration / d))
    case .drag:
      // Exact exponential decay over the step; the exponent is bounded so that a strongly
      // negative (accelerating) drag stays finite before the acceleration limit cuts it.
      let change = exp(min(-s * h, 50)) - 1
      return accelerating(m, v * (change / h))
    case .velocity:
      return accelerating(m, (velocityTarget(at: point) - v) * (1 / h))
    case .noise:
      return accelerating(m, noise(at: offset, time: time) * (s * Self.newtonAcceleration))
    case .turbulence:
      return accelerating(m, noise(at: offset, time: time) * (s * v.length))
    case .spring:
      // k = s N/m. A spring stiffer than ω·h = 1 (period 2π·h, about 6 steps) cannot be
      // followed by a 1/120 s step and would ring up; it is softened to that.
      var k = s
      if m > 0 { k = min(max(k, -m / (h * h)), m / (h * h)) }
      return limited(m, offset * (-k / Units.pointsPerMeter))
    case .electric:
      guard d > 0 else { return .zero }
      return limited(m, offset * (s * q / d))
    case .magnetic:
      return magnetic(v, mass: m, charge: q, strength: s, step: h)
    case .vortex:
      return vortex(offset, distance: d, velocity: v, mass: m, strength: s, step: h)
    case .custom:
      guard let evaluation else { return .zero }
      let f = evaluation(self, point, v, m, q, h)
      return f.isFinite ? limited(m, f) : .zero
    }
  }

  /// F = q·v × B with B = s out of the screen: a positive charge in a positive field turns
  /// counter-clockwise on screen (y points down, so toward −y when moving toward +x).
  private func magnetic(
    _ v: Vector, mass m: Double, charge q: Double, strength s: Double, step h: Double
  )
    -> Vector
  {
    guard q != 0, s != 0, v != .zero else { return .zero }
    guard m > 0 else {
      // No mass to turn: the plain Lorentz force, in N for a velocity in m/s.
      return limited(m, Vector(dx: v.dy, dy: -v.dx) * (q * s / Units.pointsPerMeter))
    }
    let turn = min(max(q * s / m * h, -Self.maximumTurnPerStep), Self.maximumTurnPerStep)
    // `rotated(by:)` turns clockwise on screen for a positive angle.
    return accelerating(m, (v.rotated(by: -turn) - v) * (1 / h))
  }

  /// Angular acceleration s counter-clockwise on screen (a tangential s·d), carried along the
  /// circle.
  ///
  /// The step the item took last, read back from its velocity (where it was a step ago), is
  /// split into a turn about `position` and a change of distance; the next step repeats both
  /// and adds s·h² to the turn. The force is what makes Box2D take that step. An item at rest
  /// thus starts off tangentially, one moving round keeps its distance (the force includes the
  /// centripetal m·v²/d), and one moving straight out or in keeps doing so.
  private func vortex(
    _ offset: Vector, distance d: Double, velocity v: Vector, mass m: Double, strength s: Double,
    step h: Double
  ) -> Vector {
    guard d > 0, m > 0 else { return .zero }
    let u = offset * (1 / d)
    // Counter-clockwise on screen: from +x toward −y.
    let t = Vector(dx: u.dy, dy: -u.dx)
    let before = offset - v * h
    var turned = 0.0
    var climbed = 0.0
    if before != .zero {
      let cross = before.dx * offset.dy - before.dy * offset.dx
      let dot = before.dx * offset.dx + before.dy * offset.dy
      turned = atan2(-cross, dot)
      climbed = d - before.length
    }
    let swept = min(max(turned + s * h * h, -Self.maximumTurnPerStep), Self.maximumTurnPerStep)
    let moved = (u * cos(swept) + t * sin(swept)) * max(0, d + climbed) - offset
    return accelerating(m, (moved * (1 / h) - v) * (1 / h))
  }

  /// The force (N) giving mass `m` the acceleration `a` (pt/s²), at most `maximumAcceleration`.
  private func accelerating(_ m: Double, _ a: Vector) -> Vector {
    limited(m, a * (m / Self.newtonAcceleration))
  }

  /// `f` cut to the force that accelerates mass `m` at `maximumAcceleration` (unchanged when
  /// there is no mass to accelerate).
  private func limited(_ m: Double, _ f: Vector) -> Vector {
    guard f.isFinite else { return .zero }
    guard m > 0 else { return f }
    let cap = m * Self.maximumAcceleration / Self.newtonAcceleration
    let length = hypot(f.dx, f.dy)  // without overflow: a closure may return 1e300
    return length > cap ? f * (cap / length) : f
  }
}
