import Dynamics
import Glibc
import Primitives
import Testing

/// A random scene in the 320×568 screen, boxed by the reference bounds, with the bookkeeping to
/// measure its mechanical energy.
struct EnergyScene {
  /// What a scene is made of; the seed decides everything else.
  enum Kind: String, CaseIterable, CustomTestStringConvertible {
    case oneRectangle
    case oneEllipse
    case fourMixed
    case twelveMixed

    var testDescription: String { rawValue }
    var count: Int {
      switch self {
      case .oneRectangle, .oneEllipse: 1
      case .fourMixed: 4
      case .twelveMixed: 12
      }
    }
  }

  let animator: DynamicAnimator
  let items: [DynamicItem]
  /// Mass (kg) of each item, as Dynamics derives it: density × width × height / 10 000.
  let masses: [Double]
  /// Moment of inertia per unit mass (pt²): (w² + h²)/12 for a box, (w² + h²)/16 for an ellipse.
  let inertiaPerMass: [Double]
  /// Gravity as an acceleration in pt/s².
  let gravity: Vector
  /// Potential energy per unit mass is `floor − gravity · center`: zero at the corner of the
  /// screen lowest along gravity, so it is never negative inside the box ("height above the
  /// floor" for plain downward gravity).
  let floor: Double

  /// Builds scene `seed` of `kind`. Each item gets its own elasticity (in `elasticity`), friction
  /// in [0, 1], density in [0.5, 2], resistance 0 or up to 0.5/s, and a velocity of 200–600 pt/s
  /// in any direction plus up to ±6 rad/s. Items start in distinct 80×80 cells, so nothing
  /// overlaps at the start (an overlap would be pushed apart, which adds energy by design).
  init(
    kind: Kind, seed: UInt64, elasticity: ClosedRange<Double> = 0...1,
    damped: Bool = true
  ) {
    var rng = SplitMix64(seed: seed)
    let bounds = Rect(x: 0, y: 0, width: 320, height: 568)
    animator = DynamicAnimator(referenceBounds: bounds)
    // 4 × 7 cells of 80 pt; an item's diagonal is at most 50·√2 ≈ 71 pt, so any angle fits.
    var cells = Array(0..<28)
    for i in stride(from: cells.count - 1, to: 0, by: -1) {
      cells.swapAt(i, rng.below(i + 1))
    }
    var items: [DynamicItem] = []
    var masses: [Double] = []
    var inertiaPerMass: [Double] = []
    var materials: [DynamicItemBehavior] = []
    for i in 0..<kind.count {
      let ellipse =
        switch kind {
        case .oneRectangle: false
        case .oneEllipse: true
        case .fourMixed, .twelveMixed: rng.below(2) == 0
        }
      let w = rng.uniform(16, 50)
      // Half the ellipses are round (one Box2D circle), the others polygons.
      let h = ellipse && rng.below(2) == 0 ? w : rng.uniform(16, 50)
      let cell = cells[i]
      let slack = (80 - (w * w + h * h).squareRoot()) / 2
      let center = Point(
        x: 40 + Double(cell % 4) * 80 + rng.uniform(-slack, slack),
        y: 4 + 40 + Double(cell / 4) * 80 + rng.uniform(-slack, slack))
      let it = try! DynamicItem(
        identifier: "e\(i)", center: center, size: Size(width: w, height: h),
        angle: rng.uniform(0, 2 * .pi), shape: ellipse ? .ellipse : .rectangle)
      let material = DynamicItemBehavior(items: [it])
      material.elasticity = rng.uniform(elasticity.lowerBound, elasticity.upperBound)
      material.friction = rng.uniform(0, 1)
      material.density = rng.uniform(0.5, 2)
      let resistance = rng.below(2) == 0 ? 0 : rng.uniform(0, 0.5)
      let angularResistance = rng.below(2) == 0 ? 0 : rng.uniform(0, 0.5)
      material.resistance = damped ? resistance : 0
      material.angularResistance = damped ? angularResistance : 0
      let speed = rng.uniform(200, 600)
      let heading = rng.uniform(0, 2 * .pi)
      material.addLinearVelocity(
        Vector(dx: speed * cos(heading), dy: speed * sin(heading)), for: it)
      material.addAngularVelocity(rng.uniform(-6, 6), for: it)
      items.append(it)
      materials.append(material)
      masses.append(Units.mass(density: material.density, size: it.size))
      inertiaPerMass.append((w * w + h * h) / (ellipse ? 16 : 12))
    }
    // Gravity of magnitude 0–1 (0–1000 pt/s²), mostly downward but tilted up to ±60°.
    let g = GravityBehavior(items: items)
    g.setAngle(.pi / 2 + rng.uniform(-.pi / 3, .pi / 3), magnitude: rng.uniform(0, 1))
    animator.addBehavior(g)
    let collision = CollisionBehavior(items: items)
    try! collision.setTranslatesReferenceBoundsIntoBoundary(true)
    animator.addBehavior(collision)
    for m in materials { animator.addBehavior(m) }
    let acceleration = g.gravityDirection * Units.gravityAcceleration
    let corners = [
      Point(x: 0, y: 0), Point(x: 320, y: 0), Point(x: 0, y: 568), Point(x: 320, y: 568),
    ]
    gravity = acceleration
    floor = corners.map { acceleration.dx * $0.x + acceleration.dy * $0.y }.max()!
    self.items = items
    self.masses = masses
    self.inertiaPerMass = inertiaPerMass
    // Asking for the items builds the bodies and applies the added velocities (as Box2D's
    // floats), so the first energy is that of the state the solver starts from.
    _ = animator.items
  }

  /// Σ ½mv² + ½Iω² + m·(floor − g·x), in kg·pt²/s².
  var energy: Double {
    var e = 0.0
    for (i, it) in items.enumerated() {
      let v = it.velocity
      let w = it.angularVelocity
      let kinetic = 0.5 * (v.dx * v.dx + v.dy * v.dy) + 0.5 * inertiaPerMass[i] * w * w
      let potential = floor - (gravity.dx * it.center.x + gravity.dy * it.center.y)
      e += masses[i] * (kinetic + potential)
    }
    return e
  }

  /// Steps `seconds` of 60 Hz frames and returns the largest (E − E₀)/E₀ seen after any frame.
  func largestGain(seconds: Double = 3) -> Double {
    let start = energy
    var largest = -Double.infinity
    for _ in 0..<Int(seconds * 60) {
      animator.step(1.0 / 60)
      largest = max(largest, (energy - start) / start)
    }
    return largest
  }
}

/// Collisions must not create energy. Box2D is an impulse solver with position correction and
/// 32-bit state, so "never" needs a tolerance, and it holds only up to elasticity 0.8; measured
/// over seeds 1…400 of every kind (3 s each, with and without resistance), see the tests below.
@Suite("Energy")
struct EnergyTests {
  /// The seeds each test runs per scene kind.
  static let seeds: [UInt64] = Array(1...32)

  /// The most E may rise above E₀, as a fraction of E₀. With elasticity ≤ 0.8 the largest rise
  /// measured over seeds 1…400 was 3.6e-6 (one ellipse; one rectangle 3.2e-6, four items 5e-8,
  /// twelve items never above E₀), the size of float rounding (the symplectic Euler step on its
  /// own loses energy). 1e-4 leaves a margin of ×28 and still catches elasticity 1.5 in 58 of 64
  /// seeds of the weakest kind (a single rectangle), where real gains reach thousands × E₀.
  static let tolerance = 1e-4

  /// Random scenes with elasticity in [0, 0.8], friction, density, resistance and tilted
  /// gravity: the energy after every frame stays within `tolerance` of the start.
  @Test(arguments: EnergyScene.Kind.allCases)
  func collisionsUpToElasticity08NeverGainEnergy(kind: EnergyScene.Kind) {
    for seed in Self.seeds {
      let gain = EnergyScene(kind: kind, seed: seed, elasticity: 0...0.8).largestGain()
      #expect(gain <= Self.tolerance, "seed \(seed) gained \(gain) × E₀")
    }
  }

  /// The same scenes with elasticity 1.5 (DynamicItemBehavior accepts up to 10) fail the check.
  /// Not every one: an impact slower than 100 pt/s at the contact, Box2D's restitution threshold,
  /// does not bounce at all (a spinning rectangle lost 39 % of E₀ in one wall hit), and
  /// resistance can drain more than the bounces add. Measured over seeds 1…64: 58 caught for one
  /// rectangle, 63 for one ellipse, all 64 for four and for twelve items.
  @Test(arguments: EnergyScene.Kind.allCases)
  func theCheckCatchesElasticityAboveOne(kind: EnergyScene.Kind) {
    let caught = Self.seeds.filter {
      EnergyScene(kind: kind, seed: $0, elasticity: 1.5...1.5).largestGain() > Self.tolerance
    }
    #expect(caught.count * 4 >= Self.seeds.count * 3, "caught only seeds \(caught)")
  }

  /// Near elasticity 1, Box2D itself adds energy, so the property is claimed only up to 0.8.
  /// One cause shows in traces: a bounce reverses a velocity that already includes the step's
  /// gravity, so each bounce at elasticity 1 returns about 2·g·h faster than it came (h = 1/120
  /// s); the largest gains, though, are single impacts of spinning items (+35 % of E₀ in one
  /// wall hit of a rectangle with friction), and they occur without gravity too. Largest gains
  /// over 3 s, seeds 1…400, without resistance: at elasticity 0.9 up to 14 % of E₀ (one
  /// rectangle); at 1 up to 63 % (one rectangle) and 124 % (four frictionless items); at 1 with
  /// no gravity up to 61 % (twelve frictionless items). With elasticity drawn from [0, 1] and
  /// resistance as in the other tests: 13 % (one rectangle, seed 195).
  @Test(arguments: EnergyScene.Kind.allCases)
  func elasticityOneGainsEnergy(kind: EnergyScene.Kind) {
    let gains = Self.seeds.prefix(16).map {
      EnergyScene(kind: kind, seed: $0, elasticity: 1...1, damped: false).largestGain()
    }
    withKnownIssue("Box2D's restitution creates energy near elasticity 1") {
      #expect(gains.max()! <= Self.tolerance, "gains over E₀ of seeds 1…16: \(gains)")
    }
  }
}
