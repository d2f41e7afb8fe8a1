/// The fields of a spring's parameter sets, by the protocol's names, each with the values it
/// accepts: the one place these ranges are defined (the protocol takes them from here).
///
/// The minimum: mass, stiffness, response and duration positive; damping and damping
/// ratio not negative; bounce within −1…1. The ranges below are that, with the finite bounds
/// that keep every closed form finite (`ParameterRange`): a mass of 1e-6 under a stiffness of
/// 1e9 still oscillates at only 3·10⁷ rad/s. Origami's tension must be positive, friction not
/// negative, so that Rebound's conversion gives a positive stiffness and a damping ≥ 0.
///
/// Two bounds are derived from the others so that the mass, stiffness and damping `behaviors`
/// reports for any accepted spring, whichever set gave it, can be sent back (PROTOCOL.md §5):
/// - `damping` reaches 2·ζ·√(m·k) at the largest damping ratio, mass and stiffness
///   (2·1000·√(1e6·1e9) ≈ 6.32e10), the most `stiffness` + `damping_ratio` + `mass` gives;
/// - `bounce` starts at 1/ζ − 1 for the largest damping ratio (−0.999): below it
///   `SpringParameters.duration(_:bounce:)` gives ζ = 1/(1 + bounce) > 1000, and at −1 it
///   would need infinite damping.
///
/// What no range can bound, the speed a large displacement gives a stiff spring, the engine's
/// speed limit bounds (`ExactMotionTracks`).
public enum SpringField: String, CaseIterable, Sendable {
  case response
  case dampingRatio = "damping_ratio"
  case duration
  case bounce
  case stiffness
  case damping
  case mass
  case tension
  case friction

  public var range: ParameterRange {
    switch self {
    case .response, .duration: return .closed(1e-3, 1e3)
    case .dampingRatio: return .closed(0, Self.largestDampingRatio)
    case .bounce: return .closed(1 / Self.largestDampingRatio - 1, 1)
    case .stiffness: return .closed(1e-6, 1e9)
    case .damping:
      // As `SpringParameters.stiffness(_:dampingRatio:mass:)` computes it, so that the corner
      // is the very value a spring given there reports.
      let mass = Self.mass.range.upperBound
      let stiffness = Self.stiffness.range.upperBound
      return .closed(0, 2 * Self.largestDampingRatio * (mass * stiffness).squareRoot())
    case .mass: return .closed(1e-6, 1e6)
    case .tension: return .above(0, upTo: 1e4)
    case .friction: return .closed(0, 1e4)
    }
  }

  /// The largest damping ratio ζ accepted (1000: far over-damped).
  private static let largestDampingRatio = 1e3
}

/// A value refused because it lies outside its field's range.
public struct MotionParameterError: Error, Equatable, Sendable {
  /// The field, by the protocol's name (`damping_ratio`).
  public let field: String
  public let value: Double
  public let range: ParameterRange

  public init(field: String, value: Double, range: ParameterRange) {
    self.field = field
    self.value = value
    self.range = range
  }
}

/// The five ways of giving a spring; a spring is given in exactly one of them.
public enum SpringParameterSet: CaseIterable, Sendable {
  /// SwiftUI `Spring(response:dampingRatio:)`.
  case responseAndDampingRatio
  /// SwiftUI `Spring(duration:bounce:)`, Flutter `withDurationAndBounce`.
  case durationAndBounce
  /// Android `SpringForce`, libadwaita `AdwSpringParams`, Flutter `withDampingRatio`.
  case stiffnessAndDampingRatio
  /// Flutter `SpringDescription`, SwiftUI `Spring(mass:stiffness:damping:)`.
  case stiffnessAndDamping
  /// Origami's tension and friction (Rebound).
  case origami

  /// The fields the set needs.
  public var requiredFields: [SpringField] {
    switch self {
    case .responseAndDampingRatio: return [.response, .dampingRatio]
    case .durationAndBounce: return [.duration, .bounce]
    case .stiffnessAndDampingRatio: return [.stiffness, .dampingRatio]
    case .stiffnessAndDamping: return [.stiffness, .damping]
    case .origami: return [.tension, .friction]
    }
  }

  /// The fields the set may also have (`mass`, default 1).
  public var optionalFields: [SpringField] {
    switch self {
    case .stiffnessAndDampingRatio, .stiffnessAndDamping: return [.mass]
    default: return []
    }
  }

  /// The sets whose required fields are all among `fields`: none, one, or (for a spring given
  /// two ways) several.
  public static func complete(among fields: Set<SpringField>) -> [SpringParameterSet] {
    allCases.filter { $0.requiredFields.allSatisfy(fields.contains) }
  }

  /// The spring from this set's values (`value(field)`; a missing optional mass is 1). Throws
  /// for the first field, in `requiredFields` then `optionalFields` order, that is missing
  /// (as NaN) or outside its range.
  public func parameters(_ value: (SpringField) -> Double?) throws(MotionParameterError)
    -> SpringParameters
  {
    func checked(_ field: SpringField, default fallback: Double? = nil)
      throws(MotionParameterError) -> Double
    {
      let v = value(field) ?? fallback ?? .nan
      guard field.range.contains(v) else {
        throw MotionParameterError(field: field.rawValue, value: v, range: field.range)
      }
      return v
    }
    switch self {
    case .responseAndDampingRatio:
      return .response(try checked(.response), dampingRatio: try checked(.dampingRatio))
    case .durationAndBounce:
      return .duration(try checked(.duration), bounce: try checked(.bounce))
    case .stiffnessAndDampingRatio:
      let (k, ratio) = (try checked(.stiffness), try checked(.dampingRatio))
      return .stiffness(k, dampingRatio: ratio, mass: try checked(.mass, default: 1))
    case .stiffnessAndDamping:
      let (k, c) = (try checked(.stiffness), try checked(.damping))
      return .stiffness(k, damping: c, mass: try checked(.mass, default: 1))
    case .origami:
      return .origami(tension: try checked(.tension), friction: try checked(.friction))
    }
  }
}
