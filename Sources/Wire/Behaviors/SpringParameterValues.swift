import Primitives

/// A spring as one platform gives it: one of the five parameter sets (`SpringParameterSet`)
/// and the value of each of its fields that was sent, kept as sent so that a client's encoder
/// writes back what it read. `parameters` converts it to the one spring model.
public struct SpringParameterValues: Equatable, Sendable {
  public let set: SpringParameterSet
  /// The set's fields that were given (`mass` may be absent: 1).
  public let values: [SpringField: Double]

  /// `values` are taken as they are; a decoder checks them (`init(set:given:path:)`).
  public init(_ set: SpringParameterSet, _ values: [SpringField: Double]) {
    self.set = set
    self.values = values
  }

  /// The spring, nil when a value is missing or outside its range (never after decoding). The
  /// three constants are taken as they are, unchecked: a running spring's, which the
  /// `behaviors` report holds this way, may pass a range the client's own set kept to (a damping
  /// ratio of 1000 on a stiffness of 1e9 makes a damping above 1e9).
  public var parameters: SpringParameters? {
    if set == .stiffnessAndDamping, let k = values[.stiffness], let c = values[.damping] {
      return SpringParameters(mass: values[.mass] ?? 1, stiffness: k, damping: c)
    }
    return try? set.parameters { values[$0] }
  }

  /// The given fields in the set's order (required, then optional).
  public var orderedValues: [(field: SpringField, value: Double)] {
    (set.requiredFields + set.optionalFields).compactMap { field in
      values[field].map { (field, $0) }
    }
  }
}

extension SpringParameterValues {
  /// The sets, for messages.
  static let phrase =
    "'response' + 'damping_ratio', 'duration' + 'bounce', 'stiffness' + 'damping_ratio' or "
    + "'damping' (and 'mass'), or 'tension' + 'friction'"

  /// The field that names each set: the first of its required fields (the two stiffness sets
  /// share theirs).
  private static let leading: [SpringField] = [.response, .duration, .stiffness, .tension]

  /// Reads a spring's parameter set from the fields `given` (each a finite number, not yet
  /// range-checked): nil when none of them is a spring field; `missing_field` when a set lacks
  /// a field, `unknown_field` when fields of two sets are mixed, `out_of_range` naming the field
  /// and its range (`Limits.spring`). `path` gives a field's path for messages; `owner` what
  /// defines it ("a 'spring' behavior").
  static func read(
    _ given: [SpringField: Double], path: (SpringField) -> String, owner: String
  ) throws(ProtocolError) -> SpringParameterValues? {
    let named = leading.filter { given[$0] != nil }
    guard let lead = named.first else {
      guard let lone = SpringField.allCases.first(where: { given[$0] != nil }) else { return nil }
      let sets = SpringParameterSet.allCases.filter {
        ($0.requiredFields + $0.optionalFields).contains(lone)
      }
      var leads: [String] = []
      for set in sets where !leads.contains(set.requiredFields[0].rawValue) {
        leads.append(set.requiredFields[0].rawValue)
      }
      throw ProtocolError(
        .missingField,
        "field '\(path(lone))' needs '" + leads.joined(separator: "' or '") + "' with it in "
          + "\(owner): send a whole parameter set, \(phrase)")
    }
    if named.count > 1 { throw exclusive(path(named[1]), with: lead, owner: owner) }
    let candidates = SpringParameterSet.allCases.filter { $0.requiredFields[0] == lead }
    let allowed = Set(candidates.flatMap { $0.requiredFields + $0.optionalFields })
    let strays = SpringField.allCases.filter { given[$0] != nil && !allowed.contains($0) }
    if let stray = strays.first { throw exclusive(path(stray), with: lead, owner: owner) }
    let complete = candidates.filter { $0.requiredFields.allSatisfy { given[$0] != nil } }
    guard let set = complete.first else {
      let wanted = candidates.map { $0.requiredFields.first { given[$0] == nil }! }
      throw ProtocolError(
        .missingField,
        "field '\(path(wanted[0]))'"
          + wanted.dropFirst().map { " or '\($0.rawValue)'" }.joined()
          + " is required with '\(lead.rawValue)' in \(owner)")
    }
    if complete.count > 1 {
      throw exclusive(
        path(complete[1].requiredFields[1]), with: set.requiredFields[1], owner: owner)
    }
    for field in set.requiredFields + set.optionalFields {
      guard let value = given[field] else { continue }
      let range = Limits.spring(field)
      guard range.contains(value) else {
        throw ProtocolError(
          .outOfRange, "field '\(path(field))' must be \(range.phrase) (got \(plainNumber(value)))")
      }
    }
    // Every given field is the set's: a stray or a second set was refused above.
    return SpringParameterValues(set, given)
  }

  private static func exclusive(_ path: String, with other: SpringField, owner: String)
    -> ProtocolError
  {
    ProtocolError(
      .unknownField,
      "field '\(path)' cannot be combined with '\(other.rawValue)' in \(owner); send one of them")
  }
}

extension SpringField {
  /// The field's name as the object readers and the encoder take it.
  var key: StaticString {
    switch self {
    case .response: return "response"
    case .dampingRatio: return "damping_ratio"
    case .duration: return "duration"
    case .bounce: return "bounce"
    case .stiffness: return "stiffness"
    case .damping: return "damping"
    case .mass: return "mass"
    case .tension: return "tension"
    case .friction: return "friction"
    }
  }
}

extension ObjectReader {
  /// The spring fields present in this object, each a finite number (ranges are checked by
  /// `SpringParameterValues.read`).
  func springFields() throws(ProtocolError) -> [SpringField: Double] {
    var given: [SpringField: Double] = [:]
    for field in SpringField.allCases {
      given[field] = try number(field.key, in: .magnitude(.greatestFiniteMagnitude))
    }
    return given
  }
}

extension SpringParameters {
  /// The constants and every value derived from them, as `behaviors` and `handoff` report a
  /// spring, in this order: `mass`, `stiffness`, `damping`, `damping_ratio`, `response`,
  /// `duration`, `bounce`.
  public var reportedValues: [(name: String, value: Double)] {
    [
      ("mass", mass), ("stiffness", stiffness), ("damping", damping),
      ("damping_ratio", dampingRatio), ("response", response), ("duration", duration),
      ("bounce", bounce),
    ]
  }
}

extension SpringParameters {
  /// Origami's `tension` and `friction` of the same motion, as `behaviors` reports them after
  /// `reportedValues`: Rebound's `OrigamiValueConverter` inverted (tension = (k − 194) / 3.62 +
  /// 30, friction = (c − 25) / 3 + 8) for the spring of mass 1 that moves as this one does
  /// (k/m, c/m). Below k/m = 85.4 or c/m = 1 they are 0 or less, which no Origami patch sends.
  public var origamiValues: [(name: String, value: Double)] {
    [
      ("tension", (stiffness / mass - 194) / 3.62 + 30),
      ("friction", (damping / mass - 25) / 3 + 8),
    ]
  }
}

extension SpringParameterValues {
  /// The spring as its three constants (`stiffness`, `damping`, `mass`), the set every other
  /// converts to: how `behaviors` holds a running spring.
  public init(_ parameters: SpringParameters) {
    self.init(
      .stiffnessAndDamping,
      [.stiffness: parameters.stiffness, .damping: parameters.damping, .mass: parameters.mass])
  }
}
