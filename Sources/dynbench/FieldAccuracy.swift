import ArgumentParser
import Dynamics
import Glibc
import Primitives

/// Each field kind's simulated motion against its law's analytic solution.
struct FieldAccuracy: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "fields",
    abstract: "Measure every field kind's simulated motion against its analytic law.")

  private static let h = DynamicAnimator.stepInterval

  func run() throws {
    print("kind            quantity               max |sim − law|  relative  run")
    try linearGravity()
    try radialGravity()
    try drag()
    try velocity()
    try spring()
    try electric()
    try magnetic()
    try vortex()
    try noise(.noise)
    try noise(.turbulence)
  }

  /// The largest gap between simulated and analytic values, and the largest analytic value.
  private struct Gap {
    var absolute = 0.0
    var scale = 0.0
    mutating func add(_ simulated: Vector, _ law: Vector) {
      absolute = max(absolute, (simulated - law).length)
      scale = max(scale, law.length)
    }
    mutating func add(_ simulated: Double, _ law: Double) {
      add(Vector(dx: simulated, dy: 0), Vector(dx: law, dy: 0))
    }
  }

  private func report(_ kind: String, _ quantity: String, _ gap: Gap, _ run: String) {
    let relative = gap.scale > 0 ? "\(r(100 * gap.absolute / gap.scale, 4))%" : "—"
    let columns: [(String, Int)] = [
      (kind, 16), (quantity, 23), (r(gap.absolute, 5), 17), (relative, 10),
    ]
    var line = ""
    for (text, width) in columns {
      line += text + String(repeating: " ", count: max(1, width - text.count))
    }
    print(line + run)
  }

  /// An animator with `field` over one item at `center`, with its density, charge and velocity.
  private func scene(
    _ field: FieldBehavior, center: Point, size: Double = 100, density: Double = 1,
    charge: Double = 0, resistance: Double = 0, velocity: Vector = .zero
  ) throws -> (DynamicAnimator, DynamicItem) {
    let item = try DynamicItem(
      identifier: "item", center: center, size: Size(width: size, height: size))
    let properties = DynamicItemBehavior(items: [item])
    properties.density = density
    properties.charge = charge
    properties.resistance = resistance
    field.addItem(item)
    let animator = DynamicAnimator()
    animator.addBehavior(properties)
    animator.addBehavior(field)
    if velocity != .zero { properties.addLinearVelocity(velocity, for: item) }
    return (animator, item)
  }

  /// Steps one internal step at a time for `seconds`, calling `each` with the time after it.
  private func steps(_ a: DynamicAnimator, _ seconds: Double, _ each: (Double) -> Void) {
    let n = Int((seconds / Self.h).rounded())
    for i in 1...n {
      a.step(Self.h)
      each(Double(i) * Self.h)
    }
  }

  private func linearGravity() throws {
    let f = FieldBehavior(kind: .linearGravity)
    f.direction = Vector(dx: 0.6, dy: 0.8)
    let (a, box) = try scene(f, center: .zero)
    var position = Gap()
    var speed = Gap()
    steps(a, 1) { t in
      position.add(box.center - .zero, Vector(dx: 0.6, dy: 0.8) * (500 * t * t))
      speed.add(box.velocity.length, 1000 * t)
    }
    report("linear_gravity", "position (pt)", position, "1 s from rest, |direction| 1")
    report("linear_gravity", "speed (pt/s)", speed, "½·g·t·h = 4.167 pt is Euler's lag")
  }

  private func radialGravity() throws {
    let f = FieldBehavior(kind: .radialGravity)
    let (a, box) = try scene(f, center: Point(x: 300, y: 0))
    var distance = Gap()
    steps(a, 0.7) { t in distance.add(box.center.x, 300 - 500 * t * t) }
    report("radial_gravity", "distance (pt)", distance, "falloff 0, from 300 pt at rest, 0.7 s")
    for falloff in [1.0, 2.0] {
      var acceleration = Gap()
      for d in [50.0, 100, 200, 400] {
        let g = FieldBehavior(kind: .radialGravity)
        g.falloff = falloff
        g.minimumRadius = 60
        let (b, item) = try scene(g, center: Point(x: d, y: 0), size: 20)
        b.step(Self.h)
        let law = 1000 * pow(max(d, 60) / 100, -falloff)
        acceleration.add(-item.velocity.dx / Self.h, law)
      }
      report(
        "radial_gravity", "acceleration (pt/s²)", acceleration,
        "falloff \(Int(falloff)), min radius 60, d = 50…400 pt, one step")
    }
  }

  private func drag() throws {
    let f = FieldBehavior(kind: .drag)
    f.strength = 3
    let (a, box) = try scene(f, center: .zero, velocity: Vector(dx: 500, dy: 0))
    var speed = Gap()
    var position = Gap()
    steps(a, 2) { t in
      speed.add(box.velocity.dx, 500 * exp(-3 * t))
      position.add(box.center.x, 500 / 3 * (1 - exp(-3 * t)))
    }
    report("drag", "speed (pt/s)", speed, "strength 3, from 500 pt/s, 2 s")
    report("drag", "position (pt)", position, "")
  }

  private func velocity() throws {
    let f = FieldBehavior(kind: .velocity)
    let target = Vector(dx: 80, dy: -30)
    f.direction = target
    let (a, box) = try scene(f, center: Point(x: 0, y: 300), resistance: 2)
    a.addBehavior(GravityBehavior(items: [box]))
    var v = Gap()
    var position = Gap()
    steps(a, 2) { t in
      v.add(box.velocity, target)
      position.add(box.center - Point(x: 0, y: 300), target * t)
    }
    report("velocity", "velocity (pt/s)", v, "(80, −30) against gravity 1, resistance 2, 2 s")
    report("velocity", "position (pt)", position, "")
  }

  private func spring() throws {
    for density in [1.0, 4.0] {
      let f = FieldBehavior(kind: .spring)
      f.strength = 40
      let (a, box) = try scene(f, center: Point(x: 60, y: 0), density: density)
      let omega = (40 / density).squareRoot()
      var position = Gap()
      var crossings: [Double] = []
      var previous = box.center.x
      steps(a, 3 * 2 * .pi / omega) { t in
        position.add(box.center.x, 60 * cos(omega * t))
        let x = box.center.x
        if previous < 0 && x >= 0 { crossings.append(t - Self.h * x / (x - previous)) }
        previous = x
      }
      report(
        "spring", "position (pt)", position,
        "k 40 N/m, mass \(Int(density)), amplitude 60 pt, 3 periods")
      var period = Gap()
      if crossings.count >= 2 {
        let measured = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
        period.add(measured, 2 * .pi / omega)
      }
      report("spring", "period (s)", period, "2π√(m/k) = \(r(2 * .pi / omega, 4)) s")
    }
  }

  private func electric() throws {
    let f = FieldBehavior(kind: .electric)
    let (a, box) = try scene(f, center: Point(x: 100, y: 0), size: 50, charge: 1)
    var distance = Gap()
    // 1 N on 0.25 kg: 400 pt/s² away from the position.
    steps(a, 1) { t in distance.add(box.center.x, 100 + 200 * t * t) }
    report("electric", "distance (pt)", distance, "charge 1, mass 0.25, falloff 0, 1 s")
  }

  private func magnetic() throws {
    let f = FieldBehavior(kind: .magnetic)
    f.strength = 4
    let (a, box) = try scene(
      f, center: .zero, density: 2, charge: 1.5, velocity: Vector(dx: 300, dy: 0))
    var position = Gap()
    var speed = Gap()
    // ω = q·s/m = 3 rad/s, radius v/ω = 100 pt, counter-clockwise on screen.
    steps(a, 2 * .pi / 3) { t in
      position.add(box.center - .zero, Vector(dx: 100 * sin(3 * t), dy: -100 * (1 - cos(3 * t))))
      speed.add(box.velocity.length, 300)
    }
    report("magnetic", "position (pt)", position, "q 1.5, s 4, m 2, 300 pt/s: r 100 pt, 1 turn")
    report("magnetic", "speed (pt/s)", speed, "")
  }

  private func vortex() throws {
    let center = Point(x: 100, y: 200)
    let f = FieldBehavior(kind: .vortex)
    f.position = center
    let (a, box) = try scene(f, center: Point(x: 220, y: 200), size: 40)
    var position = Gap()
    var radius = Gap()
    steps(a, 3) { t in
      let angle = 0.5 * t * t
      position.add(box.center - center, Vector(dx: 120 * cos(angle), dy: -120 * sin(angle)))
      radius.add((box.center - center).length, 120)
    }
    report("vortex", "position (pt)", position, "strength 1, from rest at 120 pt, 3 s (θ = ½t²)")
    report("vortex", "radius (pt)", radius, "")
  }

  private func noise(_ kind: FieldKind) throws {
    func path(seed: UInt64) throws -> [Point] {
      let f = FieldBehavior(kind: kind)
      f.seed = seed
      f.strength = 3
      let (a, box) = try scene(f, center: Point(x: 160, y: 284), velocity: Vector(dx: 50, dy: 0))
      var points: [Point] = []
      steps(a, 2) { _ in points.append(box.center) }
      return points
    }
    let first = try path(seed: 1)
    let again = try path(seed: 1)
    let other = try path(seed: 2)
    let spread = zip(first, other).map { ($0 - $1).length }.max() ?? 0
    print(
      "\(kind.rawValue): two runs bit-identical: \(first == again); another seed moves the item "
        + "up to \(r(spread)) pt away over 2 s")
    // Bound and mean of n, sampled through force(at:) on a grid of points at 20 instants of a
    // running animator (the noise's time is the animator's).
    let f = FieldBehavior(kind: kind)
    f.smoothness = 0.5
    let (a, _) = try scene(f, center: Point(x: 1e5, y: 1e5), velocity: Vector(dx: 1, dy: 0))
    var peak = 0.0
    var sum = Vector.zero
    var squares = 0.0
    var count = 0.0
    var proportional = Gap()
    let speed = kind == .turbulence ? 100.0 : 0
    for _ in 0..<20 {
      for i in 0..<100 {
        for j in 0..<100 {
          let p = Point(x: Double(i) * 3.1, y: Double(j) * 4.7)
          // Mass 1: 1 N is 100 pt/s², so the force is n (for turbulence at 100 pt/s).
          let n = f.force(at: p, velocity: Vector(dx: speed, dy: 0), mass: 1, charge: 0)
          peak = max(peak, abs(n.dx), abs(n.dy))
          sum = sum + n
          squares += n.dx * n.dx + n.dy * n.dy
          count += 1
          if kind == .turbulence {
            let double = f.force(at: p, velocity: Vector(dx: 0, dy: -200), mass: 1, charge: 0)
            proportional.add(double, n * 2)
          }
        }
      }
      for _ in 0..<6 { a.step(Self.h) }
    }
    let mean = sum * (1 / count)
    print(
      "\(kind.rawValue): n at 200 000 samples (smoothness 0.5, 1 Hz, 20 instants over 1 s): "
        + "max |component| \(r(peak, 4)) (bound 1), mean (\(r(mean.dx, 4)), \(r(mean.dy, 4))), "
        + "rms |n| \(r((squares / count).squareRoot(), 4))")
    if kind == .turbulence {
      report("turbulence", "force at 2× speed (N)", proportional, "twice the force at 100 pt/s")
    }
  }
}
