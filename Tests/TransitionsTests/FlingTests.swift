import Dynamics
import Primitives
import Testing

@testable import Transitions

/// `fling`: the card follows the finger 1:1, is released into the platform's decay with the
/// finger's velocity exactly, and stops where that platform's closed form stops it.
@Suite("Fling: drag, release into a decay, stop at the projection")
struct FlingTests {
  @Test func itFollowsTheFingerOneToOneWithoutTurning() throws {
    let d = try Driver(Fling.self)
    d.began(at: Point(x: 200, y: 300), time: 0)
    for i in 1...20 {
      d.frame()
      d.moved(to: Point(x: 200 + 3 * Double(i), y: 300 - 5 * Double(i)), time: Double(i) / 60)
    }
    d.frame()
    // The point touched, 40 pt right of and 16 pt below the center, is under the finger.
    #expect((d.t.card.center - Point(x: 220, y: 184)).length < 0.01, "\(d.t.card.center)")
    #expect(d.t.card.angle == 0)
  }

  /// Each platform's decay, given by its one parameter: the release velocity is the card's
  /// exactly, every frame after it is the decay's closed form from the release, and the card
  /// rests on the resting point, where `done` `stopped` comes.
  @Test(arguments: [
    ("deceleration_rate", 0.998, DecayModel.scrollView(decelerationRate: 0.998)),
    ("deceleration_rate", 0.99, .scrollView(decelerationRate: 0.99)),
    ("friction", 1.5, .fling(friction: 1.5)),
    ("drag", 0.135, .frictionSimulation(drag: 0.135)),
  ])
  func itStopsWhereThePlatformStopsIt(field: String, value: Double, model: DecayModel) throws {
    let d = try Driver(Fling.self, [field: .number(value)])
    #expect(d.t.model == model)
    let release = Vector(dx: 900, dy: -1400)
    let handoffs = d.pan(
      from: Point(x: 160, y: 300), to: Point(x: 180, y: 260), duration: 0.1, release: release)
    #expect(handoffs.count == 1)
    #expect(handoffs.first?.2 == release)
    let start = d.t.card.center
    let exact = DecayMotion(model, from: start, velocity: d.t.card.velocity)
    var outcomes: [String] = []
    var frames = 0
    while outcomes.isEmpty, frames < 1200 {
      d.frame()
      frames += 1
      for case .done(let o) in d.takeEvents() { outcomes.append(o) }
      let t = Double(frames) / 60
      #expect((d.t.card.center - exact.state(at: t).position).length < 1e-9, "frame \(frames)")
    }
    #expect(outcomes == ["stopped"])
    #expect(d.t.card.center == exact.restingPoint)
    #expect(d.t.card.velocity == .zero)
    // It stays there, and the animator comes to rest.
    _ = d.runUntilDone(limit: 1)
    #expect(d.t.card.center == exact.restingPoint)
    #expect(!d.t.animator.isRunning)
  }

  /// What the fling accepts, a decay accepts: each decay parameter's range lies in its field's.
  @Test func everyDecayRangeLiesWithinItsField() throws {
    for field in DecayField.allCases {
      let declared = try #require(Fling.parameters.first { $0.name == field.rawValue })
      guard case .number(let range) = declared.kind else {
        Issue.record("\(field) is not a number")
        continue
      }
      #expect(field.range.contains(range.lowerBound) && field.range.contains(range.upperBound))
    }
  }

  @Test func twoDecaysAtOnceAreRefused() {
    #expect(throws: TransitionError.self) {
      try Driver(Fling.self, ["friction": .number(1), "drag": .number(0.5)])
    }
  }

  /// A touch on the coasting card catches it where it is: no jump, and no `done` from the
  /// interrupted decay; the next release starts a new one.
  @Test func aTouchCatchesItMidFlight() throws {
    let d = try Driver(Fling.self)
    d.pan(
      from: Point(x: 160, y: 284), to: Point(x: 160, y: 250), duration: 0.1,
      release: Vector(dx: 0, dy: -2000))
    for _ in 0..<10 { d.frame() }
    let caught = d.t.card.center
    d.began(at: caught, time: 1)
    d.frame()
    #expect((d.t.card.center - caught).length < 0.01)
    #expect(d.takeEvents().isEmpty)
    d.ended(at: caught, time: 1.1, velocity: Vector(dx: 100, dy: 0))
    #expect(d.runUntilDone() == ["stopped"])
  }
}
