import Glibc

/// How a platform slows a flung value down: each is an exponential decay v(t) = v₀·e^(−λt),
/// x(t) = x₀ + v₀·(1 − e^(−λt))/λ, that stops (velocity 0, position held) the moment its speed
/// falls below the platform's own threshold. One axis; `DecayMotion` runs one per axis, as a
/// platform runs one animation per property.
///
/// Thresholds are in the platform's own length units taken as points (1 px = 1 pt: Android's
/// mdpi baseline of 160 dpi, where 1 px = 1 dp).
public enum DecayModel: Hashable, Sendable {
  /// UIScrollView's `decelerationRate` r: the velocity is multiplied by r each millisecond,
  /// λ = −1000·ln r (`normal` 0.998, `fast` 0.99), as in Ilya Lobanov's reconstruction of
  /// UIScrollView's deceleration ("Deceleration mechanics of UIScrollView", 2019). Apple
  /// documents no stopping rule; this stops 0.5 pt before the limit, the threshold that
  /// reconstruction's example scroll view decelerates with (github.com/super-ultra/
  /// ScrollMechanics, `DecelerationTimingParameters(…, threshold: 0.5)`): below a speed of
  /// 0.5 pt × λ.
  case scrollView(decelerationRate: Double)
  /// Android `FlingAnimation.setFriction(f)`: `DragForce` accelerates by −4.2·f·v
  /// (`DEFAULT_FRICTION` = −4.2 is friction 1), λ = 4.2·f; it stops below 46.875 px/s: the
  /// value threshold (minimum visible change 1 px × `THRESHOLD_MULTIPLIER` 0.75) times
  /// `VELOCITY_THRESHOLD_MULTIPLIER` 62.5 (androidx.dynamicanimation `DynamicAnimation`,
  /// `FlingAnimation.DragForce`).
  case fling(friction: Double)
  /// Flutter `FrictionSimulation(drag, x, v)`: v(t) = v₀·drag^t, λ = −ln drag; done below
  /// `Tolerance.defaultTolerance.velocity`, 0.001
  /// (https://api.flutter.dev/flutter/physics/FrictionSimulation-class.html).
  case frictionSimulation(drag: Double)

  /// UIScrollView.DecelerationRate.normal.
  public static let normalDecelerationRate = 0.998
  /// UIScrollView.DecelerationRate.fast.
  public static let fastDecelerationRate = 0.99
  /// Android `FlingAnimation.DragForce.DEFAULT_FRICTION`, negated: λ of friction 1.
  public static let flingUnitFriction = 4.2
  /// Android's fling stop speed for a translation (px/s, taken as pt/s).
  public static let flingStopSpeed = 1.0 * 0.75 * 62.5
  /// UIScrollView's stop: this far from the limit (pt).
  public static let scrollViewStopDistance = 0.5
  /// Flutter's default velocity tolerance (pt/s).
  public static let frictionSimulationStopSpeed = 1e-3

  /// The model's parameter and its value (`DecayField.range` says which values are valid).
  public var parameter: (field: DecayField, value: Double) {
    switch self {
    case .scrollView(let rate): return (.decelerationRate, rate)
    case .fling(let friction): return (.friction, friction)
    case .frictionSimulation(let drag): return (.drag, drag)
    }
  }

  /// λ, in 1/s.
  public var decayRate: Double {
    switch self {
    case .scrollView(let rate): return -1000 * log(rate)
    case .fling(let friction): return Self.flingUnitFriction * friction
    case .frictionSimulation(let drag): return -log(drag)
    }
  }

  /// The speed under which the platform stops (pt/s).
  public var stopSpeed: Double {
    switch self {
    case .scrollView: return Self.scrollViewStopDistance * decayRate
    case .fling: return Self.flingStopSpeed
    case .frictionSimulation: return Self.frictionSimulationStopSpeed
    }
  }

  /// When a value thrown at `velocity` stops: ln(|v₀| / stop speed) / λ, or 0 if it starts
  /// slower than that.
  public func stopTime(initialVelocity velocity: Double) -> Double {
    let speed = abs(velocity)
    return speed > stopSpeed ? log(speed / stopSpeed) / decayRate : 0
  }

  /// Where a value thrown at `velocity` comes to rest, from where it was thrown:
  /// sign(v₀)·(|v₀| − stop speed)/λ, 0 if it starts slower than the stop speed.
  ///
  /// This is the projection of a release: the `sheet` transition and a decay's `projection`
  /// both use it. For UIScrollView it is the continuous closed form, the limit −v₀/(1000·ln r)
  /// less the 0.5 pt stop distance, not the sum of Apple's WWDC 2018 "Designing Fluid
  /// Interfaces" `project(initialVelocity:decelerationRate:)`, v₀/1000 · r/(1 − r): that
  /// formula adds up one step per millisecond of the same decay and so lands about half a
  /// millisecond of travel short of the limit (−1/ln r − r/(1 − r) → 1/2 as r → 1); with the
  /// stop distance the two differ by about |v₀|·0.0005 s − 0.5 pt (0 near 1000 pt/s, +1 pt
  /// at 3000 pt/s, for both `normal` and `fast`).
  /// The continuous form is the one whose motion starts at exactly v₀ and decays by exactly r
  /// per millisecond, so the projection is where that motion really stops.
  public func restingDisplacement(initialVelocity velocity: Double) -> Double {
    let speed = abs(velocity)
    guard speed > stopSpeed else { return 0 }
    return (speed - stopSpeed) / decayRate * (velocity < 0 ? -1 : 1)
  }

  /// Displacement from the start and velocity at `t` (held at rest after `stopTime`).
  public func state(at t: Double, initialVelocity velocity: Double)
    -> (displacement: Double, velocity: Double)
  {
    DecayAxis(self, initialVelocity: velocity).state(at: t)
  }
}

/// One axis of a decay, its constants worked out once (a `DecayMotion` evaluates it at every
/// step without a logarithm).
struct DecayAxis: Equatable, Sendable {
  let velocity: Double
  let decayRate: Double
  let stopTime: Double
  let restingDisplacement: Double

  init(_ model: DecayModel, initialVelocity velocity: Double) {
    self.velocity = velocity
    decayRate = model.decayRate
    stopTime = model.stopTime(initialVelocity: velocity)
    restingDisplacement = model.restingDisplacement(initialVelocity: velocity)
  }

  func state(at t: Double) -> (displacement: Double, velocity: Double) {
    state(at: t, terms: DecayTerms(rate: decayRate, t: t))
  }

  func state(at t: Double, terms: DecayTerms) -> (displacement: Double, velocity: Double) {
    guard t < stopTime else { return (restingDisplacement, 0) }
    return (velocity * terms.lost / decayRate, velocity * terms.remaining)
  }
}

/// What a decay of rate λ is at time t, whatever its velocity: the fraction of the velocity
/// left, e^(−λt), and the fraction lost, 1 − e^(−λt) (from expm1: exact for small λt, so the
/// displacement v₀·(1 − e^(−λt))/λ is never 0/0 and λ > 0 in every range). Both axes of a
/// motion, and every motion of one rate started together, share them.
public struct DecayTerms: Equatable, Sendable {
  public let rate: Double
  public let t: Double
  public let remaining: Double
  public let lost: Double

  public init(rate: Double, t: Double) {
    self.rate = rate
    self.t = t
    remaining = exp(-rate * t)
    lost = -expm1(-rate * t)
  }
}

/// The fields of the decay models, by the protocol's names, with the values each accepts (the
/// one place these ranges are defined), derived from two promises:
/// - the position limit: a decay thrown at the speed limit (`PropertyRanges.speedLimit`, which
///   no exact motion exceeds) travels (|v₀| − v_stop)/λ < |v₀|/λ, so every model's λ is at least
///   `slowestRate`, at which that is the width of the coordinate space (2e6 pt, ±1e6): no decay
///   can run for ever, and one thrown from an edge stops by the other (an item that would still
///   pass an edge stops there: `ExactMotionTracks`);
/// - `behaviors` shows each value with 6 decimals (`ParameterRange.reportedResolution`), and what
///   it shows can be sent back: every bound is closed and a multiple of 10⁻⁶, so a value rounded
///   to 6 decimals stays in its range (an open bound at 0 or 1 was written as 0 or 1 and refused).
///
/// Hence: `deceleration_rate` and `drag` from 10⁻⁶ (λ = 13 816/s and 13.8/s) up to e^(−λ/1000)
/// and e^(−λ) at the slowest rate, rounded down (0.999988 and 0.988071); `friction` from
/// λ/4.2 rounded up (0.002858) to 1e6 (λ = 4.2e6/s).
public enum DecayField: String, CaseIterable, Sendable {
  case decelerationRate = "deceleration_rate"
  case friction
  case drag

  /// The slowest decay rate λ of any model (1/s): the speed limit over the width of the
  /// coordinate space, 24 000 / 2e6 = 0.012.
  public static let slowestRate =
    PropertyRanges.speedLimit / (2 * PropertyRanges.coordinate.upperBound)

  public var range: ParameterRange {
    let slowest = Self.slowestRate
    let smallest = ParameterRange.reportedResolution
    switch self {
    case .decelerationRate:
      return .closed(smallest, ParameterRange.reported(exp(-slowest / 1000), rounded: .down))
    case .drag: return .closed(smallest, ParameterRange.reported(exp(-slowest), rounded: .down))
    case .friction:
      let lowest = ParameterRange.reported(slowest / DecayModel.flingUnitFriction, rounded: .up)
      return .closed(lowest, 1e6)
    }
  }

  /// The model of this field at `value`; throws if the value is outside its range.
  public func model(_ value: Double) throws(MotionParameterError) -> DecayModel {
    guard range.contains(value) else {
      throw MotionParameterError(field: rawValue, value: value, range: range)
    }
    switch self {
    case .decelerationRate: return .scrollView(decelerationRate: value)
    case .friction: return .fling(friction: value)
    case .drag: return .frictionSimulation(drag: value)
    }
  }
}
