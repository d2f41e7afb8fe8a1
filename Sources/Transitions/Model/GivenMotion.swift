import Primitives

/// The spring or the decay a session's parameters give, when a transition declares a spring's
/// fields (`SpringField`: `response`, `damping_ratio`, …) or a decay's (`DecayField`:
/// `deceleration_rate`, `friction`, `drag`) as its parameters: the sheet's spring, the fling's
/// decay, a document's `"from_parameters": true`. A client gives one set; the fields it left
/// out take their values (their defaults).
public enum GivenMotion {
  /// The first of `SpringParameterSet.allCases` whose fields hold every spring field `given`
  /// (the others at `value`), SwiftUI's default spring (`Spring(duration: 0.5, bounce: 0)`,
  /// exactly) when none is given. Throws when the fields given belong to no one set.
  public static func spring(given: Set<String>, value: (SpringField) -> Double)
    throws(TransitionError) -> SpringParameters
  {
    let fields = Set(SpringField.allCases.filter { given.contains($0.rawValue) })
    guard !fields.isEmpty else { return .swiftUIDefault }
    let fits = SpringParameterSet.allCases.first {
      fields.isSubset(of: Set($0.requiredFields + $0.optionalFields))
    }
    guard let set = fits else {
      throw TransitionError(
        kind: .unknownParameter,
        message: "the spring is given by one parameter set, not "
          + fields.map(\.rawValue).sorted().joined(separator: " with ") + " (the sets: "
          + SpringParameterSet.allCases.map {
            ($0.requiredFields + $0.optionalFields).map(\.rawValue).joined(separator: "+")
          }.joined(separator: ", ") + ")")
    }
    do {
      return try set.parameters { value($0) }
    } catch {
      throw TransitionError(
        kind: .outOfRange, message: "parameter '\(error.field)' is outside a spring's range")
    }
  }

  /// The model of the one decay field `given`, the `deceleration_rate` at `value` when none
  /// is. Throws when more than one is given, or a value is outside its field's range.
  public static func decay(given: Set<String>, value: (DecayField) -> Double)
    throws(TransitionError) -> DecayModel
  {
    let fields = DecayField.allCases.filter { given.contains($0.rawValue) }
    guard fields.count <= 1 else {
      throw TransitionError(
        kind: .unknownParameter,
        message: "the decay is given by one of "
          + DecayField.allCases.map(\.rawValue).joined(separator: ", ") + ", not "
          + fields.map(\.rawValue).joined(separator: " with "))
    }
    let field = fields.first ?? .decelerationRate
    do {
      return try field.model(value(field))
    } catch {
      throw TransitionError(
        kind: .outOfRange, message: "parameter '\(field.rawValue)' is outside a decay's range")
    }
  }
}
