import Dynamics
import Testing

@testable import Transitions

@Suite("wave-pop")
struct WavePopTests {
  let bounds = Rect(x: 0, y: 0, width: 320, height: 568)

  func make(_ overrides: [String: ParameterValue] = [:]) throws -> WavePop {
    try WavePop(
      parameters: ParameterValues(overrides, declared: WavePop.parameters), bounds: bounds)
  }

  func x(_ t: WavePop, _ id: String) -> Double {
    t.items.first { $0.identifier == id }!.center.x
  }

  /// A rightward pan along row 4 (y = 64 + 4.5 × 50) at 500 pt/s, sampled and stepped at 60 Hz.
  func drag(_ t: WavePop, frames: Int = 24, speed: Double = 500, y: Double = 289) {
    t.handle(GestureEvent(phase: .began, point: Point(x: 5, y: y), time: 0), now: 0)
    for i in 1...frames {
      t.animator.step(1.0 / 60)
      let point = Point(x: 5 + speed * Double(i) / 60, y: y)
      t.handle(GestureEvent(phase: .changed, point: point, time: Double(i) / 60), now: 0)
    }
  }

  func release(_ t: WavePop, x: Double, velocity: Double, y: Double = 289) {
    t.handle(
      GestureEvent(
        phase: .ended, point: Point(x: x, y: y), time: 1, velocity: Vector(dx: velocity, dy: 0)),
      now: 0)
  }

  func runUntilDone(_ t: WavePop, limit: Double = 10) -> [String] {
    var outcomes: [String] = []
    for _ in 0..<Int(limit * 60) {
      t.animator.step(1.0 / 60)
      t.afterStep()
      for case .done(let o) in t.takeEvents() { outcomes.append(o) }
      if !outcomes.isEmpty { break }
    }
    return outcomes
  }

  @Test func layoutMatchesTheSeed() throws {
    let t = try make()
    #expect(t.items.count == 20)
    #expect(x(t, "from-0") == 160 && x(t, "to-0") == -180)
    #expect(t.items[3].center.y == 64 + 3.5 * 50)
    #expect(t.items[0].size == Size(width: 320, height: 50))
  }

  /// The row under the finger leads; the others lag more the farther they are from it.
  @Test func theRowUnderTheFingerLeadsAndLagGrowsWithDistance() throws {
    let t = try make()
    drag(t)
    let from = (0..<10).map { x(t, "from-\($0)") }
    let to = (0..<10).map { x(t, "to-\($0)") }
    #expect(from[4] > 160 + 50, "the lists moved right: \(from)")
    for list in [from, to] {
      #expect(list.max() == list[4], "\(list)")
      for i in 1...4 { #expect(list[4 - i] <= list[4 - i + 1] + 1e-9, "\(list)") }
      for i in 5..<10 { #expect(list[i] <= list[i - 1] + 1e-9, "\(list)") }
      #expect(list[4] - list[9] > 5, "a visible wave: \(list)")
    }
  }

  @Test func aRightwardReleasePops() throws {
    let t = try make()
    drag(t)
    release(t, x: 205, velocity: 600)
    let events = t.takeEvents()
    guard case .handoff(let item, let g, let v)? = events.first else {
      Issue.record("no handoff: \(events)")
      return
    }
    #expect(item == "from-4" && g == Vector(dx: 600, dy: 0))
    #expect(abs(v.dx - g.dx) < 0.001 && abs(v.dy - g.dy) < 0.001)
    #expect(runUntilDone(t) == ["popped"])
    for i in 0..<10 {
      #expect(abs(x(t, "from-\(i)") - 500) <= 0.5, "from-\(i) is off the right edge")
      #expect(abs(x(t, "to-\(i)") - 160) <= 0.5, "to-\(i) is in place")
    }
    #expect(t.takeEvents().isEmpty, "done once")
  }

  @Test func aLeftwardReleaseCancels() throws {
    let t = try make()
    drag(t)
    release(t, x: 205, velocity: -200)
    #expect(runUntilDone(t) == ["cancelled"])
    for i in 0..<10 {
      #expect(abs(x(t, "from-\(i)") - 160) <= 0.5)
      #expect(abs(x(t, "to-\(i)") + 180) <= 0.5)
    }
  }

  @Test func thePositionRuleLooksAtWhereTheFingerLifts() throws {
    let far = try make(["complete_rule": .string("position")])
    drag(far, frames: 30)
    release(far, x: 260, velocity: -100)  // beyond 0.7 × 320 = 224, moving left
    #expect(runUntilDone(far) == ["popped"])
    let near = try make(["complete_rule": .string("position")])
    drag(near, frames: 12)
    release(near, x: 105, velocity: 900)
    #expect(runUntilDone(near) == ["cancelled"])
  }

  /// A pan that begins while the lists finish catches every cell where it is.
  @Test func catchesTheCellsInFlightWithoutAJump() throws {
    let t = try make()
    drag(t)
    release(t, x: 205, velocity: 600)
    for _ in 0..<8 { t.animator.step(1.0 / 60) }
    let before = t.items.map(\.center)
    let speeds = t.items.map { abs($0.velocity.dx) }
    #expect(speeds.max()! > 50, "still moving")
    t.handle(GestureEvent(phase: .began, point: Point(x: 250, y: 289), time: 5), now: 0)
    #expect(t.items.map(\.center) == before)
    t.animator.step(1.0 / 60)
    for (index, item) in t.items.enumerated() {
      let moved = abs(item.center.x - before[index].x)
      #expect(moved <= speeds[index] / 60 + 1, "\(item.identifier) moved \(moved)")
    }
  }

  @Test func parametersOverrideAndReject() throws {
    let short = try make(["rows": .number(4), "row_height": .number(80)])
    #expect(short.items.count == 8)
    #expect(short.items[1].center.y == 64 + 1.5 * 80)
    #expect(throws: TransitionError.self) { try make(["row": .number(4)]) }
    #expect(throws: TransitionError.self) { try make(["rows": .number(0)]) }
    #expect(throws: TransitionError.self) { try make(["complete_rule": .string("mood")]) }
    #expect(throws: TransitionError.self) { try make(["damping": .string("soft")]) }
  }

  @Test func sameScriptSameNumbers() throws {
    func trace() throws -> [Double] {
      let t = try make()
      drag(t)
      release(t, x: 205, velocity: 600)
      _ = runUntilDone(t)
      return t.items.map(\.center.x)
    }
    #expect(try trace() == (try trace()))
  }
}
