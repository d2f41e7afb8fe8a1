import Dynamics
import Primitives
import Testing

@testable import Transitions

@Suite("sidebar-menu")
struct SidebarMenuTests {
  let bounds = Rect(x: 0, y: 0, width: 320, height: 568)

  func make(_ overrides: [String: ParameterValue] = [:]) throws -> SidebarMenu {
    try SidebarMenu(
      parameters: ParameterValues(overrides, declared: SidebarMenu.parameters), bounds: bounds)
  }

  /// Steps 60 Hz frames until `done` (or `limit` seconds); returns the events, the contacts
  /// against `menuBoundary` that began, and the largest vertical drift or turn seen on the way.
  func run(
    _ t: SidebarMenu, limit: Double = 10
  ) -> (events: [TransitionEvent], bounces: Int, drift: Double) {
    let contacts = BoundaryContacts(boundary: "menuBoundary")
    t.animator.delegate = contacts
    let line = t.menu.center.y
    var events: [TransitionEvent] = []
    var drift = 0.0
    for _ in 0..<Int(limit * 60) {
      t.animator.step(1.0 / 60)
      t.afterStep()
      drift = max(drift, abs(t.menu.center.y - line), abs(t.menu.angle))
      events += t.takeEvents()
      if events.contains(where: { if case .done = $0 { true } else { false } }) { break }
    }
    return (events, contacts.began, drift)
  }

  func outcomes(_ events: [TransitionEvent]) -> [String] {
    events.compactMap { if case .done(let o) = $0 { o } else { nil } }
  }

  var leftEdge: (SidebarMenu) -> Double { { $0.menu.center.x - $0.menu.size.width / 2 } }

  @Test func swipeRightOpensBouncesAndRestsAgainstTheBoundary() throws {
    let t = try make()
    #expect(t.menu.size == Size(width: 150, height: 519))
    #expect(leftEdge(t) == -150)
    t.swipe(.right, at: nil, velocity: nil)
    #expect(t.values.first?.value == 0.5)
    let (events, bounces, drift) = run(t)
    #expect(outcomes(events) == ["opened"])
    #expect(drift < 1e-4, "it slides on its rail: drift \(drift)")
    #expect(bounces >= 2, "it bounces on the boundary (elasticity 0.4): \(bounces)")
    #expect(abs(leftEdge(t)) <= 0.5, "rests against x = 150: left edge \(leftEdge(t))")
    // On its rail: Box2D's prismatic joint holds it to within solver tolerance.
    #expect(
      abs(t.menu.angle) < 1e-4 && abs(t.menu.center.y - 279.5) < 0.01,
      "\(t.menu.angle) \(t.menu.center)")
    #expect(t.background.center == bounds.center)
    #expect(t.values.first?.value == 0.5, "background_alpha on done")
    // Once per cycle: nothing more while it lies against the boundary.
    let (later, _, _) = run(t, limit: 2)
    #expect(outcomes(later).isEmpty)
  }

  @Test func swipeLeftClosesBackOffScreen() throws {
    let t = try make()
    t.swipe(.right, at: nil, velocity: nil)
    _ = run(t)
    t.swipe(.left, at: nil, velocity: nil)
    #expect(t.values.first?.value == 0)
    let (events, _, _) = run(t)
    #expect(outcomes(events) == ["closed"])
    #expect(abs(leftEdge(t) + 150) <= 0.5)
  }

  /// A pan from the left edge, released with a velocity: handed over exactly; its sign decides.
  @Test(arguments: [(600.0, "opened"), (-350.0, "closed"), (80.0, "opened")])
  func panReleaseHandsOverAndDecides(velocity: Double, expected: String) throws {
    let t = try make()
    let y = 300.0
    t.handle(GestureEvent(phase: .began, point: Point(x: 10, y: y), time: 0), now: 0)
    for i in 1...12 {
      t.animator.step(1.0 / 60)
      let x = 10 + Double(i) * 8
      t.handle(
        GestureEvent(phase: .changed, point: Point(x: x, y: y), time: Double(i) / 60), now: 0)
    }
    #expect(leftEdge(t) > -150 + 50, "the menu followed the finger: \(leftEdge(t))")
    t.handle(
      GestureEvent(
        phase: .ended, point: Point(x: 106, y: y), time: 0.2, velocity: Vector(dx: velocity, dy: 0)
      ), now: 0)
    let events = t.takeEvents()
    guard case .handoff(let h)? = events.first else {
      Issue.record("no handoff: \(events)")
      return
    }
    let (item, g, v) = (h.item, h.gestureVelocity, h.itemVelocity)
    #expect(item == "menu" && g == Vector(dx: velocity, dy: 0))
    #expect(abs(v.dx - g.dx) < 0.001 && abs(v.dy - g.dy) < 0.001)
    let (after, _, _) = run(t)
    #expect(outcomes(after) == [expected])
    #expect(abs(leftEdge(t) - (expected == "opened" ? 0 : -150)) <= 0.5)
  }

  /// A finger that pulls the menu past where it rests open or closed does not take it past the
  /// boundary the release adds: it opens or closes against it and comes to rest there.
  @Test(arguments: [
    (400.0, 300.0, "opened"), (400.0, -300.0, "closed"), (-200.0, -300.0, "closed"),
  ])
  func overPulledMenuStaysBetweenItsStops(to: Double, velocity: Double, expected: String) throws {
    let t = try make()
    t.handle(GestureEvent(phase: .began, point: Point(x: 10, y: 300), time: 0), now: 0)
    for i in 1...30 {
      t.animator.step(1.0 / 60)
      let x = 10 + (to - 10) * Double(i) / 30
      t.handle(
        GestureEvent(phase: .changed, point: Point(x: x, y: 300), time: Double(i) / 60), now: 0)
    }
    #expect(leftEdge(t) >= -150.5 && leftEdge(t) <= 0.5, "held by its stops: \(leftEdge(t))")
    t.handle(
      GestureEvent(
        phase: .ended, point: Point(x: to, y: 300), time: 0.5, velocity: Vector(dx: velocity, dy: 0)
      ), now: 0)
    let (events, _, _) = run(t)
    #expect(outcomes(events) == [expected])
    #expect(abs(leftEdge(t) - (expected == "opened" ? 0 : -150)) <= 0.5, "\(leftEdge(t))")
  }

  /// A pan that begins while the menu slides catches it where it is, without a jump, and the
  /// finger then holds it: a finger that stays still keeps it still.
  @Test(arguments: [50.0, 95.0])
  func catchesItInFlightWithoutAJump(touchFromCenter: Double) throws {
    // 50: on the menu; 95: on the strip just beyond its right edge (75 from the center).
    let t = try make()
    t.swipe(.right, at: nil, velocity: nil)
    for _ in 0..<10 { t.animator.step(1.0 / 60) }
    let before = t.menu.center
    let velocity = t.menu.velocity
    #expect(velocity.dx > 100)
    let touch = Point(x: before.x + touchFromCenter, y: 300)
    t.handle(GestureEvent(phase: .began, point: touch, time: 0), now: 0)
    #expect(t.menu.center == before, "touching moves nothing by itself")
    // The finger holds still where it landed, and so does the menu under it.
    t.handle(GestureEvent(phase: .changed, point: touch, time: 1.0 / 60), now: 0)
    t.animator.step(1.0 / 60)
    let moved = t.menu.center.x - before.x
    #expect(abs(moved) <= 0.5, "moved \(moved)")
    #expect(abs(t.menu.velocity.dx) < 1, "held still: \(t.menu.velocity)")
  }

  @Test func parametersOverrideAndReject() throws {
    let wide = try make(["menu_width": .number(200)])
    #expect(wide.menu.size.width == 200)
    wide.swipe(.right, at: nil, velocity: nil)
    _ = run(wide)
    #expect(abs(leftEdge(wide)) <= 0.5)
    #expect(throws: TransitionError.self) { try make(["menu_widht": .number(200)]) }
    #expect(throws: TransitionError.self) { try make(["push": .number(-1)]) }
    #expect(throws: TransitionError.self) { try make(["elasticity": .string("bouncy")]) }
  }

  @Test func sameScriptSameNumbers() throws {
    func trace() throws -> [Double] {
      let t = try make()
      t.swipe(.right, at: nil, velocity: nil)
      return (0..<90).map { _ in
        t.animator.step(1.0 / 60)
        return t.menu.center.x
      }
    }
    let first = try trace()
    #expect(first == (try trace()))
    #expect(Set(first).count > 10)
  }
}

/// Counts the contacts that began against one boundary.
final class BoundaryContacts: DynamicAnimatorDelegate {
  let boundary: String
  var began = 0
  init(boundary: String) { self.boundary = boundary }
  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {
    if contact.phase == .began, case .boundary(boundary) = contact.other { began += 1 }
  }
}
