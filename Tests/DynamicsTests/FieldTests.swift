import Dynamics
import Glibc
import Primitives
import Testing

/// One internal step.
private let h = DynamicAnimator.stepInterval

/// An animator with `field` over `items`, and an item behavior setting their density and charge
/// (and giving them `velocity`, pt/s).
private func scene(
  _ field: FieldBehavior, _ items: [DynamicItem], density: Double = 1, charge: Double = 0,
  resistance: Double = 0, velocity: Vector = .zero
) -> DynamicAnimator {
  let a = DynamicAnimator()
  for i in items { field.addItem(i) }
  let p = properties(items) {
    $0.density = density
    $0.charge = charge
    $0.resistance = resistance
  }
  a.addBehavior(p)
  a.addBehavior(field)
  if velocity != .zero { for i in items { p.addLinearVelocity(velocity, for: i) } }
  return a
}

/// Steps internal steps one at a time for `seconds`, calling `each` after every step.
private func stepEach(_ a: DynamicAnimator, seconds: Double, _ each: () -> Void = {}) {
  for _ in 0..<Int((seconds / h).rounded()) {
    a.step(h)
    each()
  }
}

private func field(
  _ kind: FieldKind, at position: Point = .zero, _ set: (FieldBehavior) -> Void = { _ in }
)
  -> FieldBehavior
{
  let f = FieldBehavior(kind: kind)
  f.position = position
  set(f)
  return f
}

@Suite("Field behavior")
struct FieldTests {
  @Test func defaultsAreUIKits() {
    for kind in FieldKind.allCases where kind != .custom {
      let f = FieldBehavior(kind: kind)
      #expect(f.kind == kind && f.strength == 1 && f.falloff == 0 && f.region == .infinite)
      #expect(f.position == .zero && f.minimumRadius == FieldBehavior.defaultMinimumRadius)
      #expect(f.seed == 0)
    }
    #expect(FieldBehavior(kind: .linearGravity).direction == Vector(dx: 0, dy: 1))
    #expect(FieldBehavior(kind: .velocity).direction == .zero)
    #expect(
      FieldBehavior(kind: .noise).smoothness == 1 && FieldBehavior(kind: .noise).animationSpeed == 1
    )
    #expect(
      FieldBehavior(kind: .drag).smoothness == 0 && FieldBehavior(kind: .drag).animationSpeed == 0)
    #expect(FieldBehavior(evaluation: { _, _, _, _, _, _ in .zero }).kind == .custom)
    #expect(
      FieldKind.allCases.map(\.rawValue) == [
        "linear_gravity", "radial_gravity", "drag", "velocity", "noise", "turbulence", "spring",
        "electric", "magnetic", "vortex", "custom",
      ])
  }

  @Test func settersIgnoreNonFiniteAndClampIntoRange() {
    let f = FieldBehavior(kind: .radialGravity)
    f.strength = .nan
    f.falloff = .infinity
    f.position = Point(x: .nan, y: 3)
    f.direction = Vector(dx: 1, dy: -.infinity)
    #expect(f.strength == 1 && f.falloff == 0 && f.position == .zero && f.direction == .zero)
    f.strength = 1e300
    f.falloff = -99
    f.minimumRadius = -5
    f.smoothness = 7
    f.animationSpeed = -1
    f.position = Point(x: 1e30, y: -1e30)
    f.direction = Vector(dx: -1e30, dy: 2)
    #expect(f.strength == FieldBehavior.strengthRange.upperBound)
    #expect(f.falloff == FieldBehavior.falloffRange.lowerBound)
    #expect(f.minimumRadius == 0 && f.smoothness == 1 && f.animationSpeed == 0)
    #expect(f.position == Point(x: 1e7, y: -1e7) && f.direction == Vector(dx: -1e6, dy: 2))
    f.region = .radius(-1)
    #expect(f.region == .infinite)
    f.region = .size(Size(width: 10, height: 20))
    #expect(f.region == .size(Size(width: 10, height: 20)))
  }

  /// A parameter change resumes a paused animator and wakes the field's sleeping items.
  @Test func parameterChangeWakesItsItems() {
    let box = item(x: 0, y: 0)
    let f = field(.linearGravity) { $0.strength = 0 }
    let a = scene(f, [box])
    runUntilRest(a)
    #expect(!a.isRunning)
    f.strength = 1
    #expect(a.isRunning)
    run(a, seconds: 0.5)
    #expect(box.center.y > 100)
  }

  /// Force against the law a = s·1000 pt/s² · (max(d, r_min)/100)^−falloff toward the position.
  @Test(arguments: [0.0, 1.0, 2.0])
  func radialGravityFollowsItsFalloffLaw(falloff: Double) {
    let f = field(.radialGravity, at: Point(x: 10, y: 20)) {
      $0.falloff = falloff
      $0.minimumRadius = 80
      $0.strength = 0.5
    }
    let mass = 2.5
    for d in [10.0, 50, 80, 100, 150, 400, 1000] {
      let p = Point(x: 10 + d * 0.6, y: 20 - d * 0.8)
      let force = f.force(at: p, velocity: .zero, mass: mass, charge: 0)
      let law = 0.5 * 1000 * pow(max(d, 80) / 100, -falloff)
      let expected = Vector(dx: -0.6, dy: 0.8) * (law * mass / 100)
      #expect((force - expected).length <= 1e-9 * expected.length, "d \(d)")
    }
    // The same law, simulated: after one step the item moves toward the position at h·a.
    let box = item(x: 10 + 300, y: 20)
    let a = scene(f, [box], density: 3)
    a.step(h)
    let law = 0.5 * 1000 * pow(3.0, -falloff)
    #expect(abs(box.velocity.dx + law * h) <= 1e-5 * law * h + 1e-4)
    #expect(box.velocity.dy == 0)
  }

  @Test func radialGravityRepelsWithNegativeStrengthAndLeavesTheCenterAlone() {
    let f = field(.radialGravity, at: Point(x: 100, y: 100)) { $0.strength = -1 }
    #expect(f.force(at: Point(x: 200, y: 100), velocity: .zero, mass: 1, charge: 0).dx > 0)
    #expect(f.force(at: Point(x: 100, y: 100), velocity: .zero, mass: 1, charge: 0) == .zero)
  }

  /// Hooke's law k = strength N/m: a 100×100 item oscillates with period 2π√(m/k), so four
  /// times the density doubles it. Periods measured from upward zero crossings over 4 s.
  @Test func springPeriodFollowsTheMass() {
    let k = 40.0
    for density in [1.0, 4.0] {
      let f = field(.spring, at: Point(x: 0, y: 0)) { $0.strength = k }
      let box = item(x: 60, y: 0)
      let a = scene(f, [box], density: density)
      var crossings: [Double] = []
      var previous = box.center.x
      var t = 0.0
      stepEach(a, seconds: 5) {
        t += h
        let x = box.center.x
        if previous < 0 && x >= 0 { crossings.append(t - h * x / (x - previous)) }
        previous = x
      }
      #expect(crossings.count >= 2)
      let measured = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
      let analytic = 2 * Double.pi * (density / k).squareRoot()
      #expect(abs(measured - analytic) / analytic < 0.005, "density \(density): \(measured)")
      // Energy is kept: the swing still reaches 60 pt.
      var reach = 0.0
      stepEach(a, seconds: analytic) { reach = max(reach, box.center.x) }
      #expect(abs(reach - 60) < 0.2)
    }
  }

  /// Drag of strength s decays velocity as e^(−s·t) (exactly, per step), like resistance s
  /// (Box2D's v/(1 + h·r), 0.8% slower at s = 2).
  @Test func dragDampsLikeResistance() {
    let f = field(.drag) { $0.strength = 2 }
    let dragged = item("dragged", x: 0, y: 0)
    let a = scene(f, [dragged], velocity: Vector(dx: 300, dy: -400))
    let resisted = item("resisted", x: 0, y: 0)
    let b = DynamicAnimator()
    let r = properties([resisted]) { $0.resistance = 2 }
    b.addBehavior(r)
    r.addLinearVelocity(Vector(dx: 300, dy: -400), for: resisted)
    run(a, seconds: 1.5)
    run(b, seconds: 1.5)
    let rate = log(500 / dragged.velocity.length) / 1.5
    let resistanceRate = log(500 / resisted.velocity.length) / 1.5
    #expect(abs(rate - 2) < 1e-4)
    #expect(abs(rate - resistanceRate) / 2 < 0.01)
    // It slows the item along its path, never turning it.
    #expect(abs(dragged.velocity.dx / dragged.velocity.dy + 0.75) < 1e-4)
  }

  /// The velocity field's velocity wins over gravity and resistance, every step.
  @Test func velocityFieldHoldsItsVelocityAgainstGravity() {
    let f = field(.velocity) { $0.direction = Vector(dx: 50, dy: -20) }
    let box = item(x: 0, y: 300)
    let a = scene(f, [box], resistance: 3)
    a.addBehavior(GravityBehavior(items: [box]))
    stepEach(a, seconds: 1) {
      #expect(abs(box.velocity.dx - 50) < 1e-3 && abs(box.velocity.dy + 20) < 1e-3)
    }
    #expect(abs(box.center.x - 50) < 0.01 && abs(box.center.y - 280) < 0.01)
  }

  /// Leaving the field's region, an item keeps the field's velocity (and gravity takes over).
  @Test func velocityFieldActsOnlyInsideItsRegion() {
    let f = field(.velocity, at: Point(x: 0, y: 0)) {
      $0.direction = Vector(dx: 100, dy: 0)
      $0.region = .size(Size(width: 100, height: 1000))
    }
    let box = item(x: 0, y: 0, w: 10, h: 10)
    let a = scene(f, [box])
    a.addBehavior(GravityBehavior(items: [box]))
    run(a, seconds: 0.49)
    #expect(abs(box.velocity.dy) < 1e-3)
    run(a, seconds: 0.2)
    #expect(box.center.x > 50 && abs(box.velocity.dx - 100) < 1e-3 && box.velocity.dy > 100)
  }

  /// An item released at rest at radius r circles the position, counter-clockwise on screen,
  /// at angular acceleration = strength rad/s².
  @Test(arguments: [1.0, -2.0])
  func vortexMovesAnItemOnACircle(strength: Double) {
    let center = Point(x: 100, y: 200)
    let f = field(.vortex, at: center) { $0.strength = strength }
    let box = item(x: 220, y: 200, w: 40, h: 40)
    let a = scene(f, [box])
    var worst = 0.0
    var turned = 0.0
    var angle = 0.0
    stepEach(a, seconds: 3) {
      let o = box.center - center
      worst = max(worst, abs(o.length - 120) / 120)
      // Screen angle, counter-clockwise positive (y points down).
      let now = atan2(-o.dy, o.dx)
      var step = now - angle
      if step > .pi { step -= 2 * .pi }
      if step < -.pi { step += 2 * .pi }
      turned += step
      angle = now
    }
    #expect(worst < 0.001, "radius drifted \(worst)")
    // θ = ½·α·t² with α = strength: 4.5 rad (strength 1) after 3 s; first order in h.
    let analytic = 0.5 * strength * 9
    #expect(abs(turned - analytic) < 0.02 * abs(analytic), "turned \(turned)")
    #expect(abs(box.velocity.length - abs(strength) * 3 * 120) < 0.02 * abs(strength) * 360)
  }

  /// A tangential force alone would fling the item out: the force has a centripetal part.
  @Test func vortexForceIsTangentialAtRestAndCentripetalInMotion() {
    let f = field(.vortex, at: .zero) { $0.strength = 3 }
    let atRest = f.force(at: Point(x: 100, y: 0), velocity: .zero, mass: 2, charge: 0)
    // s·d·m = 3·100·2 pt/s²·kg = 6 N, toward −y (counter-clockwise on screen).
    #expect(abs(atRest.dx) < 1e-3 && abs(atRest.dy + 6) < 0.01)
    let moving = f.force(
      at: Point(x: 100, y: 0), velocity: Vector(dx: 0, dy: -200), mass: 2, charge: 0)
    // m·v²/d = 2·40 000/100 pt/s²·kg = 8 N toward the center, whichever way it goes round.
    #expect(abs(moving.dx + 8) < 0.2)
    let opposite = f.force(
      at: Point(x: 100, y: 0), velocity: Vector(dx: 0, dy: 200), mass: 2, charge: 0)
    #expect(abs(opposite.dx + 8) < 0.2)
    // Moving straight out, nothing pulls it back in.
    let outward = f.force(
      at: Point(x: 100, y: 0), velocity: Vector(dx: 50, dy: 0), mass: 2, charge: 0)
    #expect(abs(outward.dx) < 0.01 && abs(outward.dy + 6) < 0.05)
  }

  /// q·v × B with B out of the screen: a positive charge moving right turns up the screen
  /// (counter-clockwise) in a positive field, down in a negative one, on a circle of diameter
  /// 2·m·v/(q·s) at constant speed; a neutral item goes straight.
  @Test(arguments: [1.0, -1.0])
  func magneticFieldBendsChargedItemsTheDocumentedWayRound(strength: Double) {
    let f = field(.magnetic) { $0.strength = strength * 4 }
    let charged = item("charged", x: 0, y: 0, w: 100, h: 100)
    let a = scene(f, [charged], density: 2, charge: 1.5, velocity: Vector(dx: 300, dy: 0))
    let neutral = item("neutral", x: 0, y: 500)
    let g = field(.magnetic) { $0.strength = strength * 4 }
    let b = scene(g, [neutral], velocity: Vector(dx: 300, dy: 0))
    // ω = q·s/m = 1.5·4/2 = 3 rad/s: one turn in 2π/3 s, diameter 2·300/3 = 200 pt.
    var minY = 0.0
    var maxY = 0.0
    var first: Double?
    stepEach(a, seconds: 2 * .pi / 3) {
      if first == nil { first = charged.center.y }
      minY = min(minY, charged.center.y)
      maxY = max(maxY, charged.center.y)
    }
    if strength > 0 {
      #expect(first! < 0 && maxY < 0.01)
    } else {
      #expect(first! > 0 && minY > -0.01)
    }
    #expect(abs(maxY - minY - 200) < 0.5, "diameter \(maxY - minY)")
    #expect(charged.center.distance(to: .zero) < 2)
    #expect(abs(charged.velocity.length - 300) < 0.01)
    run(b, seconds: 1)
    #expect(neutral.center.y == 500 && abs(neutral.center.x - 300) < 0.01)
  }

  /// F = q·E, radial from the position: a positive strength repels positive charges and
  /// attracts negative ones, 1 N per unit charge; neutral items stay.
  @Test func electricFieldAttractsOrRepelsByChargeSign() {
    for (charge, sign) in [(2.0, 1.0), (-2.0, -1.0), (0.0, 0.0)] {
      let f = field(.electric, at: Point(x: 0, y: 0))
      let box = item(x: 150, y: 0)
      let a = scene(f, [box], density: 0.5, charge: charge)
      run(a, seconds: 0.2)
      // a = q·1 N / 0.5 kg = 4 m/s² = 400 pt/s²: 8 pt in 0.2 s (plus first-order Euler).
      let moved = box.center.x - 150
      #expect(abs(moved - sign * 0.5 * 400 * 0.04) < 0.5, "charge \(charge): \(moved)")
    }
    let f = field(.electric)
    f.strength = 3
    let force = f.force(at: Point(x: 0, y: -50), velocity: .zero, mass: 1, charge: 0.5)
    #expect(abs(force.dx) < 1e-12 && abs(force.dy + 1.5) < 1e-12)
  }

  /// A linear gravity field is UIGravityBehavior's acceleration for the same vector.
  @Test func linearGravityMatchesGravityBehavior() {
    let direction = Vector(dx: 0.6, dy: -0.8)
    let f = field(.linearGravity) {
      $0.direction = direction
      $0.strength = 1.5
    }
    let fielded = item("fielded", x: 0, y: 0, w: 30, h: 70)
    let a = scene(f, [fielded], density: 7)
    let pulled = item("pulled", x: 0, y: 0, w: 30, h: 70)
    let b = DynamicAnimator()
    let g = GravityBehavior(items: [pulled])
    g.gravityDirection = direction * 1.5
    b.addBehavior(g)
    run(a, seconds: 1)
    run(b, seconds: 1)
    #expect((fielded.center - pulled.center).length < 1e-3)
    #expect(abs(fielded.velocity.dx - 900) < 0.01 && abs(fielded.velocity.dy + 1200) < 0.01)
  }

  private func noiseRun(_ kind: FieldKind, seed: UInt64) -> [Point] {
    let f = field(kind) {
      $0.seed = seed
      $0.strength = 3
      $0.smoothness = 0.3
      $0.animationSpeed = 2
    }
    let boxes = (0..<4).map { item("n\($0)", x: Double($0) * 70, y: 40, w: 20, h: 20) }
    let a = scene(f, boxes, velocity: Vector(dx: 40, dy: 10))
    var path: [Point] = []
    stepEach(a, seconds: 1) { path += boxes.map(\.center) }
    return path
  }

  /// Same seed, same motion bit for bit; another seed, another motion.
  @Test(arguments: [FieldKind.noise, .turbulence])
  func noiseIsDeterministicAndSeeded(kind: FieldKind) {
    let first = noiseRun(kind, seed: 7)
    #expect(first == noiseRun(kind, seed: 7))
    let other = noiseRun(kind, seed: 8)
    #expect(first != other)
    #expect(zip(first, other).map { ($0 - $1).length }.max()! > 1)
  }

  /// Noise is at most strength × 100 pt/s² per component, centered on zero, smooth in space,
  /// still when frozen and moving when animated; turbulence scales it by the speed.
  @Test func noiseIsBoundedAndTurbulenceScalesWithSpeed() {
    let f = field(.noise) {
      $0.strength = 2
      $0.smoothness = 0
    }
    var sum = Vector.zero
    var peak = 0.0
    var n = 0
    for i in 0..<80 {
      for j in 0..<80 {
        let p = Point(x: Double(i) * 3.7, y: Double(j) * 4.3)
        let a = f.force(at: p, velocity: .zero, mass: 1, charge: 0) * 100
        peak = max(peak, abs(a.dx), abs(a.dy))
        sum = sum + a
        n += 1
      }
    }
    #expect(peak <= 200 && peak > 100)
    #expect((sum * (1 / Double(n))).length < 20)
    // Neighbouring points 0.5 pt apart (1/20 of a 10 pt cell) differ little.
    let p = Point(x: 12.3, y: 45.6)
    let near = f.force(at: p, velocity: .zero, mass: 1, charge: 0)
    let next = f.force(at: p + Vector(dx: 0.5, dy: 0), velocity: .zero, mass: 1, charge: 0)
    #expect((near - next).length < 0.4)
    // Mass is ignored: the acceleration is the same, so the force scales with the mass.
    #expect((f.force(at: p, velocity: .zero, mass: 3, charge: 0) - near * 3).length < 1e-12)
    let t = field(.turbulence) { $0.smoothness = 0 }
    #expect(t.force(at: p, velocity: .zero, mass: 1, charge: 0) == .zero)
    let slow = t.force(at: p, velocity: Vector(dx: 30, dy: 40), mass: 1, charge: 0)
    let fast = t.force(at: p, velocity: Vector(dx: -60, dy: 80), mass: 1, charge: 0)
    #expect(slow != .zero && (fast - slow * 2).length < 1e-12)
  }

  @Test func animationSpeedZeroFreezesTheNoise() {
    let frozen = field(.noise) { $0.animationSpeed = 0 }
    let animated = field(.noise) { $0.animationSpeed = 3 }
    let boxes = [item("a", x: 37, y: 11), item("b", x: 37, y: 11)]
    let a = DynamicAnimator()
    frozen.addItem(boxes[0])
    animated.addItem(boxes[1])
    a.addBehavior(frozen)
    a.addBehavior(animated)
    let p = Point(x: 37, y: 11)
    let before = (
      frozen.force(at: p, velocity: .zero, mass: 1, charge: 0),
      animated.force(at: p, velocity: .zero, mass: 1, charge: 0)
    )
    run(a, seconds: 0.5)
    #expect(frozen.force(at: p, velocity: .zero, mass: 1, charge: 0) == before.0)
    #expect(animated.force(at: p, velocity: .zero, mass: 1, charge: 0) != before.1)
  }

  /// A moving item feels the field only while its center is inside the region, for each kind
  /// of region.
  @Test(arguments: [
    Region.radius(60),
    .size(Size(width: 120, height: 40)),
    .inverse(.radius(60)),
    .union(.radius(30), .size(Size(width: 200, height: 10))),
    .intersection(.radius(60), .size(Size(width: 60, height: 200))),
    .difference(.radius(80), .radius(40)),
  ])
  func nothingActsOutsideItsRegion(region: Region) {
    let center = Point(x: 0, y: 0)
    let f = field(.linearGravity, at: center) {
      $0.region = region
      $0.direction = Vector(dx: 0, dy: 0.2)
    }
    let box = item(x: -150, y: 0, w: 10, h: 10)
    let a = scene(f, [box], velocity: Vector(dx: 400, dy: 0))
    var inside = 0
    var outside = 0
    for _ in 0..<90 {
      let wasInside = region.contains(box.center - center)
      let vy = box.velocity.dy
      a.step(h)
      let change = box.velocity.dy - vy
      if wasInside {
        inside += 1
        #expect(abs(change - 200 * h) < 1e-3)
      } else {
        outside += 1
        #expect(change == 0)
      }
    }
    #expect(inside > 0 && outside > 0)
  }

  @Test func anchoredItemsAreLeftAlone() {
    let box = item(x: 50, y: 0)
    let a = DynamicAnimator()
    a.addBehavior(properties([box]) { $0.anchored = true })
    a.addBehavior(field(.radialGravity, at: Point(x: 300, y: 0)) { $0.addItem(box) })
    a.addBehavior(
      field(.velocity) {
        $0.direction = Vector(dx: 10, dy: 0)
        $0.addItem(box)
      })
    run(a, seconds: 0.5)
    #expect(box.center == Point(x: 50, y: 0) && box.velocity == .zero)
  }

  /// The closure gets the item's state and the step; its force (N) is applied, a non-finite
  /// one is none, and a huge one is cut to `maximumAcceleration`.
  @Test func customFieldAppliesItsClosure() {
    var seen: (Point, Vector, Double, Double, Double)?
    let f = FieldBehavior(evaluation: { field, p, v, m, q, dt in
      seen = (p, v, m, q, dt)
      return Vector(dx: field.strength * 2, dy: 0)
    })
    let box = item(x: 10, y: 20, w: 50, h: 100)
    let a = scene(f, [box], density: 4, charge: -3)
    a.step(h)
    #expect(seen?.0 == Point(x: 10, y: 20) && seen?.2 == 2 && seen?.3 == -3 && seen?.4 == h)
    // 2 N on 2 kg: 100 pt/s².
    #expect(abs(box.velocity.dx - 100 * h) < 1e-4)
    let bad = FieldBehavior(evaluation: { _, _, _, _, _, _ in Vector(dx: .nan, dy: 1) })
    #expect(bad.force(at: .zero, velocity: .zero, mass: 1, charge: 0) == .zero)
    let huge = FieldBehavior(evaluation: { _, _, _, _, _, _ in Vector(dx: 0, dy: 1e300) })
    let cut = huge.force(at: .zero, velocity: .zero, mass: 2, charge: 0)
    #expect(abs(cut.dy - 2 * FieldBehavior.maximumAcceleration / 100) < 1e-3)
  }

  /// The most extreme accepted parameters keep every number finite.
  @Test(arguments: FieldKind.allCases.filter { $0 != .custom })
  func extremeParametersStayFinite(kind: FieldKind) {
    let f = field(kind, at: Point(x: 3, y: 4)) {
      $0.strength = -1e6
      $0.falloff = 10
      $0.minimumRadius = 0
      $0.direction = Vector(dx: 1e6, dy: -1e6)
      $0.smoothness = 0
      $0.animationSpeed = 1000
    }
    let boxes = [
      item("a", x: 3, y: 4, w: 1, h: 1), item("b", x: 3.001, y: 4, w: 1, h: 1),
      item("c", x: 9e5, y: -9e5),
    ]
    let a = scene(f, boxes, density: 1e-6, charge: 1e6, velocity: Vector(dx: 1e5, dy: 1))
    run(a, seconds: 0.5)
    for b in boxes { #expect(b.center.isFinite && b.velocity.isFinite) }
    for d in [0.0, 1e-9, 1, 1e7] {
      let force = f.force(
        at: Point(x: 3 + d, y: 4), velocity: Vector(dx: 1e7, dy: -1e7), mass: 1e-10, charge: -1e6)
      #expect(force.isFinite)
    }
  }
}

@Suite("Region")
struct RegionTests {
  private let table: [(Region, Vector, Bool)] = [
    (.infinite, Vector(dx: 1e9, dy: -1e9), true),
    (.radius(10), Vector(dx: 6, dy: 8), true),  // on the edge
    (.radius(10), Vector(dx: 6, dy: 8.01), false),
    (.radius(0), .zero, true),
    (.size(Size(width: 20, height: 10)), Vector(dx: -10, dy: 5), true),
    (.size(Size(width: 20, height: 10)), Vector(dx: 0, dy: 5.1), false),
    (.size(Size(width: 20, height: 10)), Vector(dx: 10.1, dy: 0), false),
    (.inverse(.radius(10)), Vector(dx: 0, dy: 11), true),
    (.inverse(.radius(10)), Vector(dx: 0, dy: 9), false),
    (Region.empty, .zero, false),
    (.union(.radius(5), .size(Size(width: 100, height: 2))), Vector(dx: 40, dy: 0), true),
    (.union(.radius(5), .size(Size(width: 100, height: 2))), Vector(dx: 0, dy: 4), true),
    (.union(.radius(5), .size(Size(width: 100, height: 2))), Vector(dx: 40, dy: 4), false),
    (.intersection(.radius(10), .size(Size(width: 4, height: 40))), Vector(dx: 0, dy: 9), true),
    (.intersection(.radius(10), .size(Size(width: 4, height: 40))), Vector(dx: 0, dy: 15), false),
    (.intersection(.radius(10), .size(Size(width: 4, height: 40))), Vector(dx: 5, dy: 0), false),
    (.difference(.radius(10), .radius(5)), Vector(dx: 7, dy: 0), true),
    (.difference(.radius(10), .radius(5)), Vector(dx: 3, dy: 0), false),
    (.difference(.radius(10), .radius(5)), Vector(dx: 12, dy: 0), false),
    (.difference(.infinite, .inverse(.radius(1))), Vector(dx: 0.5, dy: 0), true),
  ]

  @Test func containsTable() {
    for (region, offset, expected) in table {
      #expect(region.contains(offset) == expected, "\(region) \(offset)")
    }
  }

  @Test func validateRefusesNonFiniteNegativeAndDeepRegions() throws {
    for bad: Region in [
      .radius(.nan), .radius(-1), .size(Size(width: 1, height: .infinity)),
      .union(.infinite, .size(Size(width: -2, height: 1))), .radius(2e9),
    ] {
      #expect(throws: DynamicsError.self) { try Region.validate(bad) }
    }
    var deep = Region.radius(1)
    for _ in 1..<Region.maximumDepth { deep = .inverse(deep) }
    #expect(deep.depth == 16)
    try Region.validate(deep)
    #expect(throws: DynamicsError.self) { try Region.validate(.union(.infinite, deep)) }
    let balanced = Region.union(.difference(.radius(1), .infinite), .radius(3))
    #expect(balanced.depth == 3)
  }
}
