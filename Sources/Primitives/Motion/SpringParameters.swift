import Glibc

/// A damped spring: mass m, stiffness k and damping c of m·x″ + c·x′ + k·x = 0, x being the
/// displacement from the target (pt; time in seconds).
///
/// Every platform's way of describing a spring becomes these three numbers, through one
/// constructor per parameter set, each converting exactly as its platform does:
/// - `response(_:dampingRatio:)`: SwiftUI `Spring(response:dampingRatio:)`;
/// - `duration(_:bounce:)`: SwiftUI `Spring(duration:bounce:)`, Flutter
///   `SpringDescription.withDurationAndBounce`;
/// - `stiffness(_:dampingRatio:mass:)`: Android `SpringForce`, libadwaita `AdwSpringParams`,
///   Flutter `SpringDescription.withDampingRatio`;
/// - `stiffness(_:damping:mass:)`: Flutter `SpringDescription`, SwiftUI
///   `Spring(mass:stiffness:damping:allowOverDamping: true)`;
/// - `origami(tension:friction:)`: Rebound's `SpringConfig.fromOrigamiTensionAndFriction`.
///
/// The derived `dampingRatio`, `response`, `duration` and `bounce` are SwiftUI's and Flutter's
/// (https://developer.apple.com/documentation/swiftui/spring: duration 0.5, bounce 0.3 → mass 1,
/// stiffness 157.9, damping 17.6; mass 1, stiffness 100, damping 10 → duration 0.63, bounce 0.5).
/// Over-damped springs stay over-damped, as in Flutter and in SwiftUI with `allowOverDamping`
/// (SwiftUI's `Spring(mass:stiffness:damping:)` treats them as critically damped by default).
/// The accepted values of each parameter are `SpringField.range`; the constructors do not check
/// them.
public struct SpringParameters: Equatable, Sendable {
  public let mass: Double
  public let stiffness: Double
  public let damping: Double

  public init(mass: Double = 1, stiffness: Double, damping: Double) {
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
  }

  /// SwiftUI `Spring(response:dampingRatio:)`: mass 1, k = (2π / response)², c = 2ζ√k
  /// (response is the undamped period; the ratio is the fraction of critical damping).
  public static func response(_ response: Double, dampingRatio: Double) -> SpringParameters {
    let stiffness = Self.stiffness(period: response, mass: 1)
    return .stiffness(stiffness, dampingRatio: dampingRatio)
  }

  /// SwiftUI `Spring(duration:bounce:)` = Flutter `SpringDescription.withDurationAndBounce`:
  /// mass 1, k = (2π / duration)², ζ = 1 − bounce for bounce > 0 and 1 / (1 + bounce) for
  /// bounce ≤ 0 (over-damped below 0; bounce → −1 would need infinite damping), c = 2ζ√k
  /// (https://api.flutter.dev/flutter/physics/SpringDescription/SpringDescription.withDurationAndBounce.html).
  /// Flutter takes the duration in whole milliseconds; this takes seconds, as SwiftUI does.
  public static func duration(_ duration: Double, bounce: Double) -> SpringParameters {
    let dampingRatio = bounce > 0 ? 1 - bounce : 1 / (1 + bounce)
    return .stiffness(Self.stiffness(period: duration, mass: 1), dampingRatio: dampingRatio)
  }

  /// Android `SpringForce(stiffness, dampingRatio)` (mass 1), libadwaita
  /// `adw_spring_params_new(damping_ratio, mass, stiffness)`, Flutter
  /// `SpringDescription.withDampingRatio`: c = 2ζ√(mk).
  public static func stiffness(_ stiffness: Double, dampingRatio: Double, mass: Double = 1)
    -> SpringParameters
  {
    SpringParameters(
      mass: mass, stiffness: stiffness, damping: 2 * dampingRatio * (mass * stiffness).squareRoot())
  }

  /// Flutter `SpringDescription(mass:stiffness:damping:)`, SwiftUI
  /// `Spring(mass:stiffness:damping:)`: the three constants as given.
  public static func stiffness(_ stiffness: Double, damping: Double, mass: Double = 1)
    -> SpringParameters
  {
    SpringParameters(mass: mass, stiffness: stiffness, damping: damping)
  }

  /// Origami's tension and friction, converted as Rebound converts them
  /// (`OrigamiValueConverter`, facebook/rebound): stiffness = (tension − 30) × 3.62 + 194,
  /// damping = (friction − 8) × 3 + 25, mass 1; a value of exactly 0 converts to 0, as in
  /// Rebound for Java (rebound-js has no such case: 0 gives 85.4 and 1).
  public static func origami(tension: Double, friction: Double) -> SpringParameters {
    let stiffness = tension == 0 ? 0 : (tension - 30) * 3.62 + 194
    let damping = friction == 0 ? 0 : (friction - 8) * 3 + 25
    return SpringParameters(mass: 1, stiffness: stiffness, damping: damping)
  }

  /// SwiftUI's default spring, `Spring()`: `init(duration: 0.5, bounce: 0.0)`
  /// (https://developer.apple.com/documentation/swiftui/spring/init(duration:bounce:)), which
  /// `Animation.spring` also uses ("the default parameter values" of
  /// `spring(duration:bounce:blendDuration:)`): critically damped, k = 16π² ≈ 157.9, c = 8π.
  public static let swiftUIDefault = SpringParameters.duration(0.5, bounce: 0)

  /// Whether `SpringSolution` is finite for these constants at every time: m and k positive,
  /// c ≥ 0, and k/m and (c/2m)² finite. Every spring built from values in `SpringField.range`
  /// is.
  public var hasFiniteSolution: Bool {
    let sigma = damping / (2 * mass)
    return mass > 0 && stiffness > 0 && damping >= 0 && (stiffness / mass).isFinite
      && (sigma * sigma).isFinite
  }

  // MARK: Derived (SwiftUI's and Flutter's definitions)

  /// ζ = c / (2√(mk)): 1 critically damped, below 1 oscillating, above 1 over-damped.
  public var dampingRatio: Double { damping / (2 * (mass * stiffness).squareRoot()) }

  /// SwiftUI's `response`: the undamped period 2π√(m/k), in seconds.
  public var response: Double { 2 * Double.pi * (mass / stiffness).squareRoot() }

  /// SwiftUI's and Flutter's `duration` (the "perceptual duration"): the same 2π√(m/k).
  public var duration: Double { response }

  /// SwiftUI's and Flutter's `bounce`: 1 − ζ when ζ < 1, 1/ζ − 1 otherwise
  /// (https://api.flutter.dev/flutter/physics/SpringDescription/bounce.html).
  public var bounce: Double {
    let ratio = dampingRatio
    return ratio < 1 ? 1 - ratio : 1 / ratio - 1
  }

  /// k = m·(2π / period)².
  private static func stiffness(period: Double, mass: Double) -> Double {
    let angular = 2 * Double.pi / period
    return mass * angular * angular
  }
}
