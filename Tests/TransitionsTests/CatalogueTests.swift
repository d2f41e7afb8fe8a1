import Dynamics
import Primitives
import Testing

@testable import Transitions

/// The catalogue of seed demos: each reaches its stated end; draggable ones hand over exactly.
@Suite("Catalogue transitions")
struct CatalogueTests {
  func exact(_ handoffs: [(String, Vector, Vector)], item: String, _ v: Vector) -> Bool {
    guard handoffs.count == 1, let (id, g, taken) = handoffs.first else { return false }
    return id == item && g == v && (taken - g).length < 0.001
  }

  @Test func snapRestsExactlyAtTheTapUpright() throws {
    let d = try Driver(SnapTransition.self)
    #expect(d.item("label").size == Size(width: 95, height: 47))
    d.tap(at: Point(x: 80, y: 420))
    #expect(d.runUntilDone() == ["snapped"])
    let label = d.item("label")
    #expect((label.center - Point(x: 80, y: 420)).length <= 0.5 && abs(label.angle) < 0.01)
    d.tap(at: Point(x: 250, y: 150))  // replaces the previous snap
    #expect(d.runUntilDone() == ["snapped"])
    #expect((label.center - Point(x: 250, y: 150)).length <= 0.5)
  }

  @Test func heavyLandsAndATapFlipsGravity() throws {
    let d = try Driver(HeavyTransition.self)
    d.tap(at: Point(x: 10, y: 10))  // the label is falling: now it rises
    #expect(d.runUntilDone() == ["landed"])
    #expect(abs(d.item("label").center.y - 17) <= 0.5, "against the ceiling")
    d.tap(at: Point(x: 10, y: 10))
    #expect(d.runUntilDone() == ["landed"])
    #expect(abs(d.item("label").center.y - (568 - 17)) <= 0.5, "on the floor")
  }

  @Test func dragResetsTheStickAndHandsOverOnRelease() throws {
    let d = try Driver(DragTransition.self)
    let brick = d.item("brick")
    #expect(brick.center == Point(x: 160, y: 407.5))
    let before = brick.center
    // Touching far from the attachment point does not yank the brick (length reset on began).
    d.began(at: Point(x: 60, y: 200))
    d.stepEngine()
    #expect((brick.center - before).length < 0.5)
    let handoffs = d.pan(
      from: Point(x: 60, y: 200), to: Point(x: 120, y: 150), duration: 0.3,
      release: Vector(dx: 250, dy: -150))
    #expect(exact(handoffs, item: "brick", Vector(dx: 250, dy: -150)))
    #expect(d.runUntilDone() == ["dropped"])
    #expect(Rect(x: 0, y: 0, width: 320, height: 568).intersects(brick.frame))
  }

  @Test func snakeStaysChainedHitsTheEdgesAndRests() throws {
    let d = try Driver(SnakeTransition.self)
    let handoffs = d.pan(
      from: Point(x: 160, y: 410), to: Point(x: 40, y: 120), duration: 0.6,
      release: Vector(dx: -300, dy: -200))
    #expect(exact(handoffs, item: "orange", Vector(dx: -300, dy: -200)))
    #expect(d.runUntilDone(limit: 60) == ["rested"])
    #expect(d.bounces(against: nil) >= 1, "something touched the screen edge")
    #expect(d.item("orange").angle == 0, "the orange block never turns")
    let chain = ["blue1", "blue2", "blue3", "green"].map(d.item)
    for (a, b) in zip(chain, chain.dropFirst()) {
      let end = a.center + Vector(dx: 25, dy: 0).rotated(by: a.angle)
      let start = b.center + Vector(dx: -25, dy: 0).rotated(by: b.angle)
      #expect(abs((end - start).length - 18) < 1, "rigid links keep their 18 pt")
    }
  }

  @Test func springyListRowsNearTheFingerLeadThenSettle() throws {
    let d = try Driver(SpringyList.self)
    let start = d.t.items.map(\.center.y)
    d.began(at: Point(x: 160, y: 100))
    for i in 1...6 { d.moved(to: Point(x: 160, y: 100 + Double(i) * 20), time: 0) }
    let moved = zip(d.t.items, start).map { $0.center.y - $1 }
    // The finger went from y 100 to 220: rows 0–3 were under or beside it all along.
    #expect(moved[0...3].min()! > moved[8...].max()! + 5, "near rows lead: \(moved)")
    for i in 5..<12 { #expect(moved[i] <= moved[i - 1] + 1e-9, "lag grows with distance") }
    d.ended(at: Point(x: 160, y: 220), time: 0.2, velocity: Vector(dx: 0, dy: 400))
    let handoffs = d.takeEvents()
    #expect(handoffs.count == 1)
    #expect(d.runUntilDone() == ["settled"])
    for (item, y) in zip(d.t.items, start) {
      #expect(abs(item.center.y - (y + 120)) <= 0.5, "\(item.identifier) back in its place")
    }
  }

  @Test func aFastTossLeavesTheScreenASlowOneReturns() throws {
    let fast = try Driver(Toss.self)
    let handoffs = fast.pan(
      from: Point(x: 160, y: 284), to: Point(x: 250, y: 230), duration: 0.2,
      release: Vector(dx: 1400, dy: -600))
    #expect(exact(handoffs, item: "photo", Vector(dx: 1400, dy: -600)))
    #expect(fast.runUntilDone() == ["tossed"])
    #expect(!Rect(x: 0, y: 0, width: 320, height: 568).intersects(fast.item("photo").frame))
    let slow = try Driver(Toss.self)
    slow.pan(
      from: Point(x: 230, y: 340), to: Point(x: 260, y: 380), duration: 0.3,
      release: Vector(dx: 300, dy: 200))
    #expect(slow.runUntilDone() == ["returned"])
    let photo = slow.item("photo")
    #expect((photo.center - Point(x: 160, y: 284)).length <= 0.5 && abs(photo.angle) < 0.01)
  }

  @Test func notificationCenterBouncesHarderWhenFlungHarder() throws {
    func open(_ speed: Double) throws -> (outcome: [String], bounces: Int, y: Double) {
      let d = try Driver(NotificationCenterSheet.self)
      let handoffs = d.pan(
        from: Point(x: 160, y: 5), to: Point(x: 160, y: 300), duration: 0.3,
        release: Vector(dx: 0, dy: speed))
      #expect(exact(handoffs, item: "sheet", Vector(dx: 0, dy: speed)))
      return (d.runUntilDone(), d.bounces(against: "floor"), d.item("sheet").center.y)
    }
    let gentle = try open(400)
    let hard = try open(2500)
    #expect(gentle.outcome == ["opened"] && hard.outcome == ["opened"])
    #expect(hard.bounces > gentle.bounces, "\(hard.bounces) vs \(gentle.bounces)")
    #expect(abs(gentle.y - 285) <= 0.5 && abs(hard.y - 285) <= 0.5)
    let d = try Driver(NotificationCenterSheet.self)
    d.pan(
      from: Point(x: 160, y: 5), to: Point(x: 160, y: 200), duration: 0.3,
      release: Vector(dx: 0, dy: -800))
    #expect(d.runUntilDone() == ["closed"])
    #expect(d.item("sheet").center.y + 284 <= 0, "hidden above the top")
  }
}

/// Every registered transition: parameters override and reject, and the same script gives the
/// same numbers.
@Suite("Every transition")
struct EveryTransitionTests {
  @Test(arguments: TransitionRegistry.names)
  func parametersOverrideAndReject(_ name: String) throws {
    let type = try #require(TransitionRegistry.type(named: name))
    #expect(throws: TransitionError.self) { try Driver(type, ["no_such_parameter": .number(1)]) }
    for p in type.parameters {
      switch p.kind {
      case .number(let range):
        #expect(throws: TransitionError.self, "\(name).\(p.name)") {
          try Driver(type, [p.name: .number(range.upperBound + 1)])
        }
        #expect(throws: TransitionError.self) { try Driver(type, [p.name: .string("x")]) }
        _ = try Driver(type, [p.name: .number(range.lowerBound)])
      case .choice(let words):
        #expect(throws: TransitionError.self) { try Driver(type, [p.name: .string("nope")]) }
        for word in words { _ = try Driver(type, [p.name: .string(word)]) }
      case .bool:
        #expect(throws: TransitionError.self) { try Driver(type, [p.name: .number(1)]) }
      }
    }
  }

  /// A pan that begins on an item while everything moves catches it where it is: one frame
  /// later no item has moved further than its own velocity carries it.
  @Test(arguments: TransitionRegistry.names)
  func catchesInFlightWithoutAJump(_ name: String) throws {
    let type = try #require(TransitionRegistry.type(named: name))
    let d = try Driver(type)
    d.tap(at: Point(x: 300, y: 550))
    d.swipe(.right)
    d.pan(
      from: Point(x: 150, y: 290), to: Point(x: 220, y: 250), duration: 0.3,
      release: Vector(dx: 700, dy: -300))
    for _ in 0..<5 { d.frame() }
    let before = d.t.items.map(\.center)
    let speeds = d.t.items.map { $0.velocity.length }
    let grab = d.t.items.first { Rect(x: 0, y: 0, width: 320, height: 568).contains($0.center) }
    d.began(at: grab?.center ?? Point(x: 160, y: 284), time: 9)
    #expect(d.t.items.map(\.center) == before, "touching moves nothing by itself")
    d.stepEngine()
    for (index, item) in d.t.items.enumerated() {
      let moved = (item.center - before[index]).length
      // Its own velocity over one frame, plus what gravity (≤ 4000 pt/s²) or a spring can add.
      #expect(moved <= speeds[index] / 60 + 2, "\(name): \(item.identifier) jumped \(moved) pt")
    }
  }

  @Test(arguments: TransitionRegistry.names)
  func sameScriptSameNumbers(_ name: String) throws {
    let type = try #require(TransitionRegistry.type(named: name))
    func trace() throws -> [Double] {
      let d = try Driver(type)
      d.tap(at: Point(x: 300, y: 550))
      d.swipe(.right)
      d.pan(
        from: Point(x: 150, y: 290), to: Point(x: 220, y: 250), duration: 0.3,
        release: Vector(dx: 700, dy: -300))
      _ = d.runUntilDone(limit: 3)
      return d.t.items.flatMap { [$0.center.x, $0.center.y, $0.angle] }
    }
    #expect(try trace() == (try trace()))
  }
}
