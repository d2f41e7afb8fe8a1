import Dynamics
import Primitives
import Wire

/// Field behaviors (UIFieldBehavior) from wire specs, and their `set_behavior` updates.
///
/// A field made with UIKit's factory for its kind starts with UIKit's defaults for that kind;
/// only the fields the client sent replace them. UIKit's `fieldWithEvaluationBlock:` has no
/// wire form: a closure cannot cross a socket, and a client that evaluated forces remotely would
/// be a round trip late at every step. Its uses are covered by the ten kinds with regions, by
/// several fields on one item, and by action rules that change a field's values as items move.
extension BehaviorFactory {
  func field(_ s: FieldSpec) throws(ProtocolError) -> FieldBehavior {
    guard let kind = FieldKind(rawValue: s.kind.rawValue) else {
      throw ProtocolError(.invalidScene, "unknown field kind '\(s.kind.rawValue)'")
    }
    let field = FieldBehavior(kind: kind, items: try items(s.items))
    try set(
      field, position: s.position, region: s.region, strength: s.strength, falloff: s.falloff,
      minimumRadius: s.minimumRadius, direction: s.direction, smoothness: s.smoothness,
      animationSpeed: s.animationSpeed, seed: s.seed)
    return field
  }

  func apply(_ u: BehaviorUpdate, to field: FieldBehavior) throws(ProtocolError) {
    let newItems = try u.items.map { (ids) throws(ProtocolError) in try items(ids) }
    try set(
      field, position: u.position, region: u.region, strength: u.strength, falloff: u.falloff,
      minimumRadius: u.minimumRadius, direction: u.direction, smoothness: u.smoothness,
      animationSpeed: u.animationSpeed, seed: u.seed)
    if let newItems {
      replaceItems(newItems, field.items, add: field.addItem, remove: field.removeItem)
    }
  }

  private func set(
    _ f: FieldBehavior, position: Point?, region: RegionSpec?, strength: Double?,
    falloff: Double?, minimumRadius: Double?, direction: Vector?, smoothness: Double?,
    animationSpeed: Double?, seed: UInt64?
  ) throws(ProtocolError) {
    let engineRegion = region.map(Region.init)
    if let engineRegion { try engine { try Region.validate(engineRegion) } }
    if let v = position { f.position = v }
    if let v = engineRegion { f.region = v }
    if let v = strength { f.strength = v }
    if let v = falloff { f.falloff = v }
    if let v = minimumRadius { f.minimumRadius = v }
    if let v = direction { f.direction = v }
    if let v = smoothness { f.smoothness = v }
    if let v = animationSpeed { f.animationSpeed = v }
    if let v = seed { f.seed = v }
  }
}

extension Region {
  /// The engine's region for a wire region.
  init(_ spec: RegionSpec) {
    switch spec {
    case .infinite: self = .infinite
    case .radius(let r): self = .radius(r)
    case .size(let s): self = .size(s)
    case .inverse(let r): self = .inverse(Region(r))
    case .union(let a, let b): self = .union(Region(a), Region(b))
    case .intersection(let a, let b): self = .intersection(Region(a), Region(b))
    case .difference(let a, let b): self = .difference(Region(a), Region(b))
    }
  }
}

extension RegionSpec {
  /// The wire region for an engine region.
  init(_ region: Region) {
    switch region {
    case .infinite: self = .infinite
    case .radius(let r): self = .radius(r)
    case .size(let s): self = .size(s)
    case .inverse(let r): self = .inverse(RegionSpec(r))
    case .union(let a, let b): self = .union(RegionSpec(a), RegionSpec(b))
    case .intersection(let a, let b): self = .intersection(RegionSpec(a), RegionSpec(b))
    case .difference(let a, let b): self = .difference(RegionSpec(a), RegionSpec(b))
    }
  }
}
