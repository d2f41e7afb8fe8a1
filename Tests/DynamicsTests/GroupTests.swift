import Dynamics
import Glibc
import Primitives
import Testing

@Suite("Groups")
struct GroupTests {
  func makeGroup(_ members: [DynamicItem], id: String = "group") -> DynamicItem {
    try! DynamicItem(group: id, items: members)
  }

  @Test func theGroupIsTheRectangleEnclosingItsMembers() throws {
    let left = item("left", x: 100, y: 100, w: 60, h: 40)
    let right = item("right", x: 200, y: 130, w: 80, h: 20, angle: .pi / 2)  // 20 wide, 80 tall
    let g = try DynamicItem(group: "g", items: [left, right])
    #expect(g.isGroup && !left.isGroup)
    #expect(g.groupMembers.map(\.identifier) == ["left", "right"])
    #expect(left.group === g && right.group === g && g.group == nil)
    #expect(left.groupMembers.isEmpty)
    // frames: left 70…130 × 80…120, right 190…210 × 90…170
    #expect(abs(g.center.x - 140) < 1e-9 && abs(g.center.y - 125) < 1e-9)
    #expect(abs(g.size.width - 140) < 1e-9 && abs(g.size.height - 90) < 1e-9)
    #expect(g.angle == 0)
    #expect(g.shapeCount == 2)
  }

  @Test func groupsOfGroupsDoubleMembershipAndEmptyGroupsAreRefused() {
    let a = item("a", x: 0, y: 0)
    let b = item("b", x: 200, y: 0)
    let c = item("c", x: 400, y: 0)
    func refused(_ members: [DynamicItem]) -> DynamicsError.Kind? {
      do {
        _ = try DynamicItem(group: "bad", items: members)
        return nil
      } catch let error as DynamicsError {
        return error.kind
      } catch {
        return nil
      }
    }
    #expect(refused([]) == .invalidReference)
    #expect(refused([a, a]) == .invalidReference)
    let ab = makeGroup([a, b], id: "ab")
    #expect(refused([ab]) == .invalidReference)  // a group inside a group
    #expect(refused([c, b]) == .invalidReference)  // b is already in ab
    #expect(c.group == nil)  // a refused group claims nobody
    let far = item("far", x: 100_500, y: 0)
    #expect(refused([c, far]) == .outOfRange)  // wider than DynamicItem.maximumSide
    // An item leaves its group when the group goes away.
    do { _ = makeGroup([c], id: "passing") }
    #expect(c.group == nil)
    #expect(refused([c]) == nil)
    _ = ab
  }

  /// Two items grouped fall as one rigid body under gravity: in the group's frame their offset
  /// stays within 1e-6 pt, and they fall as far as a lone item does. Gravity acts at the centre of
  /// mass, so the group hardly turns: Box2D's 32-bit floats put that point within a ulp of where
  /// the engine asks, which turns this unbalanced group by about 1e-6 rad in 1 s (a path item
  /// whose centroid is off its center does the same).
  @Test func membersFallAsOneRigidBody() {
    let a = DynamicAnimator(referenceBounds: screen)
    let left = item("left", x: 100, y: 100, w: 60, h: 40)
    let right = item("right", x: 170, y: 130, w: 40, h: 80, angle: 0.3)
    let g = makeGroup([left, right])
    a.addBehavior(GravityBehavior(items: [g]))
    let b = DynamicAnimator(referenceBounds: screen)
    let lone = item("lone", x: 100, y: 100, w: 60, h: 40)
    b.addBehavior(GravityBehavior(items: [lone]))
    let offset = right.center - left.center
    for _ in 0..<60 {
      a.step(frame60)
      b.step(frame60)
      let d = (right.center - left.center).rotated(by: -g.angle)
      #expect(abs(d.dx - offset.dx) < 1e-6 && abs(d.dy - offset.dy) < 1e-6)
      #expect(abs((right.angle - left.angle) - 0.3) < 1e-12)
    }
    let d = right.center - left.center
    #expect(abs(d.dx - offset.dx) < 1e-4 && abs(d.dy - offset.dy) < 1e-4)
    // 1 s at 1000 pt/s²: about 500 pt, as far as the lone item.
    #expect(abs((left.center.y - 100) - (lone.center.y - 100)) < 0.01)
    #expect(left.center.y - 100 > 490)
    #expect(abs(g.angle) < 1e-5 && left.angle == g.angle)
    #expect(abs(left.velocity.dy - lone.velocity.dy) < 0.01)
    for member in [left, right] {
      #expect((member.velocity - g.velocity).length < 1e-3)
    }
    #expect(a.items.map(\.identifier) == ["group"])
  }

  /// The group collides with its members' outlines, each at its place: a box, a box turned a
  /// quarter turn and a circle land together on the floor (within the 0.5 pt of a resting
  /// item), and a small box dropped on the turned box rests on that box's top. Contacts name the
  /// group.
  @Test func theGroupCollidesAsItsMembersOutlines() {
    let a = DynamicAnimator(referenceBounds: screen)
    let recorder = Recorder()
    a.delegate = recorder
    let wide = item("wide", x: 100, y: 200, w: 100, h: 40)  // bottom 220
    let tall = item("tall", x: 190, y: 180, w: 80, h: 40, angle: .pi / 2)  // 40×80, bottom 220
    let round = item("round", x: 250, y: 200, w: 40, h: 40, shape: .ellipse)  // bottom 220
    let g = makeGroup([wide, tall, round])
    // Lands on the turned box's top: 40 pt higher than the top of the box unturned.
    let ball = item("ball", x: 190, y: 60, w: 16, h: 16)
    a.addBehavior(GravityBehavior(items: [g, ball]))
    a.addBehavior(bounds([g, ball]))
    runUntilRest(a)
    #expect(!a.isRunning)
    for member in [wide, tall, round] {
      #expect(abs(member.frame.maxY - 568) <= 0.5, "\(member.identifier) \(member.frame)")
      #expect(member.velocity == .zero && member.angularVelocity == 0)  // stopped with the group
    }
    #expect(abs(wide.center.y - 548) <= 0.5 && abs(tall.center.y - 528) <= 0.5)
    #expect(abs((ball.center.y + 8) - tall.frame.minY) <= 0.5)
    #expect(abs(ball.center.x - 190) < 1)
    let pairs = recorder.contacts.filter { $0.phase == .began }.map { c -> String in
      switch c.other {
      case .item(let other): return "\(c.item.identifier)-\(other.identifier)"
      case .boundary(let id): return "\(c.item.identifier)-\(id ?? "bounds")"
      }
    }
    #expect(Set(pairs).isSubset(of: ["group-bounds", "group-ball", "ball-group"]), "\(pairs)")
    #expect(pairs.contains("group-bounds"))
    #expect(pairs.contains("group-ball") || pairs.contains("ball-group"))
  }

  /// Two equal boxes side by side: the group's center is its centre of mass, so a push there
  /// moves the group without turning it. The push's acceleration shows the group's mass is the
  /// sum of its members' (2 × 0.25).
  @Test func aPushAtTheCenterOfABalancedGroupDoesNotTurnIt() {
    let a = DynamicAnimator()
    let left = item("left", x: 100, y: 100, w: 50, h: 50)
    let right = item("right", x: 200, y: 100, w: 50, h: 50)
    let g = makeGroup([left, right])
    let push = PushBehavior(items: [g], mode: .continuous)
    push.setAngle(0.7, magnitude: 2)
    a.addBehavior(push)
    run(a, seconds: 1)
    #expect(abs(g.angularVelocity) < 1e-6 && abs(g.angle) < 1e-6)
    #expect(abs(left.angle) < 1e-6 && abs(right.angle) < 1e-6)
    // 2 N on 0.5 kg: 4 m/s² = 400 pt/s² along the push.
    #expect(abs(g.velocity.length - 400) < 0.5)
    #expect(abs(atan2(g.velocity.dy, g.velocity.dx) - 0.7) < 1e-4)
  }

  /// A 100×100 box (1 kg) and a 50×50 box (0.25 kg) 75 pt to its right: the group's center is
  /// (125, 100), its centre of mass (115, 100), its inertia about that
  /// 1·(100²+100²)/12 + 1·15² + 0.25·(50²+50²)/12 + 0.25·60² = 2895.83 kg·pt².
  func unbalanced() -> (DynamicItem, DynamicItem, DynamicItem) {
    let big = item("big", x: 100, y: 100, w: 100, h: 100)
    let small = item("small", x: 175, y: 100, w: 50, h: 50)
    return (big, small, makeGroup([big, small]))
  }

  /// An impulse of 1 down at the group's center, 10 pt right of the centre of mass, turns the
  /// group at r × J / I = 0.1 m · 1 N·s / 0.289583 kg·m² = 0.34532 rad/s and moves it at
  /// 1 / 1.25 kg = 80 pt/s; both members turn with it. At the centre of mass it does not turn.
  @Test func anOffCenterPushTurnsBothMembersTogether() {
    let a = DynamicAnimator()
    let (big, small, g) = unbalanced()
    let push = PushBehavior(items: [g], mode: .instantaneous)
    push.setAngle(.pi / 2, magnitude: 1)
    a.addBehavior(push)
    a.step(DynamicAnimator.stepInterval)
    #expect(abs(g.angularVelocity - 0.1 / 0.289_583_333) < 1e-4)
    #expect(abs(g.velocity.dy - 80) < 1e-3 && abs(g.velocity.dx) < 1e-3)
    run(a, seconds: 1)
    #expect(g.angle > 0.3)
    #expect(big.angle == g.angle && small.angle == g.angle)
    let d = small.center - big.center
    let expected = Vector(dx: 75, dy: 0).rotated(by: g.angle)
    #expect(abs(d.dx - expected.dx) < 1e-6 && abs(d.dy - expected.dy) < 1e-6)

    let b = DynamicAnimator()
    let (_, _, h) = unbalanced()
    let atMass = PushBehavior(items: [h], mode: .instantaneous)
    atMass.setAngle(.pi / 2, magnitude: 1)
    atMass.setTargetOffsetFromCenter(Vector(dx: -10, dy: 0), for: h)
    b.addBehavior(atMass)
    run(b, seconds: 0.5)
    #expect(abs(h.angularVelocity) < 1e-5)
    #expect(abs(h.velocity.dy - 80) < 1e-3)
  }

  /// Each member's velocity is the velocity of its center as a point of the turning body
  /// (v + ω × r): checked against how far the member's center moves in one internal step.
  @Test func membersReportTheVelocityOfTheirPointOfTheBody() {
    let a = DynamicAnimator()
    let (big, small, g) = unbalanced()
    let push = PushBehavior(items: [g], mode: .instantaneous)
    push.setAngle(.pi / 2, magnitude: 1)
    a.addBehavior(push)
    run(a, seconds: 0.25)
    let h = DynamicAnimator.stepInterval
    for _ in 0..<4 {
      let before = [big, small].map { ($0.center, $0.velocity) }
      a.step(h)
      for (member, (p0, v0)) in zip([big, small], before) {
        // Over one step the point moves at the mean of its velocities at both ends.
        let moved = (member.center - p0) * (1 / h)
        let v = (v0 + member.velocity) * 0.5
        #expect(abs(moved.dx - v.dx) < 0.01 && abs(moved.dy - v.dy) < 0.01, "\(moved) \(v)")
      }
    }
    // Right of the centre of mass the small box goes faster than the group, the big one slower.
    #expect(small.velocity.dy > g.velocity.dy + 15 && big.velocity.dy < g.velocity.dy - 3)
    #expect(big.angularVelocity == g.angularVelocity && small.angularVelocity == g.angularVelocity)
  }

  /// The group's own item behavior sets its properties: density 2 doubles the members' summed
  /// mass (an impulse of 1 gives 100 / (2 × 1.25) = 40 pt/s); a member's own item behavior does
  /// not act.
  @Test func theGroupsDensityMultipliesItsMembersMass() {
    let a = DynamicAnimator()
    let (big, small, g) = unbalanced()
    let itemBehavior = properties([g]) { $0.density = 2 }
    a.addBehavior(itemBehavior)
    a.addBehavior(properties([big]) { $0.density = 50 })
    let push = PushBehavior(items: [g], mode: .instantaneous)
    push.setAngle(.pi / 2, magnitude: 1)
    push.setTargetOffsetFromCenter(Vector(dx: -10, dy: 0), for: g)
    a.addBehavior(push)
    run(a, seconds: 0.1)
    #expect(abs(g.velocity.dy - 40) < 1e-3)
    #expect(abs(big.velocity.dy - 40) < 1e-3)
    // Velocity given to the group reaches its members at once.
    itemBehavior.addLinearVelocity(Vector(dx: 10, dy: 0), for: g)
    #expect(abs(big.velocity.dx - 10) < 1e-3 && abs(small.velocity.dx - 10) < 1e-3)
  }

  @Test func removingTheGroupsBehaviorsLeavesMembersWhereTheyWere() {
    let a = DynamicAnimator()
    let left = item("left", x: 100, y: 100, w: 60, h: 40)
    let right = item("right", x: 180, y: 100, w: 40, h: 40)
    let g = makeGroup([left, right])
    let push = PushBehavior(items: [g], mode: .continuous)
    push.setAngle(1, magnitude: 1)
    push.setTargetOffsetFromCenter(Vector(dx: 30, dy: 0), for: g)
    a.addBehavior(push)
    run(a, seconds: 0.5)
    #expect(left.center.y > 110 && abs(left.angle) > 0.01)
    let was = [left, right].map { ($0.center, $0.angle) }
    a.removeAllBehaviors()
    run(a, seconds: 0.5)
    #expect(a.items.isEmpty)
    for (member, (center, angle)) in zip([left, right], was) {
      #expect(member.center == center && member.angle == angle)
    }
    // A member animated on its own starts from where the group left it.
    a.addBehavior(GravityBehavior(items: [left]))
    a.step(frame60)
    #expect(left.center.y > was[0].0.y && left.center.x == was[0].0.x)
    #expect(right.center == was[1].0)
  }

  /// While its group is animated a member has no body of its own: a behavior naming it directly
  /// does nothing. Once the group leaves, the member is animated on its own.
  @Test func aMemberNamedDirectlyIsIgnoredWhileItsGroupIsAnimated() {
    let a = DynamicAnimator()
    let left = item("left", x: 100, y: 100)
    let right = item("right", x: 300, y: 100)
    let g = makeGroup([left, right])
    let holder = CollisionBehavior(items: [g])
    a.addBehavior(holder)
    a.addBehavior(GravityBehavior(items: [left]))
    run(a, seconds: 0.5)
    #expect(a.items.map(\.identifier) == ["group"])
    #expect(left.center == Point(x: 100, y: 100) && g.center == Point(x: 200, y: 100))
    a.removeBehavior(holder)
    run(a, seconds: 0.5)
    #expect(a.items.map(\.identifier) == ["left"])
    #expect(left.center.y > 200 && right.center == Point(x: 300, y: 100))
  }

  @Test func itemsInRectListMembersByTheirOwnFrames() {
    let a = DynamicAnimator()
    let left = item("left", x: 100, y: 100, w: 50, h: 50)
    let right = item("right", x: 300, y: 100, w: 50, h: 50)
    let lone = item("lone", x: 500, y: 100, w: 50, h: 50)
    let g = makeGroup([left, right])
    a.addBehavior(CollisionBehavior(items: [g, lone]))
    let aroundLeft = Rect(x: 80, y: 80, width: 10, height: 10)
    let gap = Rect(x: 195, y: 95, width: 10, height: 10)
    let all = Rect(x: 0, y: 0, width: 1000, height: 200)
    #expect(a.items(in: aroundLeft).map(\.identifier) == ["left"])
    #expect(a.items(in: gap).isEmpty)
    #expect(a.items(in: all).map(\.identifier) == ["left", "right", "lone"])
    #expect(a.items(in: aroundLeft, expandingGroups: false).map(\.identifier) == ["group"])
    #expect(a.items(in: gap, expandingGroups: false).map(\.identifier) == ["group"])
  }

  /// Moving the group moves its members; moving a member of an animated group moves the group
  /// so that the member lands where it was put, the other following rigidly.
  @Test func updatingAGroupOrAMemberMovesTheGroup() throws {
    let a = DynamicAnimator()
    let left = item("left", x: 100, y: 100, w: 50, h: 50)
    let right = item("right", x: 200, y: 100, w: 50, h: 50)
    let g = makeGroup([left, right])
    a.addBehavior(CollisionBehavior(items: [g]))
    g.center = Point(x: 400, y: 300)
    try a.updateItem(usingCurrentState: g)
    #expect(left.center == Point(x: 350, y: 300) && right.center == Point(x: 450, y: 300))
    right.center = Point(x: 0, y: 0)
    right.angle = .pi / 2
    try a.updateItem(usingCurrentState: right)
    #expect(abs(g.angle - .pi / 2) < 1e-12)
    #expect(abs(right.center.x) < 1e-9 && abs(right.center.y) < 1e-9)
    // left sits 100 pt to the left of right in the group's frame: after a quarter turn, above.
    #expect(abs(left.center.x) < 1e-9 && abs(left.center.y + 100) < 1e-9)
    #expect(abs(left.angle - .pi / 2) < 1e-12)
    left.center = Point(x: .nan, y: 0)
    #expect(throws: DynamicsError.self) { try a.updateItem(usingCurrentState: left) }
  }

  @Test func groupsAreDeterministic() {
    func runOnce() -> [Double] {
      let a = DynamicAnimator(referenceBounds: screen)
      let (big, small, g) = unbalanced()
      let ball = item("ball", x: 170, y: 0, w: 30, h: 30, shape: .ellipse)
      a.addBehavior(GravityBehavior(items: [g, ball]))
      a.addBehavior(bounds([g, ball]))
      run(a, seconds: 2)
      return [big, small, ball].flatMap {
        [$0.center.x, $0.center.y, $0.angle, $0.velocity.dx, $0.velocity.dy, $0.angularVelocity]
      }
    }
    let first = runOnce()
    #expect(first.allSatisfy { $0.isFinite })
    #expect(first.map(\.bitPattern) == runOnce().map(\.bitPattern))
  }
}
