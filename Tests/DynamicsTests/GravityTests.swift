import Dynamics
import Glibc
import Primitives
import Testing

@Suite("Gravity")
struct GravityTests {
  /// Semi-implicit Euler at h = 1/120 s: after n steps y = a·h²·n(n+1)/2, which exceeds ½at² by
  /// ½·a·t·h (4.17 pt after 1 s). Tolerance against the discrete law: 0.01 pt (Float storage).
  @Test func freeFallFollowsHalfGTSquared() {
    let a = DynamicAnimator()
    let box = item(y: 0)
    a.addBehavior(GravityBehavior(items: [box]))
    run(a, seconds: 1)
    let n = 120.0
    let h = DynamicAnimator.stepInterval
    let discrete = 1000 * h * h * n * (n + 1) / 2
    #expect(abs(box.center.y - discrete) < 0.01)
    #expect(abs(box.center.y - 500) <= 0.5 * 1000 * 1 * h + 0.01)
    #expect(abs(box.velocity.dy - 1000) < 0.01)
    #expect(box.center.x == 160)  // never moved sideways: the exact value is kept
  }

  @Test func gravityIsIndependentOfMass() {
    let a = DynamicAnimator()
    let light = item("light", x: 0, y: 0, w: 10, h: 10)
    let heavy = item("heavy", x: 300, y: 0, w: 200, h: 300)
    let dense = DynamicItemBehavior(items: [heavy])
    dense.density = 50
    a.addBehavior(dense)
    a.addBehavior(GravityBehavior(items: [light, heavy]))
    run(a, seconds: 0.5)
    #expect(abs(light.center.y - heavy.center.y) < 0.01)
    #expect(abs(light.velocity.dy - 500) < 0.01)
  }

  @Test func angleAndMagnitude() {
    let a = DynamicAnimator()
    let box = item(x: 0, y: 0)
    let g = GravityBehavior(items: [box])
    g.setAngle(0, magnitude: 2)
    #expect(abs(g.gravityDirection.dx - 2) < 1e-12 && abs(g.gravityDirection.dy) < 1e-12)
    a.addBehavior(g)
    run(a, seconds: 0.5)
    #expect(abs(box.velocity.dx - 1000) < 0.02)
    #expect(abs(box.velocity.dy) < 1e-6)
  }

  @Test func directionAngleAndMagnitudeStayConsistent() {
    let g = GravityBehavior()
    #expect(
      g.gravityDirection == Vector(dx: g.magnitude * cos(g.angle), dy: g.magnitude * sin(g.angle)))
    #expect(abs(g.angle - .pi / 2) < 1e-12 && g.magnitude == 1)
    g.gravityDirection = Vector(dx: -3, dy: 4)
    #expect(abs(g.magnitude - 5) < 1e-12)
    #expect(abs(g.angle - atan2(4, -3)) < 1e-12)
    g.setMagnitude(0)
    #expect(g.angle == 0 && g.gravityDirection == .zero)
    g.gravityDirection = Vector(dx: .nan, dy: 1)
    #expect(g.magnitude == 0)
  }
}
