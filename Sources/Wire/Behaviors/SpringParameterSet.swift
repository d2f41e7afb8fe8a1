import Primitives

/// A spring as one platform gives it: exactly one of five parameter sets, each with the wire
/// names of the API it comes from (PROTOCOL.md, section 6, *Springs*). `parameters` converts
/// it to the one spring model (`SpringParameters`).
public enum SpringParameterSet: Equatable, Sendable {
  /// SwiftUI `Spring(response:dampingRatio:)`, mass 1.
  case response(response: Double, dampingRatio: Double)
  /// SwiftUI `Spring(duration:bounce:)`, Flutter `SpringDescription.withDurationAndBounce`.
  case duration(duration: Double, bounce: Double)
  /// Android `SpringForce`, libadwaita `AdwSpringParams`, Flutter
  /// `SpringDescription.withDampingRatio`; `mass` nil is 1.
  case stiffnessDampingRatio(stiffness: Double, dampingRatio: Double, mass: Double?)
  /// Flutter `SpringDescription`, SwiftUI `Spring(mass:stiffness:damping:)`; `mass` nil is 1.
  case stiffnessDamping(stiffness: Double, damping: Double, mass: Double?)
  /// Origami's spring patch, Rebound's `SpringConfig.fromOrigamiTensionAndFriction`.
  case origami(tension: Double, friction: Double)

  /// Every field of every set, in the order a behavior lists them.
  static let fields: [StaticString] = [
    "response", "damping_ratio", "duration", "bounce", "stiffness", "damping", "mass", "tension",
    "friction",
  ]

  /// The field that names each set (the two stiffness sets share theirs).
  private static let leading: [StaticString] = ["response", "duration", "stiffness", "tension"]

  /// The fields that may go with the set `leading` names (for stiffness, both sets' fields).
  private static func members(of leading: StaticString) -> [String] {
    switch "\(leading)" {
    case "response": return ["response", "damping_ratio"]
    case "duration": return ["duration", "bounce"]
    case "stiffness": return ["stiffness", "damping_ratio", "damping", "mass"]
    default: return ["tension", "friction"]
    }
  }

  /// The sets, for messages.
  static let phrase =
    "'response' + 'damping_ratio', 'duration' + 'bounce', 'stiffness' + 'damping_ratio' or "
    + "'damping' (and 'mass'), or 'tension' + 'friction'"
}

extension SpringParameterSet {
  /// Reads the one parameter set of a spring: `missing_field` when there is none (or a set
  /// lacks its second field), `unknown_field` when fields of two sets are mixed, `out_of_range`
  /// naming the field and its range (`Limits`).
  init(_ fields: ObjectReader) throws(ProtocolError) {
    guard let set = try Self.optional(fields) else {
      throw ProtocolError(
        .missingField,
        "one parameter set ('\(fields.fieldPath("response"))' or another) is required for "
          + "\(fields.owner): send \(Self.phrase)")
    }
    self = set
  }

  /// The parameter set among `fields`, nil when they hold no field of any set.
  static func optional(_ fields: ObjectReader) throws(ProtocolError) -> SpringParameterSet? {
    let given = leading.filter { fields.has($0) }
    guard let lead = given.first else {
      if let lone = Self.fields.first(where: { fields.has($0) }) {
        throw ProtocolError(
          .missingField,
          "field '\(fields.fieldPath(lone))' belongs to a spring parameter set, whose first "
            + "field is missing: send \(phrase)")
      }
      return nil
    }
    if given.count > 1 { throw fields.exclusive(given[1], with: lead) }
    let members = Self.members(of: lead)
    if let stray = Self.fields.first(where: { fields.has($0) && !members.contains("\($0)") }) {
      throw fields.exclusive(stray, with: lead)
    }
    return try read(fields, leading: lead)
  }
}

extension SpringParameterSet {
  /// Reads the set `lead` names, each field in its range (`Limits`).
  private static func read(_ fields: ObjectReader, leading lead: StaticString)
    throws(ProtocolError) -> SpringParameterSet
  {
    switch "\(lead)" {
    case "response":
      return .response(
        response: try fields.requiredNumber("response", in: Limits.springResponse),
        dampingRatio: try fields.requiredNumber("damping_ratio", in: Limits.springDampingRatio))
    case "duration":
      return .duration(
        duration: try fields.requiredNumber("duration", in: Limits.springDuration),
        bounce: try fields.requiredNumber("bounce", in: Limits.springBounce))
    case "stiffness":
      let stiffness = try fields.requiredNumber("stiffness", in: Limits.springStiffness)
      let mass = try fields.number("mass", in: Limits.springMass)
      if fields.has("damping_ratio") {
        if fields.has("damping") { throw fields.exclusive("damping", with: "damping_ratio") }
        return .stiffnessDampingRatio(
          stiffness: stiffness,
          dampingRatio: try fields.requiredNumber("damping_ratio", in: Limits.springDampingRatio),
          mass: mass)
      }
      guard fields.has("damping") else {
        throw ProtocolError(
          .missingField,
          "field '\(fields.fieldPath("damping_ratio"))' or 'damping' is required with "
            + "'stiffness' in \(fields.owner)")
      }
      return .stiffnessDamping(
        stiffness: stiffness,
        damping: try fields.requiredNumber("damping", in: Limits.springDamping), mass: mass)
    default:
      return .origami(
        tension: try fields.requiredNumber("tension", in: Limits.origamiTension),
        friction: try fields.requiredNumber("friction", in: Limits.origamiFriction))
    }
  }

  /// The set's fields as the wire names them, in the order a behavior lists them (`mass`
  /// only when given).
  public var wireValues: [(name: StaticString, value: Double)] {
    switch self {
    case .response(let response, let ratio):
      return [("response", response), ("damping_ratio", ratio)]
    case .duration(let duration, let bounce):
      return [("duration", duration), ("bounce", bounce)]
    case .stiffnessDampingRatio(let stiffness, let ratio, let mass):
      return [("stiffness", stiffness), ("damping_ratio", ratio)] + massValue(mass)
    case .stiffnessDamping(let stiffness, let damping, let mass):
      return [("stiffness", stiffness), ("damping", damping)] + massValue(mass)
    case .origami(let tension, let friction):
      return [("tension", tension), ("friction", friction)]
    }
  }
}

/// `mass` as a wire value, when given.
private func massValue(_ mass: Double?) -> [(name: StaticString, value: Double)] {
  guard let mass else { return [] }
  return [("mass", mass)]
}

extension SpringParameterSet {
  /// TEMPORARY until motion's SpringParameters lands: the values as given.
  public var derivedValues: [(name: String, value: Double)] {
    wireValues.map { ("\($0.name)", $0.value) }
  }
}
