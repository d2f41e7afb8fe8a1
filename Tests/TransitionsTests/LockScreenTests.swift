import Dynamics
import Testing
import Transitions

@Suite("lock-screen")
struct LockScreenTests {
  let bounds = Rect(x: 0, y: 0, width: 320, height: 568)

  func make(_ overrides: [String: ParameterValue] = [:]) throws -> LockScreen {
    try LockScreen(
      parameters: ParameterValues(overrides, declared: LockScreen.parameters), bounds: bounds)
  }

  /// Runs 60 Hz frames (the gesture's own frames are stepped by `pan`) until `done`.
  func runUntilDone(_ t: LockScreen, limit: Double = 10) -> [TransitionEvent] {
    var events: [TransitionEvent] = []
    var time = 0.0
    while time < limit {
      t.animator.step(1.0 / 60)
      t.afterStep()
      events += t.takeEvents()
      if events.contains(where: { if case .done = $0 { true } else { false } }) { break }
      time += 1.0 / 60
    }
    return events
  }

  /// A pan from `from` to `to` over `duration` s at 60 Hz, stepping the animator as it goes.
  func pan(_ t: LockScreen, from: Point, to: Point, duration: Double, release: Vector? = nil) {
    let frames = Int(duration * 60)
    for i in 0...frames {
      let f = Double(i) / Double(frames)
      let p = Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f)
      t.handle(
        GestureEvent(phase: i == 0 ? .began : .changed, point: p, time: Double(i) / 60), now: 0)
      t.animator.step(1.0 / 60)
    }
    t.handle(
      GestureEvent(phase: .ended, point: to, time: Double(frames + 1) / 60, velocity: release),
      now: 0)
  }

  func outcome(_ events: [TransitionEvent]) -> String? {
    for case .done(let o) in events { return o }
    return nil
  }

  @Test func shortPullCloses() throws {
    let t = try make()
    pan(t, from: Point(x: 160, y: 500), to: Point(x: 160, y: 380), duration: 0.5)
    #expect(t.screen.center.y < 200)  // it followed the finger
    let events = t.takeEvents() + runUntilDone(t)
    #expect(outcome(events) == "closed")
    #expect(abs(t.screen.center.y - 285) <= 0.5)
    #expect(t.screen.center.x == 160 && t.screen.angle == 0)
  }

  @Test func fastFlickOpensAndLeavesTheTop() throws {
    let t = try make()
    pan(t, from: Point(x: 160, y: 500), to: Point(x: 160, y: 440), duration: 0.1)  // 600 pt/s
    let events = t.takeEvents() + runUntilDone(t)
    #expect(outcome(events) == "opened")
    #expect(t.screen.center.y + 284 < 0)
  }

  /// The handoff event reports equal velocities (< 0.001 pt/s), the given one when present.
  @Test func handoffIsExact() throws {
    let t = try make()
    pan(
      t, from: Point(x: 160, y: 500), to: Point(x: 160, y: 300), duration: 0.4,
      release: Vector(dx: 0, dy: 321.5))
    let events = t.takeEvents()
    guard case .handoff(let item, let g, let v)? = events.first else {
      Issue.record("no handoff: \(events)")
      return
    }
    #expect(item == "screen" && g == Vector(dx: 0, dy: 321.5))
    #expect(abs(v.dx - g.dx) < 0.001 && abs(v.dy - g.dy) < 0.001)
  }

  @Test func tapOnTheGrabberBounces() throws {
    let t = try make()
    _ = runUntilDone(t, limit: 1)  // let the new scene settle
    #expect(!t.animator.isRunning)
    t.tap(at: Point(x: 10, y: 10))  // not the grabber
    #expect(!t.animator.isRunning)
    t.tap(at: Point(x: 300, y: 550))
    #expect(t.animator.isRunning)
    var highest = t.screen.center.y
    var events: [TransitionEvent] = []
    for _ in 0..<600 {
      t.animator.step(1.0 / 60)
      highest = min(highest, t.screen.center.y)
      t.afterStep()
      events += t.takeEvents()
      if outcome(events) != nil { break }
    }
    #expect(
      outcome(events) == "bounced",
      "\(t.animator.isRunning) \(t.screen.center) \(t.screen.velocity)")
    #expect(highest < 284 - 20)  // 500²/(2·4000) ≈ 31 pt up
    #expect(abs(t.screen.center.y - 285) <= 0.5)
  }

  @Test func parametersAreValidated() {
    #expect(throws: TransitionError.self) { try make(["gravty": .number(3)]) }
    #expect(throws: TransitionError.self) { try make(["gravity": .number(-1)]) }
    #expect(throws: TransitionError.self) { try make(["gravity": .bool(true)]) }
    #expect((try? make(["gravity": .number(8)])) != nil)
  }
}
