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
    // Its other fields are set by `apply`, as `make` does for every type.
    return FieldBehavior(kind: kind, items: try items(s.items))
  }

  func apply(_ u: BehaviorUpdate, resolved: ResolvedNames, to f: FieldBehavior) {
    if let v = u.position { f.position = v }
    if let v = resolved.region { f.region = v }
    if let v = u.strength { f.strength = v }
    if let v = u.falloff { f.falloff = v }
    if let v = u.minimumRadius { f.minimumRadius = v }
    if let v = u.direction { f.direction = v }
    if let v = u.smoothness { f.smoothness = v }
    if let v = u.animationSpeed { f.animationSpeed = v }
    if let v = u.seed { f.seed = v }
    if let new = resolved.items {
      replaceItems(new, f.items, add: f.addItem, remove: f.removeItem)
    }
  }
}

extension Region {
  /// The engine's region for a wire region.
  public init(_ spec: RegionSpec) {
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
  public init(_ region: Region) {
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
