import Primitives

extension SpringParameterSet {
  /// The set as its fields: `stiffness + damping_ratio (+ mass)`.
  public var phrase: String {
    requiredFields.map(\.rawValue).joined(separator: " + ")
      + optionalFields.map { " (+ \($0.rawValue))" }.joined()
  }
}

extension DecayField {
  /// Whose model the field gives.
  public var platform: String {
    switch self {
    case .decelerationRate: "UIScrollView's"
    case .friction: "Android's FlingAnimation"
    case .drag: "Flutter's FrictionSimulation"
    }
  }
}

/// The spring and the decay a transition moves by, as its parameters give them (`get`'s
/// `motion`).
public struct MotionInForce: Equatable, Sendable {
  public var spring: GivenMotion.Spring?
  public var decay: DecayModel?

  public init(spring: GivenMotion.Spring? = nil, decay: DecayModel? = nil) {
    self.spring = spring
    self.decay = decay
  }
}

/// The spring or the decay a session's parameters give, when a transition declares a spring's
/// fields (`SpringField`: `response`, `damping_ratio`, …) or a decay's (`DecayField`:
/// `deceleration_rate`, `friction`, `drag`) as its parameters: the sheet's spring, the fling's
/// decay, a document's `"from_parameters": true`. A client gives one set; the fields it left
/// out take their values (their defaults).
public enum GivenMotion {
  /// The spring in force: the parameter set it was given in and the spring it makes.
  public struct Spring: Equatable, Sendable {
    public let set: SpringParameterSet
    public let parameters: SpringParameters
  }

  /// The first of `SpringParameterSet.allCases` whose fields hold every spring field `given`
  /// (the others at `value`), SwiftUI's default spring (`Spring(duration: 0.5, bounce: 0)`,
  /// exactly) when none is given. Throws `conflicting` when the fields given belong to no one
  /// set, naming the sets of each.
  public static func spring(given: Set<String>, value: (SpringField) -> Double)
    throws(TransitionError) -> Spring
  {
    let fields = Set(SpringField.allCases.filter { given.contains($0.rawValue) })
    guard !fields.isEmpty else {
      return Spring(set: .durationAndBounce, parameters: .swiftUIDefault)
    }
    let fits = SpringParameterSet.allCases.first {
      fields.isSubset(of: Set($0.requiredFields + $0.optionalFields))
    }
    guard let set = fits else {
      func sets(of field: SpringField) -> String {
        SpringParameterSet.allCases.filter {
          ($0.requiredFields + $0.optionalFields).contains(field)
        }
        .map(\.phrase).joined(separator: " or ")
      }
      let named = SpringField.allCases.filter(fields.contains).map {
        "\($0.rawValue) (of \(sets(of: $0)))"
      }
      throw TransitionError(
        kind: .conflicting,
        message: "the spring is given by one parameter set, not "
          + named.joined(separator: " with ") + ": give the fields of one set")
    }
    do {
      return Spring(set: set, parameters: try set.parameters { value($0) })
    } catch {
      throw TransitionError(
        kind: .outOfRange, message: "parameter '\(error.field)' is outside a spring's range")
    }
  }

  /// Which motion's set `name` belongs to among `declared` (a transition's parameters): a
  /// spring's field when every spring field is declared, a decay's when every decay field is;
  /// nil otherwise (a lone `deceleration_rate` that projects a release, say).
  public static func motion(of name: String, among declared: [String]) -> String? {
    let names = Set(declared)
    let spring = SpringField.allCases.map(\.rawValue)
    let decay = DecayField.allCases.map(\.rawValue)
    if spring.contains(name), names.isSuperset(of: spring) { return "spring" }
    if decay.contains(name), names.isSuperset(of: decay) { return "decay" }
    return nil
  }

  /// The model of the one decay field `given`, the `deceleration_rate` at `value` when none
  /// is. Throws when more than one is given, or a value is outside its field's range.
  public static func decay(given: Set<String>, value: (DecayField) -> Double)
    throws(TransitionError) -> DecayModel
  {
    let fields = DecayField.allCases.filter { given.contains($0.rawValue) }
    guard fields.count <= 1 else {
      throw TransitionError(
        kind: .conflicting,
        message: "the decay is given by one model, not "
          + fields.map { "\($0.rawValue) (\($0.platform))" }.joined(separator: " with ")
          + ": give one of " + DecayField.allCases.map(\.rawValue).joined(separator: ", "))
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
