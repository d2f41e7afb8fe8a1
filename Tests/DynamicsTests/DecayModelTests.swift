import Glibc
import Primitives
import Testing

/// `DecayModel`'s closed forms, stops and resting points against each platform's own formula.
@Suite struct DecayModelTests {
  /// UIScrollView: the velocity is multiplied by r each millisecond, and the motion stops
  /// 0.5 pt short of the limit x₀ − v₀/(1000·ln r).
  @Test(arguments: [DecayModel.normalDecelerationRate, DecayModel.fastDecelerationRate])
  func scrollViewDecaysByRatePerMillisecond(rate: Double) {
    let model = DecayModel.scrollView(decelerationRate: rate)
    let v0 = 2400.0
    for ms in [1.0, 10, 250] {
      let v = model.state(at: ms / 1000, initialVelocity: v0).velocity
      #expect(abs(v - v0 * pow(rate, ms)) < 1e-9 * v0)
    }
    let limit = -v0 / (1000 * log(rate))
    let rest = model.restingDisplacement(initialVelocity: v0)
    #expect(abs(rest - (limit - 0.5)) < 1e-9)
    let stop = model.stopTime(initialVelocity: v0)
    #expect(
      abs(model.state(at: stop * (1 - 1e-12), initialVelocity: v0).displacement - rest) < 1e-6)
    #expect(model.state(at: stop + 1, initialVelocity: v0) == (rest, 0))
    // Apple's sum v₀/1000·r/(1 − r) is about half a millisecond of travel short of the limit.
    let apple = v0 / 1000 * rate / (1 - rate)
    #expect(abs(limit - apple - v0 * 0.0005) < 0.002 * v0 * 0.0005 + 1e-9)
    #expect(model.restingDisplacement(initialVelocity: -v0) == -rest)
  }

  /// Android `FlingAnimation`: frame by frame with `DragForce`'s own update (written here from
  /// its documented behaviour) until |v| < 46.875, it stops within one 16 ms frame of travel of
  /// where the closed form stops.
  @Test(arguments: [0.5, 1.0, 3.0])
  func flingStopsWhereAndroidStops(friction: Double) {
    let model = DecayModel.fling(friction: friction)
    let v0 = -3000.0
    let lambda = 4.2 * friction
    var (x, v) = (0.0, v0)
    var t = 0.0
    while abs(v) >= 46.875 {
      let dt = 0.016
      x = x - v / -lambda + v / -lambda * exp(-lambda * dt)
      v = v * exp(-lambda * dt)
      t += dt
    }
    let rest = model.restingDisplacement(initialVelocity: v0)
    #expect(abs(rest - (v0 + 46.875) / lambda) < 1e-9)
    #expect(abs(rest - x) <= 46.875 * 0.016 + 1e-9)
    #expect(abs(model.stopTime(initialVelocity: v0) - t) <= 0.016)
    #expect(model.stopTime(initialVelocity: 40) == 0)
    #expect(model.restingDisplacement(initialVelocity: 40) == 0)
  }

  /// Flutter `FrictionSimulation`: dx = v₀·drag^t, finalX = x₀ − v₀/ln drag; done below 0.001.
  @Test(arguments: [0.135, 0.5, 0.01])
  func frictionSimulationMatchesFlutter(drag: Double) {
    let model = DecayModel.frictionSimulation(drag: drag)
    let v0 = 1500.0
    for t in [0.1, 0.7, 2.0] {
      let s = model.state(at: t, initialVelocity: v0)
      #expect(abs(s.velocity - v0 * pow(drag, t)) < 1e-9 * v0)
      let flutterX = v0 * pow(drag, t) / log(drag) - v0 / log(drag)
      #expect(abs(s.displacement - flutterX) < 1e-9 * abs(flutterX) + 1e-9)
    }
    let finalX = -v0 / log(drag)
    let rest = model.restingDisplacement(initialVelocity: v0)
    #expect(abs(rest - finalX) <= 1e-3 / -log(drag) + 1e-9)
    let stop = model.stopTime(initialVelocity: v0)
    #expect(abs(v0 * pow(drag, stop) - 1e-3) < 1e-12)
  }

  @Test func motionStopsEachAxisOnItsOwn() {
    let motion = DecayMotion(
      .fling(friction: 1), from: Point(x: 10, y: 20), velocity: Vector(dx: 2000, dy: 30))
    #expect(motion.velocity(at: 0.001).dy == 0)
    #expect(motion.velocity(at: 0.001).dx > 0)
    #expect(motion.position(at: 100) == motion.restingPoint)
    #expect(motion.restingPoint.y == 20)
    #expect(motion.isStopped(at: motion.stopTime))
    #expect(!motion.isStopped(at: motion.stopTime * 0.99))
  }

  @Test func finiteAtExtremeValidValues() {
    let models: [DecayModel] = [
      .scrollView(decelerationRate: 1e-300), .scrollView(decelerationRate: 1.0.nextDown),
      .fling(friction: DecayField.friction.range.lowerBound),
      .fling(friction: DecayField.friction.range.upperBound),
      .frictionSimulation(drag: 1e-300), .frictionSimulation(drag: 1.0.nextDown),
    ]
    for model in models {
      for v0 in [1e6, -1e6, 1e-9] {
        #expect(model.restingDisplacement(initialVelocity: v0).isFinite)
        #expect(model.stopTime(initialVelocity: v0).isFinite)
        for t in [0, 1e-6, 1, 1e12] {
          let s = model.state(at: t, initialVelocity: v0)
          #expect(s.displacement.isFinite && s.velocity.isFinite, "\(model) \(v0) \(t)")
        }
      }
    }
  }

  @Test func fieldsRefuseValuesOutsideTheirRanges() throws {
    #expect(throws: MotionParameterError.self) { try DecayField.decelerationRate.model(1) }
    #expect(throws: MotionParameterError.self) { try DecayField.decelerationRate.model(0) }
    #expect(throws: MotionParameterError.self) { try DecayField.drag.model(1.5) }
    #expect(throws: MotionParameterError.self) { try DecayField.friction.model(0) }
    #expect(try DecayField.decelerationRate.model(0.998) == .scrollView(decelerationRate: 0.998))
    #expect(DecayField.decelerationRate.rawValue == "deceleration_rate")
  }
}
