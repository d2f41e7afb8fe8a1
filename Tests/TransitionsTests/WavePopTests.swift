import Dynamics
import Primitives
import Testing

@testable import Transitions

@Suite("wave-pop")
struct WavePopTests {
  let bounds = Rect(x: 0, y: 0, width: 320, height: 568)

  func make(_ overrides: [String: ParameterValue] = [:]) throws -> Driver<WavePop> {
    try Driver(WavePop.self, overrides)
  }

  func x(_ d: Driver<WavePop>, _ id: String) -> Double {
    d.item(id).center.x
  }

  /// The x of every cell of one list, by row.
  func list(_ d: Driver<WavePop>, _ name: String, rows: Int = 10) -> [Double] {
    (0..<rows).map { x(d, "\(name)-\($0)") }
  }

  /// A rightward pan along row 4 (y = 64 + 4.5 × 50) at `speed`, sampled and stepped at 60 Hz.
  func drag(_ d: Driver<WavePop>, frames: Int = 24, speed: Double = 500, y: Double = 289) {
    d.began(at: Point(x: 5, y: y))
    for i in 1...frames {
      d.frame()
      d.moved(to: Point(x: 5 + speed * Double(i) / 60, y: y), time: Double(i) / 60)
    }
  }

  func release(_ d: Driver<WavePop>, x: Double, velocity: Double, y: Double = 289) {
    d.ended(at: Point(x: x, y: y), time: 1, velocity: Vector(dx: velocity, dy: 0))
  }

  /// One 60 Hz frame, as the session runs it.
  func frame(_ d: Driver<WavePop>) {
    d.frame()
  }

  func runUntilDone(_ d: Driver<WavePop>, limit: Double = 10) -> [String] {
    d.runUntilDone(limit: limit)
  }

  /// Every cell still on its row, level: no rotation, no vertical push from a collision.
  func onTheirRows(_ d: Driver<WavePop>) -> Bool {
    d.t.items.allSatisfy { item in
      let row = Double(Int(item.identifier.split(separator: "-")[1])!)
      return item.angle == 0 && abs(item.center.y - (64 + (row + 0.5) * 50)) < 1e-9
    }
  }

  @Test func layoutMatchesTheSeed() throws {
    let d = try make()
    #expect(d.t.items.count == 20)
    #expect(x(d, "from-0") == 160 && x(d, "to-0") == -180)
    #expect(d.t.items[3].center.y == 64 + 3.5 * 50)
    #expect(d.t.items[0].size == Size(width: 320, height: 50))
  }

  /// The row under the finger leads; the others lag more the farther they are from it.
  @Test func theRowUnderTheFingerLeadsAndLagGrowsWithDistance() throws {
    let d = try make()
    drag(d)
    let from = list(d, "from")
    let to = list(d, "to")
    #expect(from[4] > 160 + 50, "the lists moved right: \(from)")
    for cells in [from, to] {
      #expect(cells.max() == cells[4], "\(cells)")
      for i in 1...4 { #expect(cells[4 - i] <= cells[4 - i + 1] + 1e-9, "\(cells)") }
      for i in 5..<10 { #expect(cells[i] <= cells[i - 1] + 1e-9, "\(cells)") }
      #expect(cells[4] - cells[9] > 5, "a visible wave: \(cells)")
    }
    #expect(onTheirRows(d))
  }

  @Test func aRightwardReleasePops() throws {
    let d = try make()
    drag(d)
    release(d, x: 205, velocity: 600)
    let events = d.takeEvents()
    guard case .handoff(let h)? = events.first else {
      Issue.record("no handoff: \(events)")
      return
    }
    let (item, g, v) = (h.item, h.gestureVelocity, h.itemVelocity)
    #expect(item == "from-4" && g == Vector(dx: 600, dy: 0))
    #expect(abs(v.dx - g.dx) < 0.001 && abs(v.dy - g.dy) < 0.001)
    #expect(runUntilDone(d) == ["popped"])
    for i in 0..<10 {
      #expect(abs(x(d, "from-\(i)") - 500) <= 0.5, "from-\(i) is off the right edge")
      #expect(abs(x(d, "to-\(i)") - 160) <= 0.5, "to-\(i) is in place")
    }
    #expect(onTheirRows(d))
    for _ in 0..<120 { frame(d) }
    #expect(d.takeEvents().isEmpty, "done once")
  }

  /// The finish keeps the wave: the selected row reaches the end first, the others later the
  /// farther they are from it (row i starts |4 − i| / 50 s after the release).
  @Test func theFinishKeepsThePerRowLag() throws {
    let d = try make()
    drag(d)
    release(d, x: 205, velocity: 600)
    var arrival = [Int?](repeating: nil, count: 10)
    for f in 1...120 {
      frame(d)
      for (i, cell) in list(d, "from").enumerated() where arrival[i] == nil && cell >= 495 {
        arrival[i] = f
      }
    }
    let frames = arrival.map { $0 ?? 999 }
    #expect(frames.min() == frames[4], "\(frames)")
    for i in 1...4 { #expect(frames[4 - i] >= frames[4 - i + 1], "\(frames)") }
    for i in 5..<10 { #expect(frames[i] >= frames[i - 1], "\(frames)") }
    #expect(frames[9] - frames[4] >= 4, "row 9 arrives visibly later: \(frames)")
  }

  @Test func aLeftwardReleaseCancels() throws {
    let d = try make()
    drag(d)
    release(d, x: 205, velocity: -200)
    var handoffs = 0
    for case .handoff(let h) in d.takeEvents() {
      let (item, g, v) = (h.item, h.gestureVelocity, h.itemVelocity)
      handoffs += 1
      #expect(item == "from-4" && abs(v.dx - g.dx) < 0.001 && abs(v.dy - g.dy) < 0.001)
    }
    #expect(handoffs == 1)
    #expect(runUntilDone(d) == ["cancelled"])
    for i in 0..<10 {
      #expect(abs(x(d, "from-\(i)") - 160) <= 0.5)
      #expect(abs(x(d, "to-\(i)") + 180) <= 0.5)
    }
    #expect(onTheirRows(d))
  }

  /// The `cancelled` phase is a cancel, even while the finger moves right, and hands nothing
  /// over.
  @Test func aCancelledPanGoesBack() throws {
    let d = try make()
    drag(d)
    d.cancelled(at: Point(x: 205, y: 289), time: 0.5)
    #expect(d.takeEvents().isEmpty, "no handoff")
    #expect(runUntilDone(d) == ["cancelled"])
    #expect(list(d, "from").allSatisfy { abs($0 - 160) <= 0.5 })
    #expect(list(d, "to").allSatisfy { abs($0 + 180) <= 0.5 })
  }

  /// A pan of `steps` frames of `step` pt each along row 4, then the finger held still for 3 s.
  func panAndHold(_ d: Driver<WavePop>, from x: Double, step: Double, steps: Int) {
    let y = 289.0
    d.began(at: Point(x: x, y: y))
    for i in 1...(steps + 180) {
      frame(d)
      let point = Point(x: x + step * Double(min(i, steps)), y: y)
      d.moved(to: point, time: Double(i) / 60)
    }
  }

  /// The seed's clamp keeps every anchor on its own cell's side, so once the finger stops each
  /// cell rests at its start + the finger's travel, instead of latching on the wrong side of
  /// its anchor (360 pt off). A flick at 3000 pt/s puts the from-anchors ahead of their cells
  /// as the lag vanishes; a 250 pt pan to the left takes the to-anchors past their cells.
  @Test func theClampKeepsEveryAnchorOnItsSide() throws {
    let flick = try make()
    panAndHold(flick, from: 5, step: 50, steps: 3)
    for (i, cell) in list(flick, "from").enumerated() {
      #expect(abs(cell - (160 + 150)) <= 1, "from-\(i) at \(cell)")
    }
    for (i, cell) in list(flick, "to").enumerated() {
      #expect(abs(cell - (-180 + 150)) <= 1, "to-\(i) at \(cell)")
    }
    let back = try make()
    panAndHold(back, from: 300, step: -25, steps: 10)
    for (i, cell) in list(back, "from").enumerated() {
      #expect(abs(cell - (160 - 250)) <= 1, "from-\(i) at \(cell)")
    }
    for (i, cell) in list(back, "to").enumerated() {
      #expect(abs(cell - (-180 - 250)) <= 1, "to-\(i) at \(cell)")
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

  /// A pan that begins while the lists finish (some rows not yet started) catches every cell
  /// where it is; the caught cycle then ends as the new release says, once.
  @Test func catchesTheCellsInFlightWithoutAJump() throws {
    let d = try make()
    drag(d)
    release(d, x: 205, velocity: 600)
    _ = d.takeEvents()
    for _ in 0..<3 { frame(d) }
    let before = d.t.items.map(\.center)
    let velocities = d.t.items.map(\.velocity.dx)
    #expect(velocities.map(abs).max()! > 50, "still moving")
    d.began(at: Point(x: 250, y: 289), time: 5)
    #expect(d.t.items.map(\.center) == before)
    frame(d)
    // No pull at the catch: in the first frame a cell loses no more velocity than the drag
    // spring's damping takes (2 × 0.4 × 2π × 1 Hz / 60 ≈ 8.4 %), and it moves no further than
    // its velocity carries it.
    let dampingLoss = 2 * 0.4 * 2 * Double.pi * 1 / 60
    for (index, item) in d.t.items.enumerated() {
      let v = velocities[index]
      let lost = abs(item.velocity.dx - v)
      #expect(lost <= 1.2 * dampingLoss * abs(v) + 1, "\(item.identifier) lost \(lost) of \(v)")
      let moved = abs(item.center.x - before[index].x)
      #expect(moved <= abs(v) / 60 + 1, "\(item.identifier) moved \(moved)")
    }
    for _ in 0..<30 { frame(d) }
    #expect(d.takeEvents().isEmpty, "no done while the finger holds the lists")
    release(d, x: 250, velocity: -300)
    #expect(runUntilDone(d) == ["cancelled"])
    #expect(list(d, "from").allSatisfy { abs($0 - 160) <= 0.5 })
    #expect(list(d, "to").allSatisfy { abs($0 + 180) <= 0.5 })
  }

  @Test func parametersOverrideAndReject() throws {
    let short = try make(["rows": .number(4), "row_height": .number(80), "gap": .number(40)])
    #expect(short.t.items.count == 8)
    #expect(short.t.items[1].center.y == 64 + 1.5 * 80)
    #expect(x(short, "to-0") == -200)
    let flat = try make(["lag_divisor": .number(10_000)])
    drag(flat)
    let cells = list(flat, "from")
    #expect(cells[4] - cells[9] < 1, "no wave without lag: \(cells)")
    #expect(throws: TransitionError.self) { try make(["row": .number(4)]) }
    #expect(throws: TransitionError.self) { try make(["rows": .number(0)]) }
    #expect(throws: TransitionError.self) { try make(["complete_rule": .string("mood")]) }
    #expect(throws: TransitionError.self) { try make(["damping": .string("soft")]) }
  }

  @Test func sameScriptSameNumbers() throws {
    func trace() throws -> [Double] {
      let d = try make()
      var xs: [Double] = []
      drag(d)
      xs += d.t.items.map(\.center.x)
      release(d, x: 205, velocity: 600)
      for _ in 0..<5 {
        frame(d)
        xs += d.t.items.map(\.center.x)
      }
      d.began(at: Point(x: 250, y: 100), time: 2)
      release(d, x: 250, velocity: -300)
      _ = runUntilDone(d)
      return xs + d.t.items.map(\.center.x)
    }
    #expect(try trace() == (try trace()))
  }
}
