import Dynamics
import Primitives
import Testing

@testable import Transitions

/// pip-corners: a fling ends in the corner it projects to, without overshoot; a slow release in
/// the nearest projected corner; the release velocity is handed over exactly; a tap does nothing.
@Suite("pip-corners")
struct PipCornersTests {
  /// How far (pt) the window's center may go past its target, on either axis, outward. Measured
  /// 0 for the flings below (the default damping ratio is 1.2); the documented bound.
  static let overshootTolerance = 0.5
  static let screenCenter = Point(x: 160, y: 284)

  /// Grabs the window at its center and drags it to `to` in 0.3 s; returns the handoffs.
  func drag(_ d: Driver<PipCorners>, to: Point, release: Vector) -> [(String, Vector, Vector)] {
    d.pan(from: d.t.window.center, to: to, duration: 0.3, release: release)
  }

  /// Runs until `done`, returning the outcome, the worst overshoot past `target` outward and
  /// the time taken.
  func settle(_ d: Driver<PipCorners>, toward corner: PipCorners.Corner) -> (
    [String], Double, Double
  ) {
    let target = d.t.targets[corner]!
    var worst = 0.0
    var outcomes: [String] = []
    var time = 0.0
    for _ in 0..<(10 * 60) {
      d.frame()
      time += 1.0 / 60
      let c = d.t.window.center
      let pastX = corner.isLeft ? target.x - c.x : c.x - target.x
      let pastY = corner.isTop ? target.y - c.y : c.y - target.y
      worst = max(worst, pastX, pastY)
      for case .done(let o) in d.takeEvents() { outcomes.append(o) }
      if !outcomes.isEmpty { break }
    }
    return (outcomes, worst, time)
  }

  /// From mid-screen, at 300 to 5 000 pt/s toward a corner's target: there, never past it, and
  /// `done` within 1.5 s.
  @Test(arguments: PipCorners.Corner.allCases, [300.0, 1200, 5000])
  func aFlingTowardACornerEndsThere(corner: PipCorners.Corner, speed: Double) throws {
    let d = try Driver(PipCorners.self)
    let target = d.t.targets[corner]!
    let toward = target - Self.screenCenter
    let v = toward * (speed / toward.length)
    let handoffs = drag(d, to: Self.screenCenter, release: v)
    #expect(handoffs.count == 1 && handoffs.first?.0 == "window")
    let (outcomes, overshoot, time) = settle(d, toward: corner)
    #expect(outcomes == [corner.rawValue])
    #expect(overshoot <= Self.overshootTolerance, "\(corner): \(overshoot) pt past the target")
    #expect(time <= 1.5, "\(corner) at \(speed): done after \(time) s")
    #expect((d.t.window.center - target).length <= 0.5)
    #expect(d.t.window.angle == 0)
  }

  /// Released at rest or slowly, the window goes to the corner of its projected position: the
  /// nearest one, unless the projection crosses a midline.
  @Test func aSlowReleaseGoesToTheNearestProjectedCorner() throws {
    let d = try Driver(PipCorners.self)
    drag(d, to: Point(x: 130, y: 250), release: Vector(dx: 40, dy: 30))  // projects to (150, 265)
    #expect(d.runUntilDone() == ["top_left"])
    #expect((d.t.window.center - d.t.targets[.topLeft]!).length <= 0.5)
    let e = try Driver(PipCorners.self)
    // Left of the midline, but 100 pt/s right projects 50 pt: past it.
    drag(e, to: Point(x: 150, y: 300), release: Vector(dx: 100, dy: 0))
    #expect(e.t.corner(of: e.t.projection(of: Vector(dx: 100, dy: 0))) == .bottomRight)
    #expect(e.runUntilDone() == ["bottom_right"])
    let f = try Driver(PipCorners.self)
    drag(f, to: Point(x: 150, y: 300), release: .zero)
    #expect(f.runUntilDone() == ["bottom_left"])
  }

  /// The projection is UIScrollView's: v × d / (1000 (1 − d)), 0.499 s × v at d = 0.998.
  @Test func theProjectionIsTheScrollViewsDeceleration() throws {
    let d = try Driver(PipCorners.self, ["deceleration_rate": .number(0.99)])
    let from = d.t.window.center
    let p = d.t.projection(of: Vector(dx: -1000, dy: 500))
    #expect(abs(p.x - (from.x - 99)) < 1e-9 && abs(p.y - (from.y + 49.5)) < 1e-9)
  }

  /// The release velocity is the window's, exactly, and it moves off with it.
  @Test func theHandoffVelocityIsWhatTheWindowMovesWith() throws {
    let d = try Driver(PipCorners.self)
    let v = Vector(dx: -700, dy: -900)
    let handoffs = drag(d, to: Self.screenCenter, release: v)
    #expect(handoffs.count == 1)
    if let (item, gesture, taken) = handoffs.first {
      #expect(item == "window" && gesture == v && (taken - v).length < 0.001)
    }
    #expect((d.t.window.velocity - v).length < 0.001)
    // One internal step later its velocity is the release velocity plus that step's spring
    // pull (from the chosen corner, top-left: v projects there), less the resistance: Box2D's
    // (v + h·F/m) / (1 + h·r), with m = 1.
    let spring = try #require(
      d.t.animator.behaviors.compactMap { $0 as? FieldBehavior }.first {
        $0.position == d.t.targets[.topLeft]!
      })
    let h = DynamicAnimator.stepInterval
    let pull = spring.force(at: d.t.window.center, velocity: v, mass: 1, charge: 0) * 100
    d.t.animator.step(h)
    let expected = (v + pull * h) * (1 / (1 + h * 36))
    #expect((d.t.window.velocity - expected).length < 0.01, "\(d.t.window.velocity)")
  }

  /// The window is dragged 1:1 by the touched point and never turns; a pan that begins off the
  /// window does nothing.
  @Test func theWindowFollowsTheFingerAndAPanOffItIsIgnored() throws {
    let d = try Driver(PipCorners.self)
    let start = d.t.window.center + Vector(dx: 50, dy: 20)
    d.began(at: start)
    for i in 1...20 {
      let finger = start + Vector(dx: -4 * Double(i), dy: -9 * Double(i))
      d.moved(to: finger, time: Double(i) / 60)
      d.frame()
      #expect((d.t.window.center + Vector(dx: 50, dy: 20) - finger).length < 0.01)
    }
    #expect(d.t.window.angle == 0)
    // Released at rest left of the midline, below the other.
    d.ended(at: start + Vector(dx: -80, dy: -180), time: 21.0 / 60, velocity: .zero)
    #expect(d.runUntilDone() == ["bottom_left"])
    let resting = d.t.window.center
    let e = d.pan(from: Point(x: 20, y: 20), to: Point(x: 200, y: 300), duration: 0.2)
    #expect(e.isEmpty)
    for _ in 0..<30 { d.frame() }
    #expect(d.t.window.center == resting && d.takeEvents().isEmpty)
  }

  /// A tap, on the window or off it, is ignored and moves nothing.
  @Test func aTapDoesNothing() throws {
    let d = try Driver(PipCorners.self)
    #expect(d.runUntilDone(limit: 2).isEmpty)
    let resting = d.t.window.center
    #expect(!d.tap(at: resting))
    #expect(!d.tap(at: Point(x: 10, y: 10)))
    for _ in 0..<60 { d.frame() }
    #expect(d.t.window.center == resting && d.takeEvents().isEmpty)
    #expect(resting == d.t.targets[.bottomRight]!)
  }

  /// At rest every corner's field acts in its own quarter again, and the quarters do not
  /// overlap: a window left in a corner is held by that corner's spring alone.
  @Test func atRestEachCornerHoldsItsQuarter() throws {
    let d = try Driver(PipCorners.self)
    drag(d, to: Point(x: 100, y: 100), release: Vector(dx: -300, dy: -300))
    #expect(d.runUntilDone() == ["top_left"])
    let springs = d.t.animator.behaviors.compactMap { $0 as? FieldBehavior }
    #expect(springs.count == 4)
    for s in springs {
      #expect(s.items.count == 1 && s.region != .infinite)
      let holds = s.region.contains(d.t.window.center - s.position)
      #expect(holds == (s.position == d.t.targets[.topLeft]!))
    }
  }

  /// Flung hard into its own corner, the window stops against the screen edge, at most the
  /// margin past the target, and comes back.
  @Test func aHardFlingIntoTheCornerStopsAtTheEdge() throws {
    let d = try Driver(PipCorners.self)
    drag(d, to: Point(x: 180, y: 440), release: Vector(dx: 4000, dy: 4000))
    let (outcomes, overshoot, _) = settle(d, toward: .bottomRight)
    #expect(outcomes == ["bottom_right"])
    #expect(overshoot > Self.overshootTolerance && overshoot <= 28.5, "\(overshoot)")
    #expect((d.t.window.center - d.t.targets[.bottomRight]!).length <= 0.5)
  }
}
