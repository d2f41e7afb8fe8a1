import Primitives

extension DynamicAnimator {
  /// Gives `body` the velocity that carries its point at `offset` (from the item's center, in
  /// the item's frame) onto `target` in one internal step, the way a finger holding that point
  /// moves it.
  ///
  /// The change is the impulse at that point that makes the point's velocity
  /// `(target − point) / stepInterval` (a point constraint solved once, exactly): an item held
  /// off its center turns as it is pulled, one that does not rotate just translates. Set before
  /// the solver runs, so joints (a rail) and contacts (a boundary) still have the last word: a
  /// held item stops at a boundary instead of going through it.
  func drive(_ body: ItemBody, offset: Vector, to target: Point) {
    guard body.isDynamic, target.isFinite else { return }
    let s = body.state
    let point = body.worldPoint(offset: offset)
    let r = point - body.worldCenterOfMass
    var gap = target - point
    // Box2D keeps positions in 32-bit floats: a gap below their resolution at this distance
    // from the origin is no gap (chasing it would keep a held item trembling, never at rest).
    let metres = Float((abs(point.x) + abs(point.y)) / Units.pointsPerMeter)
    let resolution = 4 * Double(metres.ulp) * Units.pointsPerMeter
    if gap.length < resolution { gap = .zero }
    let wanted = gap * (1 / Self.stepInterval)
    let now = s.velocity + Vector(dx: -s.angularVelocity * r.dy, dy: s.angularVelocity * r.dx)
    let change = wanted - now
    let inverseMass = 1 / body.mass
    let inverseInertia = body.allowsRotation ? inverseMass / body.inertiaPerMass : 0
    // The point's effective inverse mass: K = 1/m + (1/I)·[r.y², −r.x·r.y; −r.x·r.y, r.x²].
    let k11 = inverseMass + inverseInertia * r.dy * r.dy
    let k12 = -inverseInertia * r.dx * r.dy
    let k22 = inverseMass + inverseInertia * r.dx * r.dx
    let determinant = k11 * k22 - k12 * k12
    guard determinant > 0, determinant.isFinite else { return }
    let impulse = Vector(
      dx: (k22 * change.dx - k12 * change.dy) / determinant,
      dy: (k11 * change.dy - k12 * change.dx) / determinant)
    var angular = s.angularVelocity + inverseInertia * (r.dx * impulse.dy - r.dy * impulse.dx)
    // Box2D turns a body at most π/2 per step (b2_maxRotation); stay under it, so that the turn
    // below is the one that happens.
    let maxAngular = 0.49 * Double.pi / Self.stepInterval
    angular = min(max(angular, -maxAngular), maxAngular)
    // The impulse decides how the item turns; its velocity is then the one that lands the
    // point exactly on the target after the step turns it (first order alone would leave
    // |r|·(ω·h)²/2 behind a quickly swinging item).
    let turned = r.rotated(by: angular * Self.stepInterval)
    var velocity = (point + gap - (body.worldCenterOfMass + turned)) * (1 / Self.stepInterval)
    // Box2D damps velocities (resistance) before it moves the body: ask for that much more.
    velocity = velocity * (1 + Self.stepInterval * body.properties.resistance)
    angular *= 1 + Self.stepInterval * body.properties.angularResistance
    guard velocity.isFinite, angular.isFinite else { return }
    setVelocity(of: body, velocity, angular: angular, resuming: false)
  }
}
