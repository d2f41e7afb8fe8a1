import Dynamics
import Primitives
import Testing
import Transitions

@Suite("lock-screen")
struct LockScreenTests {
  let bounds = Rect(x: 0, y: 0, width: 320, height: 568)

  func make(_ overrides: [String: ParameterValue] = [:]) throws -> Driver<LockScreen> {
    try Driver(LockScreen.self, overrides)
  }

  /// Runs 60 Hz frames (the gesture's own frames are stepped by `panStepping`) until `done`.
  func runUntilDone(_ d: Driver<LockScreen>, limit: Double = 10) -> [TransitionEvent] {
    var events: [TransitionEvent] = []
    var time = 0.0
    while time < limit {
      d.frame()
      events += d.takeEvents()
      if events.contains(where: { if case .done = $0 { true } else { false } }) { break }
      time += 1.0 / 60
    }
    return events
  }

  func outcome(_ events: [TransitionEvent]) -> String? {
    for case .done(let o) in events { return o }
    return nil
  }

  @Test func shortPullCloses() throws {
    let d = try make()
    d.panStepping(from: Point(x: 160, y: 500), to: Point(x: 160, y: 380), duration: 0.5)
    #expect(d.t.screen.center.y < 200)  // it followed the finger
    let events = d.takeEvents() + runUntilDone(d)
    #expect(outcome(events) == "closed")
    #expect(abs(d.t.screen.center.y - 285) <= 0.5)
    #expect(d.t.screen.center.x == 160 && d.t.screen.angle == 0)
  }

  @Test func fastFlickOpensAndLeavesTheTop() throws {
    let d = try make()
    // 600 pt/s
    d.panStepping(from: Point(x: 160, y: 500), to: Point(x: 160, y: 440), duration: 0.1)
    let events = d.takeEvents() + runUntilDone(d)
    #expect(outcome(events) == "opened")
    #expect(d.t.screen.center.y + 284 < 0)
  }

  /// The handoff event reports equal velocities (< 0.001 pt/s), the given one when present.
  @Test func handoffIsExact() throws {
    let d = try make()
    d.panStepping(
      from: Point(x: 160, y: 500), to: Point(x: 160, y: 300), duration: 0.4,
      release: Vector(dx: 0, dy: 321.5))
    let events = d.takeEvents()
    guard case .handoff(let h)? = events.first else {
      Issue.record("no handoff: \(events)")
      return
    }
    let (item, g, v) = (h.item, h.gestureVelocity, h.itemVelocity)
    #expect(item == "screen" && g == Vector(dx: 0, dy: 321.5))
    #expect(abs(v.dx - g.dx) < 0.001 && abs(v.dy - g.dy) < 0.001)
  }

  @Test func tapOnTheGrabberBounces() throws {
    let d = try make()
    let t = d.t
    _ = runUntilDone(d, limit: 1)  // let the new scene settle
    #expect(!t.animator.isRunning)
    d.tap(at: Point(x: 10, y: 10))  // not the grabber
    #expect(!t.animator.isRunning)
    d.tap(at: Point(x: 300, y: 550))
    #expect(t.animator.isRunning)
    var highest = t.screen.center.y
    var events: [TransitionEvent] = []
    for _ in 0..<600 {
      d.stepEngine()
      highest = min(highest, t.screen.center.y)
      d.afterStep()
      events += d.takeEvents()
      if outcome(events) != nil { break }
    }
    #expect(
      outcome(events) == "bounced",
      "\(t.animator.isRunning) \(t.screen.center) \(t.screen.velocity)")
    #expect(highest < 284 - 20)  // 500²/(2·4000) ≈ 31 pt up
    #expect(abs(t.screen.center.y - 285) <= 0.5)
  }

  @Test func shortPullBouncesOnTheFloorAndRestsWhereItStarted() throws {
    let d = try make()
    d.panStepping(from: Point(x: 160, y: 500), to: Point(x: 160, y: 440), duration: 0.5)
    let events = d.takeEvents() + runUntilDone(d)
    #expect(outcome(events) == "closed")
    let began = d.bounces(against: "floor")
    #expect(began >= 2, "bounces: \(began)")
    // It started at 284; the floor is 1 pt below the bottom edge (floor_margin), Box2D's skin
    // compensated to within 0.5 pt.
    #expect(abs(d.t.screen.center.y - 285) <= 0.5)
  }

  /// A pan that begins while the screen falls catches it where it is, with its velocity.
  @Test func catchesItInFlightWithoutAJump() throws {
    let d = try make()
    let t = d.t
    d.panStepping(
      from: Point(x: 160, y: 500), to: Point(x: 160, y: 300), duration: 0.3,
      release: Vector(dx: 0, dy: 0))
    _ = d.takeEvents()
    for _ in 0..<6 { d.frame() }  // falling back now
    let before = t.screen.center
    let velocity = t.screen.velocity
    #expect(velocity.dy > 100, "it is falling: \(velocity)")
    // The finger lands on the screen where it is and holds still.
    let touch = Point(x: 160, y: before.y + 200)
    d.began(at: touch, time: 10)
    #expect(t.screen.center == before, "touching moves nothing by itself")
    d.stepEngine()
    let moved = t.screen.center.y - before.y
    // One frame later it has moved at most as far as its velocity carries it: no jump.
    #expect(moved >= 0 && moved <= velocity.dy / 60 + 0.5, "moved \(moved)")
  }

  /// The same gesture script gives bit-identical positions.
  @Test func sameScriptSameNumbers() throws {
    func trace() throws -> [Double] {
      let d = try make()
      d.panStepping(from: Point(x: 160, y: 500), to: Point(x: 160, y: 380), duration: 0.3)
      var ys: [Double] = []
      for _ in 0..<120 {
        d.frame()
        ys.append(d.t.screen.center.y)
      }
      return ys
    }
    let first = try trace()
    #expect(first == (try trace()))
    #expect(Set(first).count > 10, "it moved")
  }

  @Test func parametersAreValidated() {
    #expect(throws: TransitionError.self) { try make(["gravty": .number(3)]) }
    #expect(throws: TransitionError.self) { try make(["gravity": .number(-1)]) }
    #expect(throws: TransitionError.self) { try make(["gravity": .bool(true)]) }
    #expect((try? make(["gravity": .number(8)])) != nil)
  }
}
