import Primitives
import Testing

@testable import Dynamics

/// `SpringBehavior`: items follow the closed form exactly, nothing else moves them, a release
/// feeds them, a retarget does not jump, and they land exactly on the target.
@Suite struct SpringBehaviorTests {
  let start = Point(x: 100, y: 100)
  let target = Point(x: 250, y: 420)
  let launch = Vector(dx: 500, dy: -300)

  func sprung(_ parameters: SpringParameters, velocity: Vector? = Vector(dx: 500, dy: -300))
    throws -> (DynamicAnimator, DynamicItem, SpringBehavior)
  {
    let animator = DynamicAnimator(referenceBounds: screen)
    let ball = item("ball", x: start.x, y: start.y, w: 40, h: 40)
    let spring = try SpringBehavior(
      items: [ball], target: target, parameters: parameters, initialVelocity: velocity)
    animator.addBehavior(spring)
    return (animator, ball, spring)
  }

  /// At every frame, 60 or 120 Hz, the item is where the closed form puts it at the animator's
  /// time, under- critically and over-damped, with gravity acting on the same item.
  @Test(arguments: [0.3, 1.0, 2.2], [60.0, 120.0])
  func followsTheClosedFormExactlyAtAnyFrameRate(ratio: Double, fps: Double) throws {
    let parameters = SpringParameters.response(0.5, dampingRatio: ratio)
    let (animator, ball, _) = try sprung(parameters)
    animator.addBehavior(GravityBehavior(items: [ball]))
    let exact = SpringMotion(parameters, from: start, velocity: launch, to: target)
    for _ in 0..<Int(2 * fps) {
      animator.step(1 / fps)
      let (position, velocity) = exact.state(at: animator.elapsedTime)
      guard !exact.isAtRest(at: animator.elapsedTime) else { break }
      #expect((ball.center - position).length < 1e-9)
      #expect((ball.velocity - velocity).length < 1e-9)
      #expect(ball.angle == 0)
    }
  }

  /// Springs started together share their terms within a step only when their constants are
  /// the same: interleaved springs of two constants, and one started a step later, each follow
  /// their own closed form.
  @Test func springsSideBySideEachFollowTheirOwnClosedForm() throws {
    let animator = DynamicAnimator(referenceBounds: screen)
    let constants: [SpringParameters] = [
      .response(0.5, dampingRatio: 0.3), .response(0.8, dampingRatio: 0.3),
      .response(0.5, dampingRatio: 0.3), .stiffness(200, damping: 30),
    ]
    var expected: [(DynamicItem, SpringMotion)] = []
    for (i, parameters) in constants.enumerated() {
      let ball = item("ball\(i)", x: 60 + 50 * Double(i), y: 100, w: 20, h: 20)
      animator.addBehavior(
        try SpringBehavior(
          items: [ball], target: target, parameters: parameters, initialVelocity: launch))
      expected.append(
        (ball, SpringMotion(parameters, from: ball.center, velocity: launch, to: target)))
    }
    animator.step(1.0 / 120)
    let late = item("late", x: 300, y: 100, w: 20, h: 20)
    animator.addBehavior(
      try SpringBehavior(
        items: [late], target: target, parameters: constants[0], initialVelocity: launch))
    let lateMotion = SpringMotion(constants[0], from: late.center, velocity: launch, to: target)
    let lateStart = animator.elapsedTime
    for _ in 0..<60 {
      animator.step(1.0 / 60)
      for (ball, exact) in expected {
        #expect((ball.center - exact.state(at: animator.elapsedTime).position).length < 1e-9)
      }
      let lateState = lateMotion.state(at: animator.elapsedTime - lateStart)
      #expect((late.center - lateState.position).length < 1e-9)
    }
  }

  /// At rest the item is exactly on the target, still, and the animator pauses.
  @Test func landsExactlyOnTheTargetAndPauses() throws {
    let (animator, ball, spring) = try sprung(.swiftUIDefault)
    runUntilRest(animator)
    #expect(!animator.isRunning)
    #expect(ball.center == target)
    #expect(ball.velocity == .zero)
    #expect(spring.isAtRest(ball))
  }

  /// A slow critically damped approach, under the animator's own rest speed of 1 pt/s for
  /// long before the spring's tolerance, still ends on the target.
  @Test func aSlowApproachIsNotCutShort() throws {
    let (animator, ball, _) = try sprung(.response(3, dampingRatio: 1), velocity: .zero)
    runUntilRest(animator, limit: 60)
    #expect(ball.center == target)
  }

  /// Without an initial velocity the spring starts from the item's velocity.
  @Test func startsFromTheItemsVelocity() throws {
    let animator = DynamicAnimator()
    let ball = item("ball", x: start.x, y: start.y, w: 40, h: 40)
    let material = DynamicItemBehavior(items: [ball])
    material.addLinearVelocity(Vector(dx: -700, dy: 250), for: ball)
    animator.addBehavior(material)
    let spring = try SpringBehavior(items: [ball], target: target)
    animator.addBehavior(spring)
    animator.step(frame60)
    let motion = try #require(spring.motion(of: ball))
    #expect((motion.initialVelocity - Vector(dx: -700, dy: 250)).length < 1e-3)
  }

  /// A finger's grip keeps the spring off the item; at the release the spring starts with the
  /// velocity the drag left it.
  @Test func aGripHoldsItOffAndTheReleaseFeedsIt() throws {
    let (animator, ball, spring) = try sprung(.swiftUIDefault, velocity: nil)
    let grip = try AttachmentBehavior(item: ball, attachedToAnchor: ball.center)
    grip.length = 0
    animator.addBehavior(grip)
    for i in 1...10 {
      grip.anchorPoint = start + Vector(dx: 12 * Double(i), dy: 0)
      animator.step(frame60)
      #expect(spring.motion(of: ball) == nil)
    }
    #expect(abs(ball.center.x - (start.x + 120)) < 0.01)
    let released = ball.velocity
    #expect(abs(released.dx - 720) < 1)
    animator.removeBehavior(grip)
    let releasedAt = animator.elapsedTime
    animator.step(frame60)
    let motion = try #require(spring.motion(of: ball))
    #expect(motion.initialVelocity == released)
    let expected = motion.position(at: animator.elapsedTime - releasedAt)
    #expect((ball.center - expected).length < 1e-9)
  }

  /// A retarget mid-flight keeps position and velocity; the item then follows the new spring.
  @Test func retargetingDoesNotJump() throws {
    let (animator, ball, spring) = try sprung(.response(0.6, dampingRatio: 0.5))
    run(animator, seconds: 0.3)
    let (before, velocity) = (ball.center, ball.velocity)
    let at = animator.elapsedTime
    let newTarget = Point(x: 40, y: 60)
    let stiffer = SpringParameters.stiffness(400, dampingRatio: 0.8)
    try spring.retarget(to: newTarget, parameters: stiffer)
    animator.step(frame60)
    let motion = try #require(spring.motion(of: ball))
    #expect(motion.initialDisplacement == before - newTarget)
    #expect(motion.initialVelocity == velocity)
    #expect(motion.target == newTarget && motion.parameters == stiffer)
    #expect((ball.center - motion.position(at: animator.elapsedTime - at)).length < 1e-9)
  }

  /// Retargeted to its own target and constants before it first moves (as `BehaviorFactory`
  /// no longer does when it makes one), a spring moves exactly as one that was not: the
  /// retarget's restart does not drop its initial velocity, and an item still at rest with no
  /// initial velocity given starts from its own.
  @Test(arguments: [Vector(dx: 500, dy: -300), nil])
  func aRetargetBeforeItFirstMovesChangesNothing(velocity: Vector?) throws {
    let parameters = SpringParameters.response(0.4, dampingRatio: 0.6)
    let (plain, plainBall, plainSpring) = try sprung(parameters, velocity: velocity)
    let animator = DynamicAnimator(referenceBounds: screen)
    let ball = item("ball", x: start.x, y: start.y, w: 40, h: 40)
    let spring = try SpringBehavior(
      items: [ball], target: target, parameters: parameters, initialVelocity: velocity)
    try spring.retarget(to: target, parameters: parameters)
    animator.addBehavior(spring)
    for _ in 0..<30 {
      plain.step(frame60)
      animator.step(frame60)
      #expect(ball.center == plainBall.center && ball.velocity == plainBall.velocity)
    }
    let motion = try #require(spring.motion(of: ball))
    #expect(motion.initialVelocity == (velocity ?? .zero))
    #expect(motion == plainSpring.motion(of: plainBall))
  }

  /// Removed mid-flight, the spring leaves the item dynamic with its exact velocity.
  @Test func removedMidFlightTheItemKeepsItsVelocity() throws {
    let (animator, ball, spring) = try sprung(.response(0.5, dampingRatio: 0.4))
    animator.addBehavior(DynamicItemBehavior(items: [ball]))
    run(animator, seconds: 0.2)
    let velocity = ball.velocity
    animator.removeBehavior(spring)
    animator.step(1.0 / 120)
    #expect((ball.velocity - velocity).length < 1e-3 * velocity.length)
  }

  /// A dynamic item in the way is pushed aside; the sprung item keeps to its closed form.
  @Test func itPushesWhatIsInTheWay() throws {
    let (animator, ball, _) = try sprung(.response(0.5, dampingRatio: 1), velocity: .zero)
    let block = item("block", x: 175, y: 260, w: 30, h: 30)
    animator.addBehavior(CollisionBehavior(items: [ball, block]))
    let exact = SpringMotion(
      .response(0.5, dampingRatio: 1), from: start, velocity: .zero, to: target)
    run(animator, seconds: 0.5)
    #expect((ball.center - exact.position(at: animator.elapsedTime)).length < 1e-9)
    #expect(block.center != Point(x: 175, y: 260))
  }

  /// Anchored mid-flight, the item stops where it is; freed again, the spring restarts from
  /// there at rest and carries it on to the target.
  @Test func anchoringStopsItAndFreeingRestartsIt() throws {
    let (animator, ball, spring) = try sprung(.response(0.5, dampingRatio: 0.8))
    let material = DynamicItemBehavior(items: [ball])
    animator.addBehavior(material)
    run(animator, seconds: 0.2)
    material.anchored = true
    animator.step(frame60)
    let held = ball.center
    run(animator, seconds: 0.2)
    #expect(ball.center == held)
    material.anchored = false
    animator.step(frame60)
    let motion = try #require(spring.motion(of: ball))
    #expect(motion.initialDisplacement == held - target)
    runUntilRest(animator)
    #expect(ball.center == target)
  }

  @Test func refusesNonFiniteTargetsAndImpossibleConstants() {
    #expect(throws: DynamicsError.self) {
      try SpringBehavior(target: Point(x: .nan, y: 0))
    }
    #expect(throws: DynamicsError.self) {
      try SpringBehavior(
        target: .zero, parameters: SpringParameters(mass: 0, stiffness: 1, damping: 1))
    }
    #expect(throws: DynamicsError.self) {
      try SpringBehavior(target: .zero, parameters: .stiffness(-1, damping: 1))
    }
  }
}
