import Primitives

/// The kinds of field behavior: UIFieldBehavior's factory methods (iOS 9), as wire words.
/// UIKit's custom field (`fieldWithEvaluationBlock:`) has no wire form: its block is code.
public enum FieldKindName: String, CaseIterable, Sendable {
  case linearGravity = "linear_gravity"
  case radialGravity = "radial_gravity"
  case drag, velocity, noise, turbulence, spring, electric, magnetic, vortex
}

/// A field behavior (UIFieldBehavior): a force on its items wherever they are inside its
/// region, which moves with its `position`.
///
/// Every kind has every property, as in UIKit (a kind ignores those it does not use: a drag
/// field its `direction`); `nil` leaves UIKit's default for the kind. `kind` is required and
/// cannot change; `items` defaults to none (UIKit's fields start empty and take `addItem:`).
public struct FieldSpec: Equatable, Sendable {
  public var id: String?
  public var kind: FieldKindName
  /// Items and groups the field acts on (at most `Limits.maxItemsPerScene`, no repeats).
  public var items: [String]
  /// The field's origin in reference coordinates (default (0, 0)).
  public var position: Point?
  /// Where the field acts, relative to `position` (default infinite).
  public var region: RegionSpec?
  /// In `Limits.fieldStrength` (default 1).
  public var strength: Double?
  /// The exponent of the decay with distance, in `Limits.falloff` (default 0, uniform).
  public var falloff: Double?
  /// Where the falloff starts, points, in `Limits.minimumRadius`.
  public var minimumRadius: Double?
  /// Linear gravity's and a velocity field's vector, each component in `Limits.fieldDirection`.
  public var direction: Vector?
  /// Noise and turbulence: 0 noisiest … 1 smoothest (`Limits.smoothness`).
  public var smoothness: Double?
  /// Noise and turbulence: Hz, in `Limits.animationSpeed`; 0 freezes the noise.
  public var animationSpeed: Double?
  /// Noise and turbulence (extension): the noise's seed, a whole number in `Limits.fieldSeed`
  /// (default 0). The same seed gives the same noise.
  public var seed: UInt64?
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(
    id: String? = nil, kind: FieldKindName, items: [String] = [], position: Point? = nil,
    region: RegionSpec? = nil, strength: Double? = nil, falloff: Double? = nil,
    minimumRadius: Double? = nil, direction: Vector? = nil, smoothness: Double? = nil,
    animationSpeed: Double? = nil, seed: UInt64? = nil, action: [ActionRule] = []
  ) {
    self.id = id
    self.kind = kind
    self.items = items
    self.position = position
    self.region = region
    self.strength = strength
    self.falloff = falloff
    self.minimumRadius = minimumRadius
    self.direction = direction
    self.smoothness = smoothness
    self.animationSpeed = animationSpeed
    self.seed = seed
    self.action = action
  }
}

extension FieldSpec {
  static let fields: [StaticString] = [
    "type", "id", "kind", "items", "position", "region", "strength", "falloff", "minimum_radius",
    "direction", "smoothness", "animation_speed", "seed", "action",
  ]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let id = try fields.name("id")
    let kind = try fields.requiredWord("kind", as: FieldKindName.self)
    let items = fields.has("items") ? try fields.behaviorItems() : []
    // The same decoder as set_behavior's (`BehaviorUpdate`).
    let v = try FieldValues(fields)
    self.init(
      id: id, kind: kind, items: items, position: v.position, region: v.region,
      strength: v.strength, falloff: v.falloff, minimumRadius: v.minimumRadius,
      direction: try fields.vector("direction", in: Limits.fieldDirection),
      smoothness: v.smoothness, animationSpeed: v.animationSpeed, seed: v.seed,
      action: try fields.actionRules() ?? [])
  }
}

extension ObjectReader {
  /// A field's `seed`: a whole number in `Limits.fieldSeed`.
  func seed(_ key: StaticString) throws(ProtocolError) -> UInt64? {
    guard let value = try number(key, in: .magnitude(.greatestFiniteMagnitude)) else { return nil }
    guard value == value.rounded(), Limits.fieldSeed.contains(value) else {
      throw ProtocolError(
        .outOfRange,
        "field '\(fieldPath(key))' must be a whole number from 0 to 2^53 = 9007199254740992 (got "
          + "\(plainNumber(value)))")
    }
    return UInt64(value)
  }
}
