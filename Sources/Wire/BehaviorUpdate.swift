import Primitives

/// New values for the settable properties of one behavior, read for the behavior's type: what a
/// `set_behavior` (or an action rule's `set`) changes. `nil` means "leave as is".
///
/// The request only knows the behavior's id; the session knows its type. So the request keeps
/// its fields as it got them (`BehaviorFields`), and they are read once, here, when the type is
/// known: each field with the type's own decoder and range (a snap's `damping` is 0…1, an
/// attachment's 0…1000; a spring's is a parameter of its one parameter set), and a field the type
/// does not have is `unknown_field`.
///
/// Settable per type (UIKit's read-write properties; `items` replaces the item list):
///
/// | type | fields |
/// |---|---|
/// | gravity | `items`, `direction`, `angle`, `magnitude` |
/// | collision | `items`, `mode`, `reference_bounds`, `insets`, `boundaries` |
/// | attachment | `anchor`, `length`, `damping`, `frequency`, `friction_torque`, `range` |
/// | snap | `point`, `damping` |
/// | push | `items`, `direction`, `angle`, `magnitude`, `offset`, `active` |
/// | dynamic_item | `items`, `elasticity`, `friction`, `density`, `resistance`, `angular_resistance`, `allows_rotation`, `anchored`, `charge` |
/// | field | `items`, `position`, `region`, `strength`, `falloff`, `minimum_radius`, `direction`, `smoothness`, `animation_speed`, `seed` |
/// | spring | `items`, `target`, one whole parameter set (`response`, `damping_ratio`, `duration`, `bounce`, `stiffness`, `damping`, `mass`, `tension`, `friction`) |
/// | decay | `items`, one of `deceleration_rate`, `friction`, `drag` |
/// | composite | — |
///
/// Every type also takes `action` (extension): the behavior's rules, replaced as a whole (`[]`
/// removes them). A field's `kind`, like a push's `mode`, never changes.
///
/// An attachment's `range` must include 0 for a sliding attachment; only the engine knows the
/// kind, so that check is the daemon's.
public struct BehaviorUpdate: Equatable, Sendable {
  public var items: [String]?
  /// A gravity's, a push's or a field's.
  public var direction: Vector?
  public var angle: Double?
  public var magnitude: Double?
  public var mode: CollisionMode?
  public var referenceBounds: Bool?
  public var insets: EdgeInsets?
  public var boundaries: [BoundarySpec]?
  public var anchor: Point?
  public var length: Double?
  /// An attachment's or a snap's.
  public var damping: Double?
  public var frequency: Double?
  public var frictionTorque: Double?
  public var range: FloatRange?
  public var point: Point?
  public var active: Bool?
  public var offset: Vector?
  /// A dynamic item behavior's material properties.
  public var itemProperties = ItemPropertyValues()
  public var position: Point?
  public var region: RegionSpec?
  public var strength: Double?
  public var falloff: Double?
  public var minimumRadius: Double?
  public var smoothness: Double?
  public var animationSpeed: Double?
  public var seed: UInt64?
  /// A spring's new target (a retarget in flight).
  public var target: Point?
  /// A spring's new parameter set, whole.
  public var spring: SpringParameterValues?
  /// A decay's new model.
  public var decay: DecayModel?
  /// The behavior's new rules, replacing all of its rules (`[]` removes them).
  public var action: [ActionRule]?

  public init() {}

  /// The fields settable on a behavior of `type` (`action` on every type), in the order the
  /// encoder writes them.
  public static func settableFields(of type: BehaviorType) -> [String] {
    typeFields(of: type).map { "\($0)" } + ["action"]
  }

  static func typeFields(of type: BehaviorType) -> [StaticString] {
    switch type {
    case .gravity: return ["items", "direction", "angle", "magnitude"]
    case .collision: return ["items", "mode", "reference_bounds", "insets", "boundaries"]
    case .attachment:
      return ["anchor", "length", "damping", "frequency", "friction_torque", "range"]
    case .snap: return ["point", "damping"]
    case .push: return ["items", "direction", "angle", "magnitude", "offset", "active"]
    case .dynamicItem: return ["items"] + ItemPropertyValues.names
    case .field:
      return [
        "items", "position", "region", "strength", "falloff", "minimum_radius", "direction",
        "smoothness", "animation_speed", "seed",
      ]
    case .spring: return ["items", "target"] + SpringField.allCases.map(\.key)
    case .decay: return ["items"] + DecayField.allCases.map(\.key)
    case .composite: return []
    }
  }

  /// Every field name settable on some behavior type: what a `set_behavior` may name before its
  /// behavior's type is known.
  static let fields: [StaticString] = {
    var names: [StaticString] = []
    for type in BehaviorType.allCases {
      for name in typeFields(of: type) where !names.contains(where: { "\($0)" == "\(name)" }) {
        names.append(name)
      }
    }
    return names + ["action"]
  }()

  /// Reads the fields of `fields` (an object whose field names were checked against
  /// `settableFields(of: type)`) with the decoders and ranges of a `type` behavior.
  init(_ fields: ObjectReader, for type: BehaviorType) throws(ProtocolError) {
    if fields.has("items") { items = try fields.behaviorItems() }
    switch type {
    case .gravity:
      let force = try fields.directionOrAngle(magnitude: Limits.gravityMagnitude)
      (direction, angle, magnitude) = (force.direction, force.angle, force.magnitude)
    case .push:
      let force = try fields.directionOrAngle(magnitude: Limits.pushMagnitude)
      (direction, angle, magnitude) = (force.direction, force.angle, force.magnitude)
      offset = try fields.vector("offset", in: Limits.coordinate)
      active = try fields.bool("active")
    case .collision:
      mode = try fields.word("mode", as: CollisionMode.self)
      referenceBounds = try fields.bool("reference_bounds")
      insets = try fields.insets("insets")
      if insets != nil, referenceBounds != nil {
        throw fields.exclusive("insets", with: "reference_bounds")
      }
      if fields.has("boundaries") { boundaries = try CollisionSpec.boundaries(fields) }
    case .attachment:
      anchor = try fields.point("anchor")
      length = try fields.number("length", in: Limits.length)
      damping = try fields.number("damping", in: Limits.attachmentDamping)
      frequency = try fields.number("frequency", in: Limits.frequency)
      frictionTorque = try fields.number("friction_torque", in: Limits.frictionTorque)
      range = try fields.range("range", in: Limits.coordinate)
    case .snap:
      point = try fields.point("point")
      damping = try fields.number("damping", in: Limits.snapDamping)
    case .dynamicItem:
      // The same decoder as a new dynamic item behavior's (`DynamicItemSpec`).
      itemProperties = try ItemPropertyValues(fields)
    case .field:
      // The same decoder as a new field behavior's (`FieldSpec`).
      let f = try FieldValues(fields)
      (position, region, strength, falloff) = (f.position, f.region, f.strength, f.falloff)
      (minimumRadius, smoothness, animationSpeed, seed) =
        (f.minimumRadius, f.smoothness, f.animationSpeed, f.seed)
      direction = try fields.vector("direction", in: Limits.fieldDirection)
    case .spring:
      target = try fields.point("target")
      // The same decoder as a new spring's (`SpringSpec`), but no set is no change.
      spring = try SpringSpec.parameterValues(fields)
    case .decay:
      // The same decoder as a new decay's (`DecaySpec`), but no model is no change.
      decay = try DecaySpec.model(fields)
    case .composite:
      break
    }
    action = try fields.actionRules()
  }
}
