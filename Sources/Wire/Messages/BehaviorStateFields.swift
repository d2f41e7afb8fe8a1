import Primitives

/// The entries of the `behaviors` reply (extension): each behavior of a scene as a behavior
/// object of section 6, written from a `BehaviorSpec` whose fields hold the current values.
///
/// Every field the spec holds is written, in this order; an absent optional is left out, except
/// an attachment's `range`, written `null` when it is absent (unlimited, UIFloatRangeInfinite):
///
/// | type | members |
/// |---|---|
/// | gravity | `type`, `id`, `items`, `direction`, `angle`, `magnitude` |
/// | collision | `type`, `id`, `items`, `mode`, `reference_bounds`, `insets`, `boundaries` |
/// | attachment | `type`, `id`, `kind`, `item`, `to`, `offset`, `to_offset`, `axis`, `anchor`, `length`, `damping`, `frequency`, `friction_torque`, `range` |
/// | snap | `type`, `id`, `item`, `point`, `damping` |
/// | push | `type`, `id`, `items`, `mode`, `direction`, `angle`, `magnitude`, `offset`, `active` |
/// | dynamic_item | `type`, `id`, `items`, `elasticity`, `friction`, `density`, `resistance`, `angular_resistance`, `allows_rotation`, `anchored`, `charge` |
/// | field | `type`, `id`, `kind`, `items`, `position`, `region`, `strength`, `falloff`, `minimum_radius`, `direction`, `smoothness`, `animation_speed`, `seed` |
/// | spring | `type`, `id`, `items`, `target`, `initial_velocity`, `mass`, `stiffness`, `damping`, `damping_ratio`, `response`, `duration`, `bounce`, `tension`, `friction` |
/// | decay | `type`, `id`, `items`, `deceleration_rate` or `friction` or `drag`, `initial_velocity` |
/// | composite | `type`, `id`, `children` (each child's entry, recursively) |
///
/// Every type then has `action` (its rules, in the form a request gives them) when it has any.
///
/// Positions and lengths (points, anchors, offsets, insets, boundaries, `length`, a sliding
/// attachment's `range`, a field's `position`, `minimum_radius` and region sizes, a rule's
/// rectangles and speeds) have at most 3 decimals, as positions everywhere; every other number
/// (directions, angles, magnitudes, an axis, material properties, a pin's `range`, field
/// strengths and exponents) at most 6; a `seed` is a whole number. In a rule's `set` effect,
/// whose target's type is not known here, a `range` has 6 decimals.
extension BehaviorSpec {
  /// The members of the behavior's entry in a `behaviors` reply, in wire order.
  public var stateFields: [ReplyField] {
    var fields = BehaviorStateFields()
    fields.word("type", type.rawValue)
    if let id { fields.word("id", id) }
    switch self {
    case .gravity(let g):
      fields.names("items", g.items)
      fields.vector("direction", g.direction)
      fields.number("angle", g.angle)
      fields.number("magnitude", g.magnitude)
    case .collision(let c):
      fields.names("items", c.items)
      if let mode = c.mode { fields.word("mode", mode.rawValue) }
      if let on = c.referenceBounds { fields.append(.bool("reference_bounds", on)) }
      if let i = c.insets { fields.positions("insets", [i.top, i.left, i.bottom, i.right]) }
      fields.append(ReplyField("boundaries", .array(c.boundaries.map(\.replyValue))))
    case .attachment(let a):
      attachmentFields(a, into: &fields)
    case .snap(let s):
      fields.word("item", s.item)
      fields.point("point", s.point)
      fields.number("damping", s.damping)
    case .push(let p):
      fields.names("items", p.items)
      fields.word("mode", p.mode.rawValue)
      fields.vector("direction", p.direction)
      fields.number("angle", p.angle)
      fields.number("magnitude", p.magnitude)
      fields.offset("offset", p.offset)
      if let active = p.active { fields.append(.bool("active", active)) }
    case .dynamicItem(let d):
      fields.names("items", d.items)
      fields.list += d.properties.replyFields
    case .field(let f):
      fields.word("kind", f.kind.rawValue)
      fields.names("items", f.items)
      fields.point("position", f.position)
      if let region = f.region { fields.append(ReplyField("region", region.replyValue)) }
      fields.number("strength", f.strength)
      fields.number("falloff", f.falloff)
      fields.position("minimum_radius", f.minimumRadius)
      fields.vector("direction", f.direction)
      fields.number("smoothness", f.smoothness)
      fields.number("animation_speed", f.animationSpeed)
      if let seed = f.seed { fields.append(ReplyField("seed", .whole(seed))) }
    case .spring(let s):
      fields.names("items", s.items)
      fields.point("target", s.target)
      fields.velocity("initial_velocity", s.initialVelocity)
      if let p = s.parameters.parameters { fields.spring(p) }
    case .decay(let d):
      fields.names("items", d.items)
      fields.number(d.model.parameter.field.rawValue, d.model.parameter.value)
      fields.velocity("initial_velocity", d.initialVelocity)
    case .composite(let c):
      fields.append(ReplyField("children", .array(c.children.map { .object($0.stateFields) })))
    }
    if !action.isEmpty {
      fields.append(ReplyField("action", .array(action.map(\.replyValue))))
    }
    return fields.list
  }

  private func attachmentFields(_ a: AttachmentSpec, into fields: inout BehaviorStateFields) {
    fields.word("kind", a.kind.rawValue)
    fields.word("item", a.item)
    if let to = a.to { fields.word("to", to) }
    fields.offset("offset", a.offset)
    fields.offset("to_offset", a.toOffset)
    fields.vector("axis", a.axis)
    fields.point("anchor", a.anchor)
    fields.position("length", a.length)
    fields.number("damping", a.damping)
    fields.number("frequency", a.frequency)
    fields.number("friction_torque", a.frictionTorque)
    guard let range = a.range else {
      fields.append(ReplyField("range", .null))
      return
    }
    let decimals = a.kind == .pin ? WireProtocol.angularDecimals : WireProtocol.linearDecimals
    fields.append(
      ReplyField(
        "range",
        .array([
          .number(range.minimum, decimals: decimals), .number(range.maximum, decimals: decimals),
        ])))
  }
}

extension ReplyField {
  /// A spring's constants and every value derived from them, as `behaviors` writes a spring's.
  static func springFields(_ p: SpringParameters) -> [ReplyField] {
    var fields = BehaviorStateFields()
    fields.spring(p)
    return fields.list
  }
}

/// The members of one behavior object, each optional value written only when present.
private struct BehaviorStateFields {
  var list: [ReplyField] = []

  mutating func append(_ field: ReplyField) { list.append(field) }

  mutating func word(_ name: String, _ value: String) { list.append(.string(name, value)) }

  mutating func names(_ name: String, _ values: [String]) { list.append(.strings(name, values)) }

  /// A number that is not a position: at most 6 decimals.
  mutating func number(_ name: String, _ value: Double?) {
    guard let value else { return }
    list.append(.number(name, value, decimals: WireProtocol.angularDecimals))
  }

  /// A length: at most 3 decimals.
  mutating func position(_ name: String, _ value: Double?) {
    guard let value else { return }
    list.append(.number(name, value, decimals: WireProtocol.linearDecimals))
  }

  mutating func point(_ name: String, _ value: Point?) {
    guard let value else { return }
    list.append(ReplyField(name, Self.pair(value.x, value.y, linear: true)))
  }

  /// An offset from an item's center: a position.
  mutating func offset(_ name: String, _ value: Vector?) {
    guard let value else { return }
    list.append(ReplyField(name, Self.pair(value.dx, value.dy, linear: true)))
  }

  /// A velocity, pt/s: 3 decimals, as velocities everywhere.
  mutating func velocity(_ name: String, _ value: Vector?) {
    guard let value else { return }
    list.append(ReplyField(name, Self.pair(value.dx, value.dy, linear: true)))
  }

  /// A spring's constants and every value derived from them, 6 decimals. The values are
  /// rounded here, as the wire writes them, so that a client that derives them again from the
  /// reported constants (a readable `dynctl behaviors`) shows what the daemon sent, not the
  /// noise of the constants' rounding (a ratio of 0.499999994 for 0.5).
  mutating func spring(_ p: SpringParameters) {
    for (name, value) in p.reportedValues + p.origamiValues {
      number(name, (value * 1e6).rounded() / 1e6)
    }
  }

  /// A direction or axis: not a position.
  mutating func vector(_ name: String, _ value: Vector?) {
    guard let value else { return }
    list.append(ReplyField(name, Self.pair(value.dx, value.dy, linear: false)))
  }

  mutating func positions(_ name: String, _ values: [Double]) {
    list.append(
      ReplyField(
        name, .array(values.map { .number($0, decimals: WireProtocol.linearDecimals) })))
  }

  static func pair(_ a: Double, _ b: Double, linear: Bool) -> ReplyValue {
    let decimals = linear ? WireProtocol.linearDecimals : WireProtocol.angularDecimals
    return .array([.number(a, decimals: decimals), .number(b, decimals: decimals)])
  }
}
