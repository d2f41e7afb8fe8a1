import Dynamics
import Primitives
import Testing

@Suite("Push")
struct PushTests {
  /// One UIKit Newton gives a 100×100 density-1 item 100 pt/s² and a 200×100 one 50 pt/s².
  /// Tolerance 0.01 pt/s on the velocity after 1 s.
  @Test(arguments: [(100.0, 100.0), (200.0, 50.0)])
  func continuousPushIsUIKitNewtons(width: Double, expected: Double) {
    let a = DynamicAnimator()
    let box = item(x: 0, y: 0, w: width, h: 100)
    let push = PushBehavior(items: [box], mode: .continuous)
    push.pushDirection = Vector(dx: 1, dy: 0)
    a.addBehavior(push)
    run(a, seconds: 1)
    #expect(abs(box.velocity.dx - expected) < 0.01)
    #expect(push.active)
  }

  @Test func instantaneousPushActsOnceAndAgainWhenReactivated() {
    let a = DynamicAnimator()
    let box = item(x: 0, y: 0)
    let push = PushBehavior(items: [box], mode: .instantaneous)
    push.setAngle(.pi / 2, magnitude: 1)
    a.addBehavior(push)
    run(a, seconds: 0.5)
    #expect(abs(box.velocity.dy - 100) < 0.001)
    #expect(abs(box.velocity.dx) < 0.001)
    #expect(!push.active)
    push.active = true
    run(a, seconds: 0.5)
    #expect(abs(box.velocity.dy - 200) < 0.001)
    #expect(!push.active)
  }

  @Test func impulseScalesWithMass() {
    let a = DynamicAnimator()
    let box = item(x: 0, y: 0, w: 50, h: 100)  // mass 0.5 → Δv = 200 pt/s per unit
    let push = PushBehavior(items: [box], mode: .instantaneous)
    push.pushDirection = Vector(dx: 0.5, dy: 0)
    a.addBehavior(push)
    run(a, seconds: 0.1)
    #expect(abs(box.velocity.dx - 100) < 0.001)
  }

  @Test func offCenterPushSpinsAFreeItemButNotALockedOne() {
    let a = DynamicAnimator()
    let free = item("free", x: 0, y: 0)
    let locked = item("locked", x: 500, y: 0)
    let push = PushBehavior(items: [free, locked], mode: .instantaneous)
    push.pushDirection = Vector(dx: 0, dy: 1)
    push.setTargetOffsetFromCenter(Vector(dx: 40, dy: 0), for: free)
    push.setTargetOffsetFromCenter(Vector(dx: 40, dy: 0), for: locked)
    let noRotation = DynamicItemBehavior(items: [locked])
    noRotation.allowsRotation = false
    a.addBehavior(noRotation)
    a.addBehavior(push)
    run(a, seconds: 0.5)
    #expect(free.angularVelocity > 0.5)  // +y push right of center turns clockwise (positive)
    #expect(free.angle > 0.2)
    #expect(locked.angle == 0 && locked.angularVelocity == 0)
    #expect(abs(locked.velocity.dy - 100) < 0.001)
  }

  @Test func zeroMagnitudeDoesNothing() {
    let a = DynamicAnimator()
    let box = item(x: 0, y: 0)
    a.addBehavior(PushBehavior(items: [box], mode: .continuous))
    run(a, seconds: 1)
    #expect(box.center == Point(x: 0, y: 0))
    #expect(!a.isRunning)
  }
}
