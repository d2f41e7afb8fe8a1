import Dynamics
import Primitives
import Testing

@testable import Transitions

@Suite("sidebar-menu")
struct SidebarMenuTests {
  let bounds = Rect(x: 0, y: 0, width: 320, height: 568)

  func make(_ overrides: [String: ParameterValue] = [:]) throws -> Driver<SidebarMenu> {
    try Driver(SidebarMenu.self, overrides)
  }

  /// Steps 60 Hz frames until `done` (or `limit` seconds); returns the events, the contacts
  /// against `menuBoundary` that began, and the largest vertical drift or turn seen on the way.
  func run(
    _ d: Driver<SidebarMenu>, limit: Double = 10
  ) -> (events: [TransitionEvent], bounces: Int, drift: Double) {
    let since = d.contacts.count
    let t = d.t
    let line = t.menu.center.y
    var events: [TransitionEvent] = []
    var drift = 0.0
    for _ in 0..<Int(limit * 60) {
      d.frame()
      drift = max(drift, abs(t.menu.center.y - line), abs(t.menu.angle))
      events += d.takeEvents()
      if events.contains(where: { if case .done = $0 { true } else { false } }) { break }
    }
    return (events, d.bounces(against: "menuBoundary", since: since), drift)
  }

  func outcomes(_ events: [TransitionEvent]) -> [String] {
    events.compactMap { if case .done(let o) = $0 { o } else { nil } }
  }

  var leftEdge: (Driver<SidebarMenu>) -> Double {
    { $0.t.menu.center.x - $0.t.menu.size.width / 2 }
  }

  @Test func swipeRightOpensBouncesAndRestsAgainstTheBoundary() throws {
    let d = try make()
    let t = d.t
    #expect(t.menu.size == Size(width: 150, height: 519))
    #expect(leftEdge(d) == -150)
    d.swipe(.right)
    #expect(t.values.first?.value == 0.5)
    let (events, bounces, drift) = run(d)
    #expect(outcomes(events) == ["opened"])
    #expect(drift < 1e-4, "it slides on its rail: drift \(drift)")
    #expect(bounces >= 2, "it bounces on the boundary (elasticity 0.4): \(bounces)")
    #expect(abs(leftEdge(d)) <= 0.5, "rests against x = 150: left edge \(leftEdge(d))")
    // On its rail: Box2D's prismatic joint holds it to within solver tolerance.
    #expect(
      abs(t.menu.angle) < 1e-4 && abs(t.menu.center.y - 279.5) < 0.01,
      "\(t.menu.angle) \(t.menu.center)")
    #expect(t.background.center == bounds.center)
    #expect(t.values.first?.value == 0.5, "background_alpha on done")
    // Once per cycle: nothing more while it lies against the boundary.
    let (later, _, _) = run(d, limit: 2)
    #expect(outcomes(later).isEmpty)
  }

  @Test func swipeLeftClosesBackOffScreen() throws {
    let d = try make()
    d.swipe(.right)
    _ = run(d)
    d.swipe(.left)
    #expect(d.t.values.first?.value == 0)
    let (events, _, _) = run(d)
    #expect(outcomes(events) == ["closed"])
    #expect(abs(leftEdge(d) + 150) <= 0.5)
  }

  /// A pan from the left edge, released with a velocity: handed over exactly; its sign decides.
  @Test(arguments: [(600.0, "opened"), (-350.0, "closed"), (80.0, "opened")])
  func panReleaseHandsOverAndDecides(velocity: Double, expected: String) throws {
    let d = try make()
    let y = 300.0
    d.began(at: Point(x: 10, y: y))
    for i in 1...12 {
      d.stepEngine()
      let x = 10 + Double(i) * 8
      d.moved(to: Point(x: x, y: y), time: Double(i) / 60)
    }
    #expect(leftEdge(d) > -150 + 50, "the menu followed the finger: \(leftEdge(d))")
    d.ended(at: Point(x: 106, y: y), time: 0.2, velocity: Vector(dx: velocity, dy: 0))
    let events = d.takeEvents()
    guard case .handoff(let h)? = events.first else {
      Issue.record("no handoff: \(events)")
      return
    }
    let (item, g, v) = (h.item, h.gestureVelocity, h.itemVelocity)
    #expect(item == "menu" && g == Vector(dx: velocity, dy: 0))
    #expect(abs(v.dx - g.dx) < 0.001 && abs(v.dy - g.dy) < 0.001)
    let (after, _, _) = run(d)
    #expect(outcomes(after) == [expected])
    #expect(abs(leftEdge(d) - (expected == "opened" ? 0 : -150)) <= 0.5)
  }

  /// A finger that pulls the menu past where it rests open or closed does not take it past the
  /// boundary the release adds: it opens or closes against it and comes to rest there.
  @Test(arguments: [
    (400.0, 300.0, "opened"), (400.0, -300.0, "closed"), (-200.0, -300.0, "closed"),
  ])
  func overPulledMenuStaysBetweenItsStops(to: Double, velocity: Double, expected: String) throws {
    let d = try make()
    d.began(at: Point(x: 10, y: 300))
    for i in 1...30 {
      d.stepEngine()
      let x = 10 + (to - 10) * Double(i) / 30
      d.moved(to: Point(x: x, y: 300), time: Double(i) / 60)
    }
    #expect(leftEdge(d) >= -150.5 && leftEdge(d) <= 0.5, "held by its stops: \(leftEdge(d))")
    d.ended(at: Point(x: to, y: 300), time: 0.5, velocity: Vector(dx: velocity, dy: 0))
    let (events, _, _) = run(d)
    #expect(outcomes(events) == [expected])
    #expect(abs(leftEdge(d) - (expected == "opened" ? 0 : -150)) <= 0.5, "\(leftEdge(d))")
  }

  /// A pan that begins while the menu slides catches it where it is, without a jump, and the
  /// finger then holds it: a finger that stays still keeps it still.
  @Test(arguments: [50.0, 95.0])
  func catchesItInFlightWithoutAJump(touchFromCenter: Double) throws {
    // 50: on the menu; 95: on the strip just beyond its right edge (75 from the center).
    let d = try make()
    let t = d.t
    d.swipe(.right)
    for _ in 0..<10 { d.stepEngine() }
    let before = t.menu.center
    let velocity = t.menu.velocity
    #expect(velocity.dx > 100)
    let touch = Point(x: before.x + touchFromCenter, y: 300)
    d.began(at: touch)
    #expect(t.menu.center == before, "touching moves nothing by itself")
    // The finger holds still where it landed, and so does the menu under it.
    d.moved(to: touch, time: 1.0 / 60)
    d.stepEngine()
    let moved = t.menu.center.x - before.x
    #expect(abs(moved) <= 0.5, "moved \(moved)")
    #expect(abs(t.menu.velocity.dx) < 1, "held still: \(t.menu.velocity)")
  }

  @Test func parametersOverrideAndReject() throws {
    let wide = try make(["menu_width": .number(200)])
    #expect(wide.t.menu.size.width == 200)
    wide.swipe(.right)
    _ = run(wide)
    #expect(abs(leftEdge(wide)) <= 0.5)
    #expect(throws: TransitionError.self) { try make(["menu_widht": .number(200)]) }
    #expect(throws: TransitionError.self) { try make(["push": .number(-1)]) }
    #expect(throws: TransitionError.self) { try make(["elasticity": .string("bouncy")]) }
  }

  @Test func sameScriptSameNumbers() throws {
    func trace() throws -> [Double] {
      let d = try make()
      d.swipe(.right)
      return (0..<90).map { _ in
        d.stepEngine()
        return d.t.menu.center.x
      }
    }
    let first = try trace()
    #expect(first == (try trace()))
    #expect(Set(first).count > 10)
  }
}
