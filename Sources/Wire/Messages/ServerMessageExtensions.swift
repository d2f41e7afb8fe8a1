import Primitives

/// The bodies of the extension replies whose members are behavior objects or parameter tables:
/// `behaviors`' entries and `hello`'s `parameters`, read as leniently as the rest of
/// `ServerMessageDecoder` (unknown members ignored; a behavior of a type, or a field of a kind,
/// this version does not know is left out). Regions and action rules are read by the request's
/// own readers, ignoring members they do not define.
extension ServerMessageDecoder {
  /// The `behaviors` of a `behaviors` reply, as `BehaviorSpec`s with the fields present.
  static func behaviorStates(_ fields: MessageFields) throws(ProtocolError) -> [BehaviorSpec] {
    var behaviors: [BehaviorSpec] = []
    for entry in try fields.objects("behaviors") {
      if let behavior = try behaviorState(entry) { behaviors.append(behavior) }
    }
    return behaviors
  }

  private static func behaviorState(_ b: MessageFields) throws(ProtocolError) -> BehaviorSpec? {
    guard var behavior = try typedBehaviorState(b) else { return nil }
    behavior.action = try b.actionRules()
    return behavior
  }

  private static func typedBehaviorState(_ b: MessageFields) throws(ProtocolError)
    -> BehaviorSpec?
  {
    guard let type = BehaviorType(rawValue: try b.string("type")) else { return nil }
    let id = try b.optionalString("id")
    switch type {
    case .gravity:
      return .gravity(
        GravitySpec(
          id: id, items: try b.strings("items"), direction: try b.optionalVector("direction"),
          angle: try b.optionalNumber("angle"), magnitude: try b.optionalNumber("magnitude")))
    case .collision:
      let insets = try b.optionalNumbers("insets", count: 4)
      return .collision(
        CollisionSpec(
          id: id, items: try b.strings("items"),
          mode: try b.has("mode") ? b.word("mode", as: CollisionMode.self) : nil,
          referenceBounds: try b.optionalBool("reference_bounds"),
          insets: insets.map { EdgeInsets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3]) },
          boundaries: try boundaries(b)))
    case .attachment:
      return .attachment(try attachment(b, id: id))
    case .snap:
      return .snap(
        SnapSpec(
          id: id, item: try b.string("item"), point: try b.point("point"),
          damping: try b.optionalNumber("damping")))
    case .push:
      return .push(
        PushSpec(
          id: id, items: try b.strings("items"), mode: try b.word("mode", as: PushMode.self),
          direction: try b.optionalVector("direction"), angle: try b.optionalNumber("angle"),
          magnitude: try b.optionalNumber("magnitude"), offset: try b.optionalVector("offset"),
          active: try b.optionalBool("active")))
    case .dynamicItem:
      return .dynamicItem(
        DynamicItemSpec(
          id: id, items: try b.strings("items"), properties: try ItemPropertyValues(b)))
    case .field:
      guard let kind = FieldKindName(rawValue: try b.string("kind")) else { return nil }
      return .field(
        FieldSpec(
          id: id, kind: kind, items: try b.has("items") ? b.strings("items") : [],
          position: try b.optionalPoint("position"), region: try b.optionalRegion("region"),
          strength: try b.optionalNumber("strength"), falloff: try b.optionalNumber("falloff"),
          minimumRadius: try b.optionalNumber("minimum_radius"),
          direction: try b.optionalVector("direction"),
          smoothness: try b.optionalNumber("smoothness"),
          animationSpeed: try b.optionalNumber("animation_speed"),
          seed: try b.has("seed") ? b.unsigned("seed") : nil))
    case .spring:
      // The reply gives every derived value; mass, stiffness and damping hold them all.
      return .spring(
        SpringSpec(
          id: id, items: try b.strings("items"), target: try b.point("target"),
          parameters: SpringParameterValues(
            .stiffnessAndDamping,
            [
              .stiffness: try b.number("stiffness"), .damping: try b.number("damping"),
              .mass: try b.number("mass"),
            ]),
          initialVelocity: try b.optionalVector("initial_velocity")))
    case .decay:
      guard let model = try decayModel(b) else { return nil }
      return .decay(
        DecaySpec(
          id: id, items: try b.strings("items"), model: model,
          initialVelocity: try b.optionalVector("initial_velocity")))
    case .composite:
      var children: [BehaviorSpec] = []
      for child in try b.optionalObjects("children") ?? [] {
        if let behavior = try behaviorState(child) { children.append(behavior) }
      }
      return .composite(CompositeSpec(id: id, children: children))
    }
  }

  private static func attachment(_ b: MessageFields, id: String?) throws(ProtocolError)
    -> AttachmentSpec
  {
    let range = try b.optionalNumbers("range", count: 2)
    return AttachmentSpec(
      id: id, kind: try b.has("kind") ? b.word("kind", as: AttachmentKind.self) : .distance,
      item: try b.string("item"), to: try b.optionalString("to"),
      anchor: try b.optionalPoint("anchor"), offset: try b.optionalVector("offset"),
      toOffset: try b.optionalVector("to_offset"), length: try b.optionalNumber("length"),
      damping: try b.optionalNumber("damping"), frequency: try b.optionalNumber("frequency"),
      axis: try b.optionalVector("axis"),
      range: range.map { FloatRange(minimum: $0[0], maximum: $0[1]) },
      frictionTorque: try b.optionalNumber("friction_torque"))
  }

  /// A decay's model: the first of its parameters present (nil for none this version knows).
  private static func decayModel(_ b: MessageFields) throws(ProtocolError) -> DecayModel? {
    for field in DecayField.allCases {
      if let value = try b.optionalNumber(field.key) { return try? field.model(value) }
    }
    return nil
  }

  private static func boundaries(_ b: MessageFields) throws(ProtocolError) -> [BoundarySpec] {
    var boundaries: [BoundarySpec] = []
    for boundary in try b.optionalObjects("boundaries") ?? [] {
      let id = try boundary.string("id")
      if boundary.has("path") {
        boundaries.append(
          BoundarySpec(id: id, shape: .path(try boundary.objects(rawPoints: "path"))))
      } else {
        boundaries.append(
          BoundarySpec(
            id: id,
            shape: .segment(from: try boundary.point("from"), to: try boundary.point("to"))))
      }
    }
    return boundaries
  }

  /// `hello`'s `parameters`, in wire order; empty when absent (a daemon without the extension).
  /// A `get` reply's `bounds` and `params` (extension; absent from older daemons).
  static func sessionDetails(_ fields: MessageFields) throws(ProtocolError) -> SessionDetails {
    var details = SessionDetails()
    if fields.has("bounds") {
      let b = try fields.numbers("bounds", count: 4)
      details.bounds = Rect(x: b[0], y: b[1], width: b[2], height: b[3])
    }
    if let object = try fields.optionalObject("params") {
      var entries: [TransitionParam] = []
      try object.node.forEachMember { (key, value) throws(ProtocolError) in
        let name = String(decoding: key, as: UTF8.self)
        let parsed: ParameterValue
        switch value.kind {
        case .number: parsed = .number(value.double)
        case .bool: parsed = .bool(value.bool)
        case .string: parsed = .string(value.string)
        default:
          throw wrongType(
            "\(object.path).\(name)", expected: "a number, boolean or name", got: value)
        }
        entries.append(TransitionParam(name: name, value: parsed))
      }
      details.params = TransitionParams(entries)
    }
    if let motion = try fields.optionalObject("motion") {
      var read = SessionMotion()
      if let spring = try motion.optionalObject("spring") {
        let names = Set(try spring.strings("set"))
        guard
          let set = SpringParameterSet.allCases.first(where: {
            Set(($0.requiredFields + $0.optionalFields).map(\.rawValue)) == names
          })
        else {
          throw ProtocolError(.outOfRange, "'motion.spring.set' names no spring parameter set")
        }
        read.spring = (
          set,
          SpringParameters(
            mass: try spring.number("mass"), stiffness: try spring.number("stiffness"),
            damping: try spring.number("damping"))
        )
      }
      if let decay = try motion.optionalObject("decay") {
        let given = DecayField.allCases.filter { decay.has($0.key) }
        guard given.count == 1, let field = given.first else {
          throw ProtocolError(
            .outOfRange, "'motion.decay' has one of deceleration_rate, friction, drag")
        }
        let value = try decay.number(field.key)
        guard let model = try? field.model(value) else {
          throw ProtocolError(.outOfRange, "'motion.decay.\(field.rawValue)' is outside its range")
        }
        read.decay = model
      }
      details.motion = read
    }
    for group in try fields.optionalObjects("groups") ?? [] {
      details.groups.append(
        GroupSpec(id: try group.string("id"), items: try group.strings("items")))
    }
    return details
  }

  static func parameterTables(_ fields: MessageFields) throws(ProtocolError) -> [ParameterTable] {
    guard let object = try fields.optionalObject("parameters") else { return [] }
    var tables: [ParameterTable] = []
    try object.node.forEachMember { (key, value) throws(ProtocolError) in
      let transition = String(decoding: key, as: UTF8.self)
      let path = "\(object.path).\(transition)"
      guard value.kind == .array else { throw wrongType(path, expected: "an array", got: value) }
      var parameters: [ParameterDeclaration] = []
      for index in 0..<value.count {
        let entry = try MessageFields(value[index], path: "\(path)[\(index)]")
        parameters.append(try parameterDeclaration(entry))
      }
      tables.append(ParameterTable(transition: transition, parameters: parameters))
    }
    return tables
  }

  private static func parameterDeclaration(_ p: MessageFields) throws(ProtocolError)
    -> ParameterDeclaration
  {
    let defaultNode = try p.required("default")
    let defaultValue: ParameterValue
    let kind: ParameterDeclaration.Kind
    switch defaultNode.kind {
    case .number:
      defaultValue = .number(try p.number("default"))
      kind = .number(min: try p.number("min"), max: try p.number("max"), unit: try p.string("unit"))
    case .string:
      defaultValue = .string(defaultNode.string)
      kind = .choice(try p.strings("choices"))
    case .bool:
      defaultValue = .bool(defaultNode.bool)
      kind = .bool
    default:
      throw wrongType(
        p.fieldPath("default"), expected: "a number, a string or a boolean", got: defaultNode)
    }
    let ofBounds = try p.optionalObject("of_bounds").map {
      (o) throws(ProtocolError) -> ParameterDeclaration.OfBounds in
      ParameterDeclaration.OfBounds(
        defaultValue: try o.optionalString("default"), minimum: try o.optionalString("min"),
        maximum: try o.optionalString("max"))
    }
    return ParameterDeclaration(
      name: try p.string("name"), defaultValue: defaultValue, kind: kind,
      source: try p.string("source"), ofBounds: ofBounds, motion: try p.optionalString("motion"))
  }
}

extension MessageFields {
  /// This object read by the request readers, ignoring members they do not define.
  private func lenientReader() throws(ProtocolError) -> ObjectReader {
    try ObjectReader(node, path: path, owner: "a message", lenient: true)
  }

  /// The region in field `key`.
  func region(_ key: StaticString) throws(ProtocolError) -> RegionSpec {
    guard let region = try lenientReader().region(key) else {
      throw ProtocolError(.missingField, "field '\(fieldPath(key))' is missing")
    }
    return region
  }

  func optionalRegion(_ key: StaticString) throws(ProtocolError) -> RegionSpec? {
    try lenientReader().region(key)
  }

  /// A behavior's `action` rules; empty when absent.
  func actionRules() throws(ProtocolError) -> [ActionRule] {
    try lenientReader().actionRules() ?? []
  }

  func optionalNumber(_ key: StaticString) throws(ProtocolError) -> Double? {
    has(key) ? try number(key) : nil
  }

  func optionalBool(_ key: StaticString) throws(ProtocolError) -> Bool? {
    has(key) ? try bool(key) : nil
  }

  func optionalVector(_ key: StaticString) throws(ProtocolError) -> Vector? {
    try optionalPair(key).map { Vector(dx: $0.0, dy: $0.1) }
  }

  /// `count` numbers, or nil when the member is absent or `null`.
  func optionalNumbers(_ key: StaticString, count: Int) throws(ProtocolError) -> [Double]? {
    guard let value = node.member(key), value.kind != .null else { return nil }
    return try numbers(key, count: count)
  }
}
