import Primitives
import Testing

@testable import Dynamics

/// `DecayBehavior`: items coast along each platform's closed form and stop where it stops.
@Suite struct DecayBehaviorTests {
  static let models: [DecayModel] = [
    .scrollView(decelerationRate: DecayModel.normalDecelerationRate),
    .scrollView(decelerationRate: DecayModel.fastDecelerationRate),
    .fling(friction: 1), .frictionSimulation(drag: 0.135),
  ]

  /// Every frame on the closed form, then at rest exactly on the resting point announced
  /// before the motion started; the animator pauses.
  @Test(arguments: models)
  func coastsOnTheClosedFormAndStopsOnItsProjection(model: DecayModel) throws {
    let animator = DynamicAnimator()
    let puck = item("puck", x: 50, y: 300, w: 30, h: 30)
    let velocity = Vector(dx: 1800, dy: -900)
    let decay = try DecayBehavior(items: [puck], model: model, initialVelocity: velocity)
    animator.addBehavior(decay)
    animator.addBehavior(GravityBehavior(items: [puck]))
    let announced = try #require(decay.restingPoint(of: puck))
    let exact = DecayMotion(model, from: Point(x: 50, y: 300), velocity: velocity)
    #expect(announced == exact.restingPoint)
    while animator.isRunning && animator.elapsedTime < 60 {
      animator.step(1.0 / 120)
      let (position, v) = exact.state(at: animator.elapsedTime)
      #expect((puck.center - position).length < 1e-9)
      #expect((puck.velocity - v).length < 1e-9)
    }
    #expect(!animator.isRunning)
    #expect(puck.center == announced)
    #expect(decay.isAtRest(puck))
  }

  /// Decays started together share their exponentials within a step only at the same rate:
  /// each of the four models, side by side, follows its own closed form.
  @Test func decaysSideBySideEachFollowTheirOwnClosedForm() throws {
    let animator = DynamicAnimator()
    let velocity = Vector(dx: 1800, dy: -900)
    var expected: [(DynamicItem, DecayMotion)] = []
    for (i, model) in Self.models.enumerated() {
      let puck = item("puck\(i)", x: 50 + 40 * Double(i), y: 300, w: 30, h: 30)
      animator.addBehavior(
        try DecayBehavior(items: [puck], model: model, initialVelocity: velocity))
      expected.append((puck, DecayMotion(model, from: puck.center, velocity: velocity)))
    }
    for _ in 0..<120 {
      animator.step(1.0 / 60)
      for (puck, exact) in expected {
        #expect((puck.center - exact.state(at: animator.elapsedTime).position).length < 1e-9)
      }
    }
  }

  /// A release feeds the decay: it starts with the velocity the drag left the item.
  @Test func aReleaseFeedsIt() throws {
    let animator = DynamicAnimator()
    let puck = item("puck", x: 50, y: 300, w: 30, h: 30)
    let decay = try DecayBehavior(items: [puck], model: .fling(friction: 0.8))
    animator.addBehavior(decay)
    let grip = try AttachmentBehavior(item: puck, attachedToAnchor: puck.center)
    grip.length = 0
    animator.addBehavior(grip)
    for i in 1...6 {
      grip.anchorPoint = Point(x: 50 + 20 * Double(i), y: 300)
      animator.step(frame60)
    }
    let released = puck.velocity
    let projection = try #require(decay.restingPoint(of: puck))
    animator.removeBehavior(grip)
    animator.step(frame60)
    let motion = try #require(decay.motion(of: puck))
    #expect(motion.initialVelocity == released)
    #expect(motion.restingPoint == projection)
  }

  /// Given its own model before it first moves (as `BehaviorFactory` no longer does when it
  /// makes one), a decay moves exactly as one that was not: the restart does not drop its
  /// initial velocity.
  @Test(arguments: models)
  func itsOwnModelBeforeItFirstMovesChangesNothing(model: DecayModel) throws {
    let velocity = Vector(dx: 1800, dy: -900)
    var moved: [(DynamicItem, DecayBehavior)] = []
    let animators = [DynamicAnimator(), DynamicAnimator()]
    for (i, animator) in animators.enumerated() {
      let puck = item("puck", x: 50, y: 300, w: 30, h: 30)
      let decay = try DecayBehavior(items: [puck], model: model, initialVelocity: velocity)
      if i == 1 { try decay.setModel(model) }
      animator.addBehavior(decay)
      moved.append((puck, decay))
    }
    for _ in 0..<30 {
      for animator in animators { animator.step(frame60) }
      #expect(moved[0].0.center == moved[1].0.center)
      #expect(moved[0].0.velocity == moved[1].0.velocity)
    }
    let motion = try #require(moved[1].1.motion(of: moved[1].0))
    #expect(motion.initialVelocity == velocity)
    #expect(motion == moved[0].1.motion(of: moved[0].0))
  }

  @Test func refusesParametersOutsideTheirRanges() {
    #expect(throws: DynamicsError.self) {
      try DecayBehavior(model: .scrollView(decelerationRate: 1))
    }
    #expect(throws: DynamicsError.self) { try DecayBehavior(model: .fling(friction: 0)) }
    #expect(throws: DynamicsError.self) {
      try DecayBehavior(
        model: .frictionSimulation(drag: 0.5), initialVelocity: Vector(dx: .infinity, dy: 0))
    }
  }
}
