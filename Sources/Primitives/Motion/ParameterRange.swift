/// The values a motion parameter accepts: a lower and an upper bound, each included or not
/// (`mass` is at least 1e-6, `bounce` is greater than −1, a deceleration rate lies strictly
/// between 0 and 1).
///
/// Defined once, with the parameters (`SpringField.range`, `DecayField.range`); the protocol
/// takes its ranges and its error messages from them. Every range keeps the closed forms
/// finite for any finite start (`SpringSolution`, `DecayModel`): where a parameter's natural
/// bound is 0 and a value just above it would overflow (a mass of 1e-320 makes k/m infinite),
/// the range starts at a small positive value instead, as `PropertyRanges.density` does.
public struct ParameterRange: Hashable, Sendable {
  public let lowerBound: Double
  public let upperBound: Double
  /// False for ranges such as `bounce > −1`, whose lower bound itself is refused.
  public let includesLowerBound: Bool
  /// False for ranges such as `deceleration_rate < 1`.
  public let includesUpperBound: Bool

  public init(
    _ lowerBound: Double, _ upperBound: Double, includesLowerBound: Bool = true,
    includesUpperBound: Bool = true
  ) {
    self.lowerBound = lowerBound
    self.upperBound = upperBound
    self.includesLowerBound = includesLowerBound
    self.includesUpperBound = includesUpperBound
  }

  /// `lower ≤ x ≤ upper`.
  public static func closed(_ lower: Double, _ upper: Double) -> ParameterRange {
    ParameterRange(lower, upper)
  }

  /// `lower < x ≤ upper`.
  public static func above(_ lower: Double, upTo upper: Double) -> ParameterRange {
    ParameterRange(lower, upper, includesLowerBound: false)
  }

  /// `lower < x < upper`.
  public static func open(_ lower: Double, _ upper: Double) -> ParameterRange {
    ParameterRange(lower, upper, includesLowerBound: false, includesUpperBound: false)
  }

  /// How many values per unit the protocol shows for motion parameters: `behaviors` writes them
  /// with 6 decimals (`WireProtocol.angularDecimals`), so a bound that must survive being shown
  /// and sent back is a multiple of 1 / 10⁶ (`reportedResolution`).
  public static let reportedScale = 1e6
  /// The step of the values the protocol shows for motion parameters, 10⁻⁶.
  public static let reportedResolution = 1 / reportedScale

  /// `value` rounded `down` or `up` to a multiple of `reportedResolution` (a derived bound made
  /// one the protocol shows exactly).
  public static func reported(_ value: Double, rounded rule: FloatingPointRoundingRule) -> Double {
    (value * reportedScale).rounded(rule) / reportedScale
  }

  /// Whether `value` lies in the range (never true for NaN).
  public func contains(_ value: Double) -> Bool {
    let aboveLower = includesLowerBound ? value >= lowerBound : value > lowerBound
    let belowUpper = includesUpperBound ? value <= upperBound : value < upperBound
    return aboveLower && belowUpper
  }
}
