import Primitives
import Testing

@testable import Dynamics

/// Each frame shows the state at exactly the time it names, at every display rate (issue 40):
/// the world steps at 120 Hz, and a frame that ends between two steps shows its items there.
@Suite struct FrameTimeTests {
  /// The displays of Linux desktops and phones, fractional NTSC rates included.
  static let rates = [60, 75, 90, 120, 144, 165, 240, 59.94, 143.86]

  /// An item alone, with no resistance, moving at `velocity` (pt/s); gravity when `falling`.
  func freeItem(velocity: Vector, falling: Bool = false) -> (DynamicAnimator, DynamicItem) {
    let animator = DynamicAnimator()
    let ball = item("ball", x: 100, y: 100, w: 20, h: 20)
    let material = DynamicItemBehavior(items: [ball])
    material.resistance = 0
    animator.addBehavior(material)
    if falling { animator.addBehavior(GravityBehavior(items: [ball])) }
    material.addLinearVelocity(velocity, for: ball)
    return (animator, ball)
  }

  @Test(arguments: rates)
  func timeGrowsByDtAndAConstantVelocityMovesVTimesDtEachFrame(hz: Double) {
    let (animator, ball) = freeItem(velocity: Vector(dx: 1000, dy: 0))
    let dt = 1 / hz
    var x = ball.center.x
    for k in 1...Int(hz) {
      animator.step(dt)
      #expect(abs(animator.time - Double(k) * dt) < 1e-9, "frame \(k) at \(animator.time)")
      let moved = ball.center.x - x
      #expect(abs(moved - 1000 * dt) <= 0.001 * 1000 * dt, "frame \(k): \(moved) pt")
      x = ball.center.x
    }
  }

  /// Falling from rest: on the parabola within 5 pt over a second, and no judder: every second
  /// difference within 0.05 pt of g·dt².
  @Test(arguments: rates)
  func aFallFollowsTheParabolaWithoutJudder(hz: Double) {
    let (animator, ball) = freeItem(velocity: .zero, falling: true)
    let dt = 1 / hz
    let g = 1000.0
    var ys = [ball.center.y]
    for _ in 1...Int(hz) {
      animator.step(dt)
      let t = animator.time
      #expect(abs(ball.center.y - (100 + g * t * t / 2)) <= 5, "at \(t)")
      ys.append(ball.center.y)
    }
    for k in 1..<(ys.count - 1) {
      let second = ys[k + 1] - 2 * ys[k] + ys[k - 1]
      #expect(abs(second - g * dt * dt) <= 0.05, "frame \(k): \(second) against \(g * dt * dt)")
    }
  }

  /// A spring and a decay: at the closed form at the frame's time, within 0.001 pt.
  @Test(arguments: rates)
  func springsAndDecaysAreAtTheirClosedFormAtTheFramesTime(hz: Double) throws {
    let animator = DynamicAnimator()
    let launch = Vector(dx: 500, dy: -300)
    let sprung = item("sprung", x: 100, y: 100, w: 20, h: 20)
    let parameters = SpringParameters.response(0.5, dampingRatio: 0.3)
    let target = Point(x: 250, y: 420)
    animator.addBehavior(
      try SpringBehavior(
        items: [sprung], target: target, parameters: parameters, initialVelocity: launch))
    let coasting = item("coasting", x: 50, y: 300, w: 20, h: 20)
    let model = DecayModel.scrollView(decelerationRate: DecayModel.normalDecelerationRate)
    animator.addBehavior(
      try DecayBehavior(items: [coasting], model: model, initialVelocity: launch))
    let spring = SpringMotion(parameters, from: sprung.center, velocity: launch, to: target)
    let decay = DecayMotion(model, from: coasting.center, velocity: launch)
    for _ in 1...Int(2 * hz) {
      animator.step(1 / hz)
      guard animator.isRunning else { break }
      let t = animator.time
      if !spring.isAtRest(at: t) {
        #expect((sprung.center - spring.state(at: t).position).length <= 0.001, "spring at \(t)")
      }
      if !decay.isStopped(at: t) {
        #expect((coasting.center - decay.state(at: t).position).length <= 0.001, "decay at \(t)")
      }
    }
  }

  /// A finger dragging at 2 000 pt/s from where it came down, a sample each frame: the held
  /// point stays under it.
  @Test(arguments: rates)
  func aGripKeepsTheItemUnderTheFinger(hz: Double) throws {
    let animator = DynamicAnimator()
    let card = item("card", x: 60, y: 300, w: 80, h: 80)
    let grip = try AttachmentBehavior(item: card, attachedToAnchor: card.center)
    animator.addBehavior(grip)
    let dt = 1 / hz
    animator.step(dt)  // the finger comes down on the item: a frame before it moves
    for k in 1...Int(hz / 6) {
      grip.anchorPoint = Point(x: 60 + 2000 * Double(k) * dt, y: 300)
      animator.step(dt)
      #expect((card.center - grip.anchorPoint).length <= 1, "frame \(k): \(card.center)")
    }
  }

  /// Between frames the world is brought to the frame's time before a change: a velocity given
  /// then is the velocity at that time, and gravity acts from it (not from the last step).
  @Test(arguments: [90.0, 144])
  func aVelocityGivenBetweenStepsActsFromTheFramesTime(hz: Double) {
    let (animator, ball) = freeItem(velocity: .zero, falling: true)
    animator.step(1 / hz)
    let released = animator.time
    let behavior = animator.behaviors.compactMap { $0 as? DynamicItemBehavior }.first!
    behavior.addLinearVelocity(Vector(dx: 0, dy: -600) - ball.velocity, for: ball)
    #expect(abs(ball.velocity.dy + 600) < 1e-3)
    for _ in 1...12 { animator.step(1 / hz) }
    let expected = -600 + 1000 * (animator.time - released)
    #expect(abs(ball.velocity.dy - expected) <= 0.5, "\(ball.velocity.dy) against \(expected)")
  }

  /// An item whose decay ended, the animator kept running by another, flicked between two
  /// steps: it moves v·dt in the first frame, as a moving item would.
  @Test(arguments: [60.0, 90, 144])
  func aRestingItemFlickedBetweenStepsMovesVTimesDt(hz: Double) throws {
    let animator = DynamicAnimator()
    let ball = item("ball", x: 100, y: 100, w: 20, h: 20)
    let other = item("other", x: 100, y: 400, w: 20, h: 20)
    let material = DynamicItemBehavior(items: [ball, other])
    material.resistance = 0
    animator.addBehavior(material)
    material.addLinearVelocity(Vector(dx: 50, dy: 0), for: other)
    let model = DecayModel.scrollView(decelerationRate: DecayModel.normalDecelerationRate)
    animator.addBehavior(try DecayBehavior(items: [ball], model: model))
    for _ in 0...Int(hz / 2) { animator.step(1 / hz) }
    let x = ball.center.x
    material.addLinearVelocity(Vector(dx: 1000, dy: 0), for: ball)
    animator.step(1 / hz)
    #expect(abs(ball.center.x - x - 1000 / hz) < 0.05 * 1000 / hz, "moved \(ball.center.x - x)")
  }

  /// A velocity added before a decay takes the item, at the step where it does, is kept.
  @Test(arguments: [60.0, 144])
  func aVelocityPendingWhenADecayStartsIsKept(hz: Double) throws {
    let (animator, ball) = freeItem(velocity: Vector(dx: 1000, dy: 0))
    animator.step(1 / hz)
    let more = DynamicItemBehavior(items: [ball])
    more.resistance = 0
    more.addLinearVelocity(Vector(dx: 0, dy: 500), for: ball)
    animator.addBehavior(more)
    let model = DecayModel.scrollView(decelerationRate: DecayModel.normalDecelerationRate)
    animator.addBehavior(try DecayBehavior(items: [ball], model: model))
    animator.step(1 / hz)
    animator.step(1 / hz)
    #expect(ball.velocity.dy > 400, "\(ball.velocity)")
  }

  /// Adding no velocity between steps changes nothing (it once dropped gravity's part of a step).
  @Test(arguments: [60.0, 144])
  func addingNoVelocityBetweenStepsChangesNothing(hz: Double) {
    var ends: [Double] = []
    for addsNothing in [false, true] {
      let (animator, ball) = freeItem(velocity: .zero, falling: true)
      for _ in 1...3 { animator.step(1 / hz) }
      let more = DynamicItemBehavior(items: [ball])
      more.resistance = 0
      if addsNothing { more.addLinearVelocity(.zero, for: ball) }
      animator.addBehavior(more)
      _ = animator.items
      for _ in 1...Int(hz) { animator.step(1 / hz) }
      ends.append(ball.center.y)
    }
    #expect(abs(ends[1] - ends[0]) < 0.01, "\(ends)")
  }

  /// A release: the velocity given between steps, gravity turned on with it in the same change.
  @Test(arguments: [90.0, 144])
  func gravityTurnedOnWithAReleaseActsFromTheRelease(hz: Double) {
    let (animator, ball) = freeItem(velocity: Vector(dx: 100, dy: 0))
    animator.step(1 / hz)
    animator.step(1 / hz)
    let released = animator.time
    let material = animator.behaviors.compactMap { $0 as? DynamicItemBehavior }.first!
    material.addLinearVelocity(Vector(dx: 0, dy: -600), for: ball)
    animator.addBehavior(GravityBehavior(items: [ball]))
    for _ in 1...12 { animator.step(1 / hz) }
    let expected = -600 + 1000 * (animator.time - released)
    #expect(abs(ball.velocity.dy - expected) <= 0.5, "\(ball.velocity.dy) against \(expected)")
  }

  /// A `dt` far below an internal step still advances time, and gives a frame.
  @Test func aTinyDtAdvancesTime() {
    let (animator, _) = freeItem(velocity: Vector(dx: 1000, dy: 0))
    for _ in 1...1000 { animator.step(1e-10) }
    #expect(abs(animator.time - 1e-7) < 1e-12, "\(animator.time)")
  }
}
