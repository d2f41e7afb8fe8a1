import Primitives

/// The fields of `set_behavior` for a spring (a retarget in flight) and a decay: read with the
/// others (`BehaviorUpdate`), and checked once the behavior's type is known (`check(for:)`).
extension BehaviorUpdate {
  /// Reads `target`, the spring fields of its own and a decay's `deceleration_rate` and `drag`,
  /// each in its range; `damping` and `friction` are read with the other behaviors'.
  mutating func readMotionFields(_ fields: ObjectReader) throws(ProtocolError) {
    target = try fields.point("target")
    for field in SpringField.allCases where field != .damping && field != .friction {
      springFields[field] = try fields.number(field.key, in: Limits.spring(field))
    }
    decelerationRate = try fields.number("deceleration_rate", in: Limits.decay(.decelerationRate))
    drag = try fields.number("drag", in: Limits.decay(.drag))
  }

  /// A spring's new parameter set, nil when the update gives none: one whole set, as a new
  /// spring's (`SpringParameterValues.read`), with `damping` and `friction` from the shared
  /// fields.
  public func springParameterValues() throws(ProtocolError) -> SpringParameterValues? {
    var given = springFields
    given[.damping] = damping
    given[.friction] = itemProperties.friction
    return try SpringParameterValues.read(
      given, path: { $0.rawValue }, owner: "a 'spring' behavior")
  }

  /// A decay's new model, nil when the update gives none.
  public func decayModel() throws(ProtocolError) -> DecayModel? {
    var given: [DecayField: Double] = [:]
    given[.decelerationRate] = decelerationRate
    given[.friction] = itemProperties.friction
    given[.drag] = drag
    return try DecayModel.read(given, path: { $0.rawValue }, owner: "a 'decay' behavior")
  }
}

extension BehaviorUpdate {
  /// Sets the fields of `values`' parameter set (the inverse of `springParameterValues`).
  mutating func setSpringParameters(_ values: SpringParameterValues) {
    springFields = values.values.filter { $0.key != .damping && $0.key != .friction }
    damping = values.values[.damping]
    itemProperties.friction = values.values[.friction]
  }

  /// Sets the field of `model`'s parameter (the inverse of `decayModel`).
  mutating func setDecayModel(_ model: DecayModel) {
    let (field, value) = model.parameter
    switch field {
    case .decelerationRate: decelerationRate = value
    case .friction: itemProperties.friction = value
    case .drag: drag = value
    }
  }
}
