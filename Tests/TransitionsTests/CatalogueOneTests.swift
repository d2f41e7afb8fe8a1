import Dynamics
import Primitives
import Testing

@testable import Transitions

/// `snap`, `drag`, `snake` and `heavy` (seed 000, the BepBop demos), driven on the manual clock:
/// each reaches its stated end, draggable ones hand the release velocity over exactly, a gesture
/// catches them in flight, parameters override and reject, and a script replays identically.
@Suite("Catalogue one: snap, drag, snake, heavy")
struct CatalogueOneTests {
  static let frame = 1.0 / 60
  static let screen = Rect(x: 0, y: 0, width: 320, height: 568)

  /// One 60 Hz frame, as the session runs it.
  func step(_ d: Driver<some Transition>) -> [TransitionEvent] {
    d.frame()
    return d.takeEvents()
  }

  /// Frames until a `done` (or `limit` s): the outcomes and the seconds it took.
  func settle(_ d: Driver<some Transition>, limit: Double = 20) -> (
    outcomes: [String], seconds: Double
  ) {
    var outcomes: [String] = []
    var frames = 0
    while outcomes.isEmpty, frames < Int(limit * 60) {
      for case .done(let o) in step(d) { outcomes.append(o) }
      frames += 1
    }
    return (outcomes, Double(frames) * Self.frame)
  }

  /// The single handoff's error |item velocity − given velocity|, or nil when there is not
  /// exactly one handoff of `item` carrying `given`.
  func handoffError(_ handoffs: [(String, Vector, Vector)], item: String, given: Vector)
    -> Double?
  {
    guard handoffs.count == 1, let (id, g, v) = handoffs.first, id == item, g == given else {
      return nil
    }
    return (v - g).length
  }

  // MARK: snap

  @Test func snapRestsExactlyAtTheTapUpright() throws {
    let d = try Driver(SnapTransition.self)
    let label = d.item("label")
    #expect(label.size == Size(width: 95, height: 47))
    #expect(label.center == Point(x: 160, y: 103.5), "top at the storyboard's y = 80")
    #expect(settle(d, limit: 1).outcomes.isEmpty, "nothing moves before a tap")
    d.tap(at: Point(x: 80, y: 420))
    let (outcomes, _) = settle(d)
    #expect(outcomes == ["snapped"])
    #expect((label.center - Point(x: 80, y: 420)).length <= 0.5, "\(label.center)")
    #expect(abs(label.angle) < 1e-3, "upright: \(label.angle)")
    #expect(settle(d, limit: 2).outcomes.isEmpty, "one done per tap")
  }

  /// A second tap while the label is on its way replaces the snap: no jump, one `done`, and it
  /// rests at the second point.
  @Test func snapATapInFlightReplacesThePreviousSnap() throws {
    let d = try Driver(SnapTransition.self)
    let label = d.item("label")
    d.tap(at: Point(x: 80, y: 480))
    for _ in 0..<8 { #expect(step(d).isEmpty) }
    let before = label.center
    let speed = label.velocity.length
    #expect(speed > 100, "still on its way: \(speed) pt/s")
    d.tap(at: Point(x: 260, y: 120))
    #expect(label.center == before, "a tap moves nothing by itself")
    _ = step(d)
    #expect((label.center - before).length <= speed * Self.frame + 2, "no jump")
    #expect(settle(d).outcomes == ["snapped"])
    #expect((label.center - Point(x: 260, y: 120)).length <= 0.5)
    #expect(abs(label.angle) < 1e-3)
  }

  /// Less damping swings further past the tap point (seed 000's slider).
  @Test func snapDampingOverrideChangesTheSwing() throws {
    func overshoot(_ damping: Double) throws -> Double {
      let d = try Driver(SnapTransition.self, ["damping": .number(damping)])
      let target = Point(x: 160, y: 450)
      d.tap(at: target)
      var most = 0.0
      for _ in 0..<180 {
        _ = step(d)
        most = max(most, d.item("label").center.y - target.y)
      }
      return most
    }
    let wild = try overshoot(0.1)
    let mild = try overshoot(0.9)
    #expect(wild > mild + 5, "damping 0.1 overshoots \(wild) pt, 0.9 \(mild) pt")
  }

  // MARK: drag

  /// The attachment point (41, 0.5) off the brick's center, where the stick holds it.
  func stickEnd(_ brick: DynamicItem) -> Point {
    brick.center + Vector(dx: 41, dy: 0.5).rotated(by: brick.angle)
  }

  @Test func dragKeepsTheStickLengthOfTheTouchAndHandsOverExactly() throws {
    let d = try Driver(DragTransition.self)
    let brick = d.item("brick")
    #expect(brick.size == Size(width: 140, height: 61))
    #expect(brick.center == Point(x: 160, y: 407.5))
    // A touch far from the attachment point: the stick takes that length, nothing is yanked.
    let touch = Point(x: 60, y: 250)
    let length = (stickEnd(brick) - touch).length
    d.began(at: touch)
    #expect(step(d).isEmpty)
    #expect((brick.center - Point(x: 160, y: 407.5)).length < 0.01, "not yanked")
    // Dragged: the stick is rigid, the brick follows at that length.
    var stretch = 0.0
    for i in 1...30 {
      let p = Point(x: 60 - Double(i), y: 250 - Double(i) * 4)
      d.moved(to: p, time: Double(i) / 60)
      _ = step(d)
      stretch = max(stretch, abs((stickEnd(brick) - p).length - length))
    }
    #expect(stretch < 1, "rigid stick: length off by \(stretch) pt at most")
    #expect((brick.center - Point(x: 160, y: 407.5)).length > 20, "it was pulled along")
    let release = Vector(dx: 250, dy: -150)
    d.ended(at: Point(x: 30, y: 130), time: 0.55, velocity: release)
    let handoffs = d.takeEvents().compactMap {
      if case .handoff(let h) = $0 { (h.item, h.gestureVelocity, h.itemVelocity) } else { nil }
    }
    let error = try #require(handoffError(handoffs, item: "brick", given: release))
    #expect(error < 0.001)
    #expect((brick.velocity - release).length < 0.001, "the brick itself moves at it")
    #expect(settle(d).outcomes == ["dropped"])
    #expect(Self.screen.contains(brick.center), "rests inside the bounds: \(brick.center)")
    #expect(brick.velocity.length < 1)
  }

  /// Without a given velocity the tracker's estimate is handed over, still exactly.
  @Test func dragHandsOverTheEstimatedVelocity() throws {
    let d = try Driver(DragTransition.self)
    let handoffs = d.pan(from: Point(x: 200, y: 408), to: Point(x: 260, y: 300), duration: 0.3)
    guard handoffs.count == 1, let (id, g, v) = handoffs.first else {
      Issue.record("no single handoff: \(handoffs)")
      return
    }
    #expect(id == "brick" && (v - g).length < 0.001)
    // 60 pt right and 108 up over 0.3 s at constant speed.
    #expect((g - Vector(dx: 200, dy: -360)).length < 1, "estimate \(g)")
    #expect(settle(d).outcomes == ["dropped"])
  }

  // MARK: snake

  /// The distance between each block's (+25, 0) and the next one's (−25, 0): 18 pt as laid out.
  func links(_ d: Driver<some Transition>) -> [Double] {
    let chain = ["blue1", "blue2", "blue3", "green"].map(d.item)
    return zip(chain, chain.dropFirst()).map { a, b in
      let end = a.center + Vector(dx: 25, dy: 0).rotated(by: a.angle)
      let start = b.center + Vector(dx: -25, dy: 0).rotated(by: b.angle)
      return (end - start).length
    }
  }

  @Test func snakeStaysChainedTouchesTheEdgeAndRests() throws {
    let d = try Driver(SnakeTransition.self)
    #expect(d.item("orange").size == Size(width: 60, height: 60))
    #expect(links(d).allSatisfy { abs($0 - 18) < 1e-9 }, "\(links(d))")
    // Drag the orange block into the chain and on into the left edge, then fling it up.
    d.began(at: Point(x: 160, y: 410))
    var worst = 0.0
    var turned = 0.0
    let path =
      (1...60).map { Point(x: 160 - Double($0) * 2.6, y: 410 - Double($0) * 3) }
      + (1...30).map { _ in Point(x: 4, y: 230) }
    for (i, p) in path.enumerated() {
      d.moved(to: p, time: Double(i + 1) / 60)
      _ = step(d)
      worst = max(worst, links(d).map { abs($0 - 18) }.max()!)
      turned = max(turned, abs(d.item("orange").angle))
    }
    let edge = d.contacts.filter {
      if $0.phase == .began, case .boundary(nil) = $0.other { true } else { false }
    }
    #expect(
      edge.contains { $0.item.identifier == "orange" && $0.point.map { abs($0.x) < 0.5 } == true },
      "the orange block reports touching the left edge (boundary nil)")
    let release = Vector(dx: 300, dy: -400)
    d.ended(at: Point(x: 4, y: 230), time: Double(path.count + 1) / 60, velocity: release)
    let handoffs = d.takeEvents().compactMap {
      if case .handoff(let h) = $0 { (h.item, h.gestureVelocity, h.itemVelocity) } else { nil }
    }
    let error = try #require(handoffError(handoffs, item: "orange", given: release))
    #expect(error < 0.001)
    var outcomes: [String] = []
    for _ in 0..<(60 * 60) where outcomes.isEmpty {
      for case .done(let o) in step(d) { outcomes.append(o) }
      worst = max(worst, links(d).map { abs($0 - 18) }.max()!)
      turned = max(turned, abs(d.item("orange").angle))
    }
    #expect(outcomes == ["rested"])
    #expect(worst < 3, "the chain stays connected: a link strayed \(worst) pt from 18")
    #expect(turned == 0, "the orange block never turns")
    for item in d.t.items { #expect(Self.screen.contains(item.center), "\(item.identifier)") }
  }

  /// The green tail carries seed 000's "light" properties; the blue blocks do not.
  @Test func snakeTailIsLightAndEasyToSpin() throws {
    let d = try Driver(SnakeTransition.self)
    let held = d.t.animator.behaviors.compactMap { $0 as? DynamicItemBehavior }
    let tail = try #require(held.first { $0.items.map(\.identifier) == ["green"] })
    #expect(tail.properties.density == 0.1)
    #expect(tail.properties.resistance == 0.1 && tail.properties.angularResistance == 0.1)
    let upright = try #require(held.first { $0.items.map(\.identifier) == ["orange"] })
    #expect(!upright.properties.allowsRotation)
    #expect(!held.contains { $0 !== tail && $0.items.contains { $0.identifier == "green" } })
  }

  /// A fling, then a touch on the moving orange block: it is caught where it is and keeps its
  /// velocity until the finger moves.
  @Test func snakeIsCaughtInFlight() throws {
    let d = try Driver(SnakeTransition.self)
    d.pan(
      from: Point(x: 160, y: 410), to: Point(x: 200, y: 420), duration: 0.2,
      release: Vector(dx: 0, dy: -600))
    for _ in 0..<5 { _ = step(d) }
    let orange = d.item("orange")
    let (before, velocity) = (orange.center, orange.velocity)
    #expect(velocity.length > 100, "still flying: \(velocity)")
    d.began(at: orange.center, time: 9)
    #expect(orange.center == before)
    _ = step(d)
    let expected = before + velocity * Self.frame
    #expect((orange.center - expected).length < 2, "moved \(orange.center - before)")
  }

  /// A thrown brick grabbed in flight does not jump: the stick takes the length of the touch.
  @Test func dragIsCaughtInFlight() throws {
    let d = try Driver(DragTransition.self)
    d.pan(
      from: Point(x: 200, y: 408), to: Point(x: 210, y: 400), duration: 0.1,
      release: Vector(dx: 0, dy: -700))
    for _ in 0..<5 { _ = step(d) }
    let brick = d.item("brick")
    let (before, speed) = (brick.center, brick.velocity.length)
    #expect(speed > 100)
    d.began(at: Point(x: 100, y: 100), time: 9)
    #expect(brick.center == before)
    _ = step(d)
    #expect((brick.center - before).length <= speed * Self.frame + 1, "no jump")
  }

  // MARK: heavy

  @Test func heavyLandsOnTheFloorAndATapFlipsItToTheCeiling() throws {
    let d = try Driver(HeavyTransition.self)
    let label = d.item("label")
    #expect(label.size == Size(width: 135, height: 34))
    #expect(settle(d).outcomes == ["landed"])
    #expect(abs(label.center.y - (568 - 17)) <= 0.5, "on the floor: \(label.center.y)")
    d.tap(at: Point(x: 10, y: 10))
    #expect(settle(d).outcomes == ["landed"])
    #expect(abs(label.center.y - 17) <= 0.5, "against the ceiling: \(label.center.y)")
    #expect(
      abs(label.angle) < 1e-3 && abs(label.center.x - 160) < 0.01, "\(label.center) \(label.angle)")
    #expect(settle(d, limit: 2).outcomes.isEmpty, "one done per cycle")
  }

  /// Stronger gravity lands sooner.
  @Test func heavyGravityOverrideLandsSooner() throws {
    let normal = try Driver(HeavyTransition.self)
    let strong = try Driver(HeavyTransition.self, ["gravity": .number(4)])
    let (n, s) = (settle(normal), settle(strong))
    #expect(n.outcomes == ["landed"] && s.outcomes == ["landed"])
    #expect(s.seconds < n.seconds - 0.1, "\(s.seconds) s vs \(n.seconds) s")
  }

  // MARK: all four

  static let four = ["snap", "drag", "snake", "heavy"]

  /// The class for a catalogue name, without the registry (the lead owns it).
  static func type(_ name: String) -> Transition.Type {
    switch name {
    case "snap": SnapTransition.self
    case "drag": DragTransition.self
    case "snake": SnakeTransition.self
    default: HeavyTransition.self
    }
  }

  @Test(arguments: four)
  func namedAsTheCatalogueSays(_ name: String) {
    #expect(Self.type(name).name == name)
  }

  @Test(arguments: four)
  func parametersOverrideAndReject(_ name: String) throws {
    let type = Self.type(name)
    #expect(throws: TransitionError.self) { try Driver(type, ["no_such_parameter": .number(1)]) }
    for p in type.parameters {
      #expect(!p.source.isEmpty, "\(type.name).\(p.name) names its source")
      guard case .number(let range) = p.kind else {
        Issue.record("\(type.name).\(p.name) is not a number")
        continue
      }
      #expect(throws: TransitionError.self) {
        try Driver(type, [p.name: .number(range.upperBound + 1)])
      }
      #expect(throws: TransitionError.self) {
        try Driver(type, [p.name: .number(range.lowerBound - 1)])
      }
      #expect(throws: TransitionError.self) { try Driver(type, [p.name: .bool(true)]) }
      let values = try ParameterValues(
        [p.name: .number(range.upperBound)], declared: type.parameters)
      #expect(values.number(p.name) == range.upperBound, "the override is what it reads")
      _ = try Driver(type, [p.name: .number(range.lowerBound)])
    }
  }

  @Test func labelSizeOverridesReachTheItems() throws {
    let snap = try Driver(SnapTransition.self, ["label_width": .number(200)])
    #expect(snap.item("label").size == Size(width: 200, height: 47))
    let heavy = try Driver(HeavyTransition.self, ["label_height": .number(50)])
    #expect(heavy.item("label").size == Size(width: 135, height: 50))
  }

  /// Tap, pan with a fling, and run: every frame's centers, angles and events.
  func trace(_ name: String) throws -> [String] {
    let d = try Driver(Self.type(name))
    var lines: [String] = []
    func record(_ events: [TransitionEvent]) {
      lines.append(d.t.items.map { "\($0.center) \($0.angle)" }.joined(separator: ";"))
      lines += events.map { "\($0)" }
    }
    d.tap(at: Point(x: 250, y: 500))
    for _ in 0..<20 { record(step(d)) }
    d.began(at: Point(x: 160, y: 410))
    for i in 1...20 {
      let p = Point(x: 160 - Double(i) * 4, y: 410 - Double(i) * 6)
      d.moved(to: p, time: Double(i) / 60)
      record(step(d))
    }
    d.ended(at: Point(x: 80, y: 290), time: 0.35)
    record(d.takeEvents())
    for _ in 0..<300 { record(step(d)) }
    return lines
  }

  @Test(arguments: four)
  func sameScriptTwiceIdentical(_ name: String) throws {
    let (a, b) = (try trace(name), try trace(name))
    #expect(a.count > 300)
    #expect(a == b)
  }
}
