import Dynamics
import Glibc
import Primitives
import Testing

@testable import Transitions

/// `sheet`: dragged 1:1 between its detents, rubber-banded past them, released with the
/// finger's velocity to the detent nearest to the scroll view's projection.
@Suite("Sheet: drag, release, detents")
struct SheetTests {
  static func driver(at detent: Sheet.DetentName) throws -> Driver<Sheet> {
    try Driver(Sheet.self, ["initial_detent": .string(detent.rawValue)])
  }

  /// Holds the sheet at `from` and moves the finger straight to `to` over `frames` frames at
  /// 60 Hz (a frame stepped after each sample), then one more frame.
  static func hold(_ d: Driver<Sheet>, from: Point, to: Point, frames: Int) {
    d.began(at: from, time: 0)
    for i in 1...frames {
      d.frame()
      let f = Double(i) / Double(frames)
      d.moved(to: Point(x: from.x, y: from.y + (to.y - from.y) * f), time: Double(i) / 60)
    }
    d.frame()
  }

  @Test func betweenItsDetentsItFollowsTheFingerOneToOne() throws {
    let d = try Self.driver(at: .collapsed)
    Self.hold(d, from: Point(x: 160, y: 500), to: Point(x: 160, y: 300), frames: 30)
    #expect(abs(d.t.height - 288) < 0.01, "\(d.t.height)")
    #expect(abs(d.t.sheet.center.x - 160) < 1e-9)
  }

  /// Past the highest detent and below the lowest, the finger's travel x past the end shows as
  /// (1 − 1/(x·0.55/568 + 1))·568.
  static let bands: [(Sheet.DetentName, Double, Double, Double)] = [
    (.large, 100, -100, 548 + 92.1534),
    (.collapsed, 500, 600, 88 - 50.1445),
  ]

  @Test(arguments: bands)
  func pastItsEndsItRubberBands(
    _ start: Sheet.DetentName, _ fromY: Double, _ toY: Double, _ shown: Double
  ) throws {
    let d = try Self.driver(at: start)
    Self.hold(d, from: Point(x: 160, y: fromY), to: Point(x: 160, y: toY), frames: 30)
    #expect(abs(d.t.height - shown) < 0.01, "\(d.t.height)")
  }

  @Test func aPanOffTheSheetDoesNothing() throws {
    let d = try Self.driver(at: .collapsed)
    let handoffs = d.pan(
      from: Point(x: 160, y: 300), to: Point(x: 160, y: 100), duration: 0.2,
      release: Vector(dx: 0, dy: -2000))
    #expect(handoffs.isEmpty)
    #expect(d.t.height == 88)
  }

  /// A release: where it starts, the pan (from, to, seconds), the release velocity, the detent.
  struct Fling: Sendable, CustomTestStringConvertible {
    let start: Sheet.DetentName
    let fromY: Double
    let toY: Double
    let duration: Double
    let velocity: Double
    let detent: String
    var testDescription: String { "\(start) → \(detent) at \(velocity) pt/s" }
  }

  static let flings: [Fling] = [
    // Slow drags, let go still: the nearest detent to where the sheet is.
    Fling(start: .collapsed, fromY: 500, toY: 304, duration: 0.5, velocity: 0, detent: "medium"),
    Fling(start: .collapsed, fromY: 500, toY: 60, duration: 0.8, velocity: 0, detent: "large"),
    Fling(start: .large, fromY: 100, toY: 560, duration: 0.8, velocity: 0, detent: "collapsed"),
    Fling(start: .large, fromY: 100, toY: 364, duration: 0.5, velocity: 0, detent: "medium"),
    Fling(start: .medium, fromY: 300, toY: 340, duration: 0.3, velocity: 0, detent: "medium"),
    // Flicks: short pans, the velocity projects past the nearest detent.
    Fling(start: .collapsed, fromY: 500, toY: 470, duration: 0.1, velocity: -2000, detent: "large"),
    Fling(start: .collapsed, fromY: 500, toY: 470, duration: 0.1, velocity: -300, detent: "medium"),
    Fling(start: .large, fromY: 100, toY: 130, duration: 0.1, velocity: 2000, detent: "collapsed"),
    Fling(start: .large, fromY: 100, toY: 130, duration: 0.1, velocity: 500, detent: "medium"),
    Fling(start: .medium, fromY: 300, toY: 290, duration: 0.1, velocity: -800, detent: "large"),
  ]

  @Test(arguments: flings)
  func aReleaseGoesToTheDetentNearestItsProjection(_ fling: Fling) throws {
    let d = try Self.driver(at: fling.start)
    let handoffs = d.pan(
      from: Point(x: 160, y: fling.fromY), to: Point(x: 160, y: fling.toY),
      duration: fling.duration, release: Vector(dx: 0, dy: fling.velocity))
    let (_, finger, item) = try #require(handoffs.first)
    #expect(finger == Vector(dx: 0, dy: fling.velocity))
    #expect(item == finger, "the finger's velocity, handed over exactly")
    #expect(d.t.sheet.velocity == finger)
    #expect(d.runUntilDone(limit: 3) == [fling.detent])
    let detent = try #require(d.t.detents.named(fling.detent))
    #expect(abs(d.t.height - detent.height) < 1e-3, "at rest on \(fling.detent): \(d.t.height)")
  }

  /// The projection is where UIScrollView's deceleration stops: the center plus
  /// sign(v)·(|v| − 0.5 λ)/λ, λ = −1000 ln 0.998 per second (the decay model's closed form,
  /// 0.4995 s × v less 0.5 pt).
  @Test func theProjectionIsTheScrollViews() throws {
    let d = try Self.driver(at: .collapsed)
    let center = d.t.sheet.center
    let lambda = -1000 * log(0.998)
    let expected = center.y - (1000 - 0.5 * lambda) / lambda
    #expect(abs(d.t.projection(of: Vector(dx: 0, dy: -1000)).y - expected) < 1e-9)
    #expect(d.t.projection(of: Vector(dx: 0, dy: 0)) == center)
  }

  /// The handoff says where the release projects to, which detent that chose, and the spring;
  /// from the release on, the sheet follows that spring's closed form from the finger's velocity.
  @Test func theHandoffReportsTheProjectionTheDetentAndTheSpring() throws {
    let d = try Driver(Sheet.self, ["response": .number(0.4), "damping_ratio": .number(0.6)])
    d.began(at: Point(x: 160, y: 500), time: 0)
    d.frame()
    d.moved(to: Point(x: 160, y: 480), time: 1.0 / 60)
    d.frame()
    let release = d.t.sheet.center
    d.ended(at: Point(x: 160, y: 480), time: 2.0 / 60, velocity: Vector(dx: 0, dy: -1200))
    guard case .handoff(let h)? = d.takeEvents().first else {
      Issue.record("no handoff")
      return
    }
    let spring = SpringParameters.response(0.4, dampingRatio: 0.6)
    #expect(h.spring == spring)
    #expect(h.detent == "large")
    #expect(h.projection == d.t.projection(of: Vector(dx: 0, dy: -1200)))
    let target = Sheet.center(showing: 548, in: Rect(x: 0, y: 0, width: 320, height: 568))
    let motion = SpringMotion(spring, from: release, velocity: h.itemVelocity, to: target)
    var worst = 0.0
    for frame in 1...90 {
      d.frame()
      worst = max(worst, abs(d.t.sheet.center.y - motion.position(at: Double(frame) / 60).y))
    }
    // The engine keeps positions as 32-bit floats: 2⁻¹⁴ pt near y = 300.
    #expect(worst < 1e-3, "\(worst) pt from the closed form")
  }

  @Test func aCancelledPanGoesBackToItsDetent() throws {
    let d = try Self.driver(at: .medium)
    Self.hold(d, from: Point(x: 160, y: 300), to: Point(x: 160, y: 60), frames: 20)
    #expect(d.t.height > 500, "dragged up near large")
    d.cancelled(at: Point(x: 160, y: 60), time: 21.0 / 60)
    #expect(d.takeEvents().isEmpty, "a cancelled pan hands nothing over")
    #expect(d.runUntilDone(limit: 3) == ["medium"])
    #expect(abs(d.t.height - 284) < 1e-3)
  }

  /// A pan that catches the sheet while it springs back past an end does not make it jump.
  @Test func caughtPastAnEndItDoesNotJump() throws {
    let d = try Self.driver(at: .large)
    d.pan(
      from: Point(x: 160, y: 100), to: Point(x: 160, y: -60), duration: 0.3,
      release: Vector(dx: 0, dy: 0))
    let past = d.t.height
    #expect(past > 548 + 50, "banded past large: \(past)")
    d.began(at: Point(x: 160, y: 100), time: 9)
    d.moved(to: Point(x: 160, y: 100), time: 9 + 1.0 / 60)
    d.frame()
    #expect(abs(d.t.height - past) < 0.5, "held where it was caught: \(d.t.height) vs \(past)")
  }

  /// Caught while the spring carries it, the sheet stops where it is (the spring lets go); a
  /// cancelled pan then sends it on to the detent it was carried to.
  @Test func caughtOnItsWayItHoldsAndACancelGoesOn() throws {
    let d = try Self.driver(at: .collapsed)
    d.pan(
      from: Point(x: 160, y: 500), to: Point(x: 160, y: 470), duration: 0.1,
      release: Vector(dx: 0, dy: -2000))
    for _ in 0..<6 { d.frame() }
    let caught = d.t.height
    let speed = abs(d.t.sheet.velocity.dy)
    #expect(caught > 200 && caught < 540, "on its way to large: \(caught)")
    let finger = Point(x: 160, y: 568 - caught + 20)
    d.began(at: finger, time: 5)
    d.moved(to: finger, time: 5 + 1.0 / 60)
    d.frame()
    d.frame()
    // Its velocity carries it on until the grip holds it: at most a frame's travel.
    #expect(abs(d.t.height - caught) <= speed / 60 + 2, "caught: \(d.t.height) vs \(caught)")
    let held = d.t.height
    d.frame()
    #expect(abs(d.t.height - held) < 0.01, "and then still")
    d.cancelled(at: finger, time: 5 + 3.0 / 60)
    #expect(d.runUntilDone(limit: 3) == ["large"])
    #expect(abs(d.t.height - 548) < 1e-3)
  }

  @Test func theSameScriptGivesTheSameNumbers() throws {
    func trace() throws -> [Double] {
      let d = try Self.driver(at: .collapsed)
      d.pan(
        from: Point(x: 160, y: 500), to: Point(x: 160, y: 420), duration: 0.2,
        release: Vector(dx: 40, dy: -900))
      var ys: [Double] = []
      for _ in 0..<90 {
        d.frame()
        ys.append(d.t.sheet.center.y)
      }
      return ys
    }
    let first = try trace()
    #expect(first == (try trace()))
    #expect(Set(first).count > 10, "it moved")
  }
}
