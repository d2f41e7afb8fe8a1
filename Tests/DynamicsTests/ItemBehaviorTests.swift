import Dynamics
import Glibc
import Primitives
import Testing

@Suite("Dynamic item behavior")
struct ItemBehaviorTests {
  @Test func defaultsAreUIKits() {
    let p = DynamicItemBehavior().properties
    #expect(p.elasticity == 0 && p.friction == 0 && p.density == 1 && p.resistance == 0)
    #expect(p.angularResistance == 0 && p.allowsRotation && !p.anchored && p.charge == 0)
  }

  /// An item thrown at a wall at 1000 pt/s comes back at e × 1000 (±1.5%).
  @Test(arguments: [0.0, 0.25, 0.5, 0.8, 1.0])
  func elasticityReturnsThatFractionOfImpactSpeed(e: Double) {
    let a = DynamicAnimator(referenceBounds: screen)
    let box = item(x: 160, y: 200, w: 50, h: 50)
    a.addBehavior(bounds([box]))
    let props = properties([box]) { $0.elasticity = e }
    a.addBehavior(props)
    props.addLinearVelocity(Vector(dx: 1000, dy: 0), for: box)
    run(a, seconds: 0.3)  // hits the right wall after 0.115 s, at most one bounce by 0.3 s
    #expect(abs(box.velocity.dx + e * 1000) <= 15)
  }

  @Test func resistanceDampsAndZeroResistanceDoesNot() {
    let a = DynamicAnimator()
    let damped = item("damped", x: 0, y: 0)
    let free = item("free", x: 0, y: 500)
    let r = properties([damped]) { $0.resistance = 2 }
    let f = properties([free]) { _ in }
    a.addBehavior(r)
    a.addBehavior(f)
    r.addLinearVelocity(Vector(dx: 100, dy: 0), for: damped)
    f.addLinearVelocity(Vector(dx: 100, dy: 0), for: free)
    run(a, seconds: 1)
    #expect(abs(free.velocity.dx - 100) < 0.001)
    // Box2D's damping: v ← v / (1 + h·r) per step; ≈ e^(−2) after 1 s.
    let expected = 100 / pow(1 + 2.0 / 120, 120)
    #expect(abs(damped.velocity.dx - expected) < 0.01)
    #expect(damped.velocity.dx < 15)
  }

  @Test func angularResistanceDampsSpin() {
    let a = DynamicAnimator()
    let box = item(x: 0, y: 0)
    let b = properties([box]) { $0.angularResistance = 3 }
    a.addBehavior(b)
    b.addAngularVelocity(2, for: box)
    run(a, seconds: 1)
    #expect(box.angularVelocity > 0 && box.angularVelocity < 0.12)
  }

  @Test func velocityAddedBeforeJoiningIsAccumulated() {
    let box = item(x: 0, y: 0)
    let b = DynamicItemBehavior(items: [box])
    b.addLinearVelocity(Vector(dx: 30, dy: -10), for: box)
    b.addLinearVelocity(Vector(dx: 12, dy: 0), for: box)
    b.addAngularVelocity(0.5, for: box)
    #expect(b.linearVelocity(for: box) == Vector(dx: 42, dy: -10))
    let a = DynamicAnimator()
    a.addBehavior(b)
    a.step(frame60)
    #expect(abs(b.linearVelocity(for: box).dx - 42) < 0.001)
    #expect(abs(b.linearVelocity(for: box).dy + 10) < 0.001)
    #expect(abs(b.angularVelocity(for: box) - 0.5) < 1e-6)
    #expect(abs(box.center.x - 42.0 / 60) < 0.001)
  }

  @Test func anchoredItemsNeverMove() {
    let a = DynamicAnimator(referenceBounds: screen)
    let wall = item("wall", x: 160, y: 300, w: 200, h: 20)
    let ball = item("ball", x: 160, y: 100, w: 40, h: 40)
    a.addBehavior(properties([wall]) { $0.anchored = true })
    a.addBehavior(GravityBehavior(items: [wall, ball]))
    a.addBehavior(bounds([wall, ball]))
    let push = PushBehavior(items: [wall], mode: .instantaneous)
    push.pushDirection = Vector(dx: 50, dy: 0)
    a.addBehavior(push)
    run(a, seconds: 2)
    #expect(wall.center == Point(x: 160, y: 300) && wall.angle == 0)
    #expect(abs(ball.center.y - (300 - 10 - 20)) <= 0.5)  // resting on the anchored item
  }

  /// The last item behavior in the tree decides; removing it restores the earlier one, then the
  /// defaults. Observed through the mass: a continuous push of 1 N gives 100 pt/s² / mass.
  @Test func lastBehaviorWinsAndRemovalRestores() {
    let a = DynamicAnimator()
    let box = item(x: 0, y: 0)
    let push = PushBehavior(items: [box], mode: .continuous)
    push.pushDirection = Vector(dx: 1, dy: 0)
    a.addBehavior(push)
    let first = properties([box]) { $0.density = 2 }
    let group = DynamicBehavior()
    let second = properties([box]) { $0.density = 4 }
    group.addChildBehavior(second)
    a.addBehavior(first)
    a.addBehavior(group)
    func acceleration() -> Double {
      let v0 = box.velocity.dx
      run(a, seconds: 0.5)
      return (box.velocity.dx - v0) / 0.5
    }
    #expect(abs(acceleration() - 25) < 0.01)
    group.removeChildBehavior(second)
    #expect(abs(acceleration() - 50) < 0.01)
    a.removeBehavior(first)
    #expect(abs(acceleration() - 100) < 0.01)
  }

  @Test func settersIgnoreNonFiniteAndClampRanges() {
    let b = DynamicItemBehavior()
    b.elasticity = .nan
    b.density = 0
    b.resistance = -3
    #expect(b.elasticity == 0)
    #expect(b.density == ItemProperties.densityRange.lowerBound)
    #expect(b.resistance == 0)
  }
}
