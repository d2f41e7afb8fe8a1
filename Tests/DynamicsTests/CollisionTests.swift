import Dynamics
import Primitives
import Testing

@Suite("Collision")
struct CollisionTests {
  /// Box2D's skin is compensated: a resting item touches the boundary (gap ≤ 0.5 pt either way).
  @Test(arguments: [CollisionShape.rectangle, .ellipse])
  func restingItemTouchesTheBoundary(shape: CollisionShape) {
    let a = DynamicAnimator(referenceBounds: screen)
    let box = item(y: 300, w: 80, h: 60, shape: shape)
    a.addBehavior(GravityBehavior(items: [box]))
    a.addBehavior(bounds([box]))
    runUntilRest(a)
    #expect(!a.isRunning)
    #expect(abs(box.center.y + 30 - 568) <= 0.5)
  }

  @Test func stackedItemsTouchEachOther() {
    let a = DynamicAnimator(referenceBounds: screen)
    let lower = item("lower", y: 400, w: 120, h: 40)
    let upper = item("upper", y: 300, w: 80, h: 40)
    a.addBehavior(GravityBehavior(items: [lower, upper]))
    a.addBehavior(bounds([lower, upper]))
    runUntilRest(a)
    let gap = (lower.center.y - 20) - (upper.center.y + 20)
    #expect(abs(gap) <= 0.5)
    #expect(abs(lower.center.y + 20 - 568) <= 0.5)
  }

  @Test func modeItemsIgnoresBoundariesAndModeBoundariesIgnoresItems() {
    let a = DynamicAnimator(referenceBounds: screen)
    let falling = item("falling", x: 100, y: 100, w: 40, h: 40)
    let ghost = item("ghost", x: 100, y: 300, w: 40, h: 40)
    a.addBehavior(GravityBehavior(items: [falling]))
    a.addBehavior(bounds([falling, ghost], mode: .boundaries))
    run(a, seconds: 1.5)
    // falling passed through ghost (no item collisions) and rests on the floor
    #expect(abs(falling.center.y - (568 - 20)) < 0.5)
    #expect(ghost.center == Point(x: 100, y: 300))

    let b = DynamicAnimator(referenceBounds: screen)
    let x = item("x", x: 100, y: 100, w: 40, h: 40)
    let y = item("y", x: 100, y: 600, w: 40, h: 40)  // below the floor, anchored
    let z = item("z", x: 250, y: 100, w: 40, h: 40)
    b.addBehavior(properties([y]) { $0.anchored = true })
    b.addBehavior(GravityBehavior(items: [x, z]))
    b.addBehavior(bounds([x, y, z], mode: .items))
    run(b, seconds: 2)
    #expect(z.center.y > 700)  // no floor
    #expect(abs((x.center.y + 20) - (y.center.y - 20)) < 0.5)  // but x landed on y
  }

  @Test func itemsOfSeparateBehaviorsIgnoreEachOther() {
    let a = DynamicAnimator(referenceBounds: screen)
    let top = item("top", x: 100, y: 100, w: 40, h: 40)
    let bottom = item("bottom", x: 100, y: 400, w: 40, h: 40)
    a.addBehavior(properties([bottom]) { $0.anchored = true })
    a.addBehavior(GravityBehavior(items: [top]))
    a.addBehavior(CollisionBehavior(items: [top]))
    a.addBehavior(CollisionBehavior(items: [bottom]))
    run(a, seconds: 1)
    #expect(top.center.y > 500)
    let together = CollisionBehavior(items: [top, bottom])
    let c = DynamicAnimator(referenceBounds: screen)
    let t2 = item("t2", x: 100, y: 100, w: 40, h: 40)
    let b2 = item("b2", x: 100, y: 400, w: 40, h: 40)
    c.addBehavior(properties([b2]) { $0.anchored = true })
    c.addBehavior(GravityBehavior(items: [t2]))
    c.addBehavior(CollisionBehavior(items: [t2, b2]))
    _ = together
    run(c, seconds: 1.5)
    #expect(abs(t2.center.y - 360) < 0.5)
  }

  @Test func boundaryIdentifiersAndBeganEndedPairs() throws {
    let a = DynamicAnimator(referenceBounds: screen)
    let recorder = Recorder()
    a.delegate = recorder
    let ball = item("ball", x: 160, y: 100, w: 40, h: 40, shape: .ellipse)
    let c = bounds([ball])
    try c.addBoundary(identifier: "shelf", from: Point(x: 0, y: 300), to: Point(x: 200, y: 300))
    a.addBehavior(c)
    a.addBehavior(properties([ball]) { $0.elasticity = 0.6 })
    a.addBehavior(GravityBehavior(items: [ball]))
    runUntilRest(a)
    let began = recorder.boundaryContacts(.began)
    #expect(began.first == .some("shelf"))
    #expect(began.count >= 2)  // bounces on the shelf
    // Every ended matches an earlier began; at most one contact remains open (the resting one).
    #expect(recorder.boundaryContacts(.ended).count == began.count - 1)
    let first = try #require(recorder.contacts.first)
    #expect(abs(try #require(first.point).y - 300) < 0.5, "\(first.point!)")
    // Removing the shelf ends the contact and the ball falls to the floor: identifier nil.
    c.removeBoundary(identifier: "shelf")
    #expect(recorder.boundaryContacts(.ended).count == began.count)
    runUntilRest(a)
    #expect(recorder.boundaryContacts(.began).contains { $0 == nil })
    #expect(abs(ball.center.y - 548) < 0.5)
  }

  @Test func itemContactsReportTheOtherItem() {
    let a = DynamicAnimator(referenceBounds: screen)
    let recorder = Recorder()
    a.delegate = recorder
    let left = item("left", x: 50, y: 200, w: 40, h: 40)
    let right = item("right", x: 250, y: 200, w: 40, h: 40)
    let b = properties([left]) { _ in }
    a.addBehavior(b)
    a.addBehavior(CollisionBehavior(items: [left, right]))
    b.addLinearVelocity(Vector(dx: 400, dy: 0), for: left)
    run(a, seconds: 1)
    let began = recorder.contacts.filter { $0.phase == .began }
    #expect(began.count == 1)
    if case .item(let other) = began.first?.other {
      #expect(Set([other.identifier, began[0].item.identifier]) == ["left", "right"])
    } else {
      Issue.record("expected an item contact")
    }
    // Equal masses, inelastic: momentum is conserved (±0.01%).
    #expect(abs(left.velocity.dx + right.velocity.dx - 400) < 0.05)
  }

  @Test func removingAnItemFromCollisionLetsItFall() {
    let a = DynamicAnimator(referenceBounds: screen)
    let box = item(y: 300, w: 40, h: 40)
    let c = bounds([box])
    a.addBehavior(c)
    a.addBehavior(GravityBehavior(items: [box]))
    runUntilRest(a)
    c.removeItem(box)
    #expect(a.isRunning)
    run(a, seconds: 0.5)
    #expect(box.center.y > 600)
  }

  @Test func insetsMoveTheReferenceBoundary() throws {
    let a = DynamicAnimator(referenceBounds: screen)
    let box = item(y: 300, w: 40, h: 40)
    let c = CollisionBehavior(items: [box])
    try c.setTranslatesReferenceBoundsIntoBoundary(
      true, insets: EdgeInsets(top: 0, left: 0, bottom: -100, right: 0))
    a.addBehavior(c)
    a.addBehavior(GravityBehavior(items: [box]))
    runUntilRest(a)
    #expect(abs(box.center.y - (668 - 20)) < 0.5)
  }

  @Test func badBoundariesAreRefused() {
    let c = CollisionBehavior()
    #expect(throws: DynamicsError.self) {
      try c.addBoundary(identifier: "dot", from: Point(x: 1, y: 1), to: Point(x: 1.1, y: 1))
    }
    #expect(throws: DynamicsError.self) {
      try c.addBoundary(identifier: "nan", from: Point(x: .nan, y: 1), to: Point(x: 10, y: 1))
    }
    #expect(throws: DynamicsError.self) { try c.addBoundary(identifier: "one", path: [.zero]) }
    #expect(c.boundaryIdentifiers.isEmpty)
  }
}
