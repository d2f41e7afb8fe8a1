import Primitives
import Testing

/// `SpringParameters`' conversions and `SpringSolution`'s closed form (Primitives/Motion).
@Suite struct SpringMotionTests {
  /// The two conversions in SwiftUI's `Spring` documentation, to its printed precision.
  @Test func swiftUIDocumentedConversions() {
    let bouncy = SpringParameters.duration(0.5, bounce: 0.3)
    #expect(bouncy.mass == 1)
    #expect((bouncy.stiffness * 10).rounded() / 10 == 157.9)
    #expect((bouncy.damping * 10).rounded() / 10 == 17.6)
    let plain = SpringParameters.stiffness(100, damping: 10)
    #expect((plain.duration * 100).rounded() / 100 == 0.63)
    #expect(abs(plain.bounce - 0.5) < 1e-12)
  }

  @Test(arguments: [-0.9, -0.5, -0.1, 0, 0.15, 0.3, 0.9, 1])
  func durationAndBounceRoundTrip(bounce: Double) {
    let spring = SpringParameters.duration(0.35, bounce: bounce)
    #expect(abs(spring.duration - 0.35) < 1e-12)
    #expect(abs(spring.bounce - bounce) < 1e-12)
    #expect(abs(spring.response - 0.35) < 1e-12)
  }

  @Test func responseAndRatioRoundTrip() {
    let spring = SpringParameters.response(0.55, dampingRatio: 0.825)
    #expect(spring.mass == 1)
    #expect(abs(spring.response - 0.55) < 1e-12)
    #expect(abs(spring.dampingRatio - 0.825) < 1e-12)
    let heavy = SpringParameters.stiffness(1500, dampingRatio: 0.5, mass: 3)
    #expect(abs(heavy.dampingRatio - 0.5) < 1e-12)
    #expect(abs(heavy.damping - 2 * 0.5 * (3.0 * 1500).squareRoot()) < 1e-9)
  }

  /// Rebound's default config, `fromOrigamiTensionAndFriction(40, 7)`: tension 230.2, friction 22.
  @Test func origamiConvertsAsRebound() {
    let spring = SpringParameters.origami(tension: 40, friction: 7)
    #expect(abs(spring.stiffness - 230.2) < 1e-9)
    #expect(abs(spring.damping - 22) < 1e-12)
    #expect(spring.mass == 1)
    #expect(SpringParameters.origami(tension: 0, friction: 0).damping == 0)
  }

  @Test func swiftUIDefaultIsCriticalHalfSecond() {
    let spring = SpringParameters.swiftUIDefault
    #expect(abs(spring.stiffness - 16 * Double.pi * Double.pi) < 1e-9)
    #expect(abs(spring.damping - 8 * Double.pi) < 1e-9)
    #expect(abs(spring.dampingRatio - 1) < 1e-12)
  }

  /// The closed form against RK4 of m·x″ + c·x′ + k·x = 0 at a 10 µs step, over 2 s, in every
  /// regime (ζ = 0, 0.3, 1, 2.5).
  @Test(arguments: [0.0, 0.3, 1.0, 2.5])
  func closedFormMatchesRungeKutta(ratio: Double) {
    let spring = SpringParameters.stiffness(200, dampingRatio: ratio, mass: 1.5)
    let solution = SpringSolution(spring)
    let (x0, v0) = (-120.0, 900.0)
    var reference = (x: x0, v: v0)
    let h = 1e-5
    for step in 1...200_000 {
      reference = rk4(reference, h: h, spring: spring)
      guard step % 5_000 == 0 else { continue }
      let exact = solution.state(at: Double(step) * h, displacement: x0, velocity: v0)
      #expect(abs(exact.displacement - reference.x) < 1e-7)
      #expect(abs(exact.velocity - reference.v) < 1e-6)
    }
  }

  /// Near ζ = 1 the three forms meet: no 0/0, and within rounding of the critical solution.
  @Test(arguments: [1e-15, 1e-12, 1e-8, -1e-8, -1e-12, -1e-15])
  func nearCriticalIsContinuous(offset: Double) {
    let critical = SpringSolution(.stiffness(300, dampingRatio: 1))
    let near = SpringSolution(.stiffness(300, dampingRatio: 1 + offset))
    for t in stride(from: 0.0, through: 3, by: 0.05) {
      let a = critical.state(at: t, displacement: 250, velocity: -4000)
      let b = near.state(at: t, displacement: 250, velocity: -4000)
      #expect(b.displacement.isFinite && b.velocity.isFinite)
      #expect(abs(a.displacement - b.displacement) < 1e-5)
      #expect(abs(a.velocity - b.velocity) < 1e-4)
    }
  }

  /// Every corner of the parameter ranges, the farthest starts and very late times stay finite.
  @Test func finiteAtExtremeValidValues() {
    let masses = [SpringField.mass.range.lowerBound, SpringField.mass.range.upperBound]
    let stiffnesses = [
      SpringField.stiffness.range.lowerBound, SpringField.stiffness.range.upperBound,
    ]
    let dampings = [0, 1e-300, 1, SpringField.damping.range.upperBound]
    for m in masses {
      for k in stiffnesses {
        for c in dampings {
          let solution = SpringSolution(SpringParameters(mass: m, stiffness: k, damping: c))
          for t in [0, 1e-6, 1.0 / 120, 1, 1e3, 1e9] {
            for (x0, v0) in [(2e6, -1e6), (-2e6, 1e6), (1e-9, 0)] {
              let s = solution.state(at: t, displacement: x0, velocity: v0)
              #expect(s.displacement.isFinite && s.velocity.isFinite, "m \(m) k \(k) c \(c) t \(t)")
            }
          }
        }
      }
    }
    let stiffest = SpringParameters.duration(
      SpringField.duration.range.lowerBound, bounce: -0.999_999)
    #expect(SpringSolution(stiffest).state(at: 1e6, displacement: 1e6, velocity: 1e6).0.isFinite)
  }

  @Test func restsOnTargetWithinTolerance() {
    let motion = SpringMotion(
      .response(0.4, dampingRatio: 0.7), from: Point(x: 0, y: 0), velocity: Vector(dx: 800, dy: 0),
      to: Point(x: 300, y: 200))
    #expect(!motion.isAtRest(at: 0.2))
    #expect(motion.isAtRest(at: 5))
    let undamped = SpringMotion(
      .stiffness(100, damping: 0), from: .zero, velocity: .zero, to: Point(x: 10, y: 0))
    #expect(!undamped.isAtRest(at: 1000))
  }

  @Test func rangesNameTheFieldAndRefuseTheIssuesBadValues() {
    let bad: [(SpringParameterSet, [SpringField: Double], String)] = [
      (.responseAndDampingRatio, [.response: 0, .dampingRatio: 1], "response"),
      (.durationAndBounce, [.duration: 0.5, .bounce: -1], "bounce"),
      (.durationAndBounce, [.duration: 0.5, .bounce: 1.01], "bounce"),
      (.stiffnessAndDampingRatio, [.stiffness: 100, .dampingRatio: -0.1], "damping_ratio"),
      (.stiffnessAndDamping, [.stiffness: 100, .damping: 5, .mass: 0], "mass"),
      (.stiffnessAndDamping, [.stiffness: -1, .damping: 5], "stiffness"),
      (.origami, [.tension: 40], "friction"),
    ]
    for (set, values, field) in bad {
      #expect(throws: MotionParameterError.self) { try set.parameters { values[$0] } }
      do {
        _ = try set.parameters { values[$0] }
      } catch {
        #expect(error.field == field)
      }
    }
    let ok = try? SpringParameterSet.stiffnessAndDampingRatio.parameters {
      [.stiffness: 100, .dampingRatio: 1][$0]
    }
    #expect(ok == .stiffness(100, dampingRatio: 1, mass: 1))
    #expect(SpringParameterSet.complete(among: [.stiffness, .damping, .dampingRatio]).count == 2)
    #expect(SpringParameterSet.complete(among: [.mass]).isEmpty)
  }

  private func rk4(_ s: (x: Double, v: Double), h: Double, spring: SpringParameters) -> (
    x: Double, v: Double
  ) {
    func accel(_ x: Double, _ v: Double) -> Double {
      -(spring.damping * v + spring.stiffness * x) / spring.mass
    }
    let k1 = (s.v, accel(s.x, s.v))
    let k2 = (s.v + h / 2 * k1.1, accel(s.x + h / 2 * k1.0, s.v + h / 2 * k1.1))
    let k3 = (s.v + h / 2 * k2.1, accel(s.x + h / 2 * k2.0, s.v + h / 2 * k2.1))
    let k4 = (s.v + h * k3.1, accel(s.x + h * k3.0, s.v + h * k3.1))
    return (
      s.x + h / 6 * (k1.0 + 2 * k2.0 + 2 * k3.0 + k4.0),
      s.v + h / 6 * (k1.1 + 2 * k2.1 + 2 * k3.1 + k4.1)
    )
  }
}
