import Primitives

/// A behavior to create: `{"type", "id", …}` with the fields of its type.
///
/// Every spec keeps UIKit's optional properties as optionals (`nil` = not sent), so the engine
/// applies UIKit's defaults, some of which depend on the scene (an attachment's length is the
/// distance at creation).
public enum BehaviorSpec: Equatable, Sendable {
  case gravity(GravitySpec)
  case collision(CollisionSpec)
  case attachment(AttachmentSpec)
  case snap(SnapSpec)
  case push(PushSpec)
  case dynamicItem(DynamicItemSpec)

  /// The behavior's id, if the client named it (otherwise the daemon assigns one).
  public var id: String? {
    switch self {
    case .gravity(let spec): return spec.id
    case .collision(let spec): return spec.id
    case .attachment(let spec): return spec.id
    case .snap(let spec): return spec.id
    case .push(let spec): return spec.id
    case .dynamicItem(let spec): return spec.id
    }
  }

  /// The behavior's type.
  public var type: BehaviorType {
    switch self {
    case .gravity: return .gravity
    case .collision: return .collision
    case .attachment: return .attachment
    case .snap: return .snap
    case .push: return .push
    case .dynamicItem: return .dynamicItem
    }
  }

  /// Every item id the behavior refers to, in wire order, for reference checks.
  public var itemIDs: [String] {
    switch self {
    case .gravity(let spec): return spec.items
    case .collision(let spec): return spec.items
    case .attachment(let spec): return [spec.item] + (spec.to.map { [$0] } ?? [])
    case .snap(let spec): return [spec.item]
    case .push(let spec): return spec.items
    case .dynamicItem(let spec): return spec.items
    }
  }
}

/// The `type` words of behaviors.
public enum BehaviorType: String, CaseIterable, Sendable {
  case gravity, collision, attachment, snap, push
  case dynamicItem = "dynamic_item"
}

extension BehaviorSpec {
  /// Reads a behavior object: its `type` first, then the fields that type defines.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    guard let type = try fields.word("type", as: BehaviorType.self) else {
      throw fields.missing("type")
    }
    var typed = fields
    typed.owner = "a '\(type.rawValue)' behavior"
    switch type {
    case .gravity: self = .gravity(try GravitySpec(typed))
    case .collision: self = .collision(try CollisionSpec(typed))
    case .attachment: self = .attachment(try AttachmentSpec(typed))
    case .snap: self = .snap(try SnapSpec(typed))
    case .push: self = .push(try PushSpec(typed))
    case .dynamicItem: self = .dynamicItem(try DynamicItemSpec(typed))
    }
  }
}

extension ObjectReader {
  /// The `items` list of a behavior: required, at most `Limits.maxItemsPerScene`, no repeats.
  func behaviorItems() throws(ProtocolError) -> [String] {
    let items = try requiredNames("items", maxCount: Limits.maxItemsPerScene)
    try checkDistinct(items, path: fieldPath("items"), what: "item id")
    return items
  }

  /// A force given as `direction` or as `angle` + `magnitude`, never both.
  func directionOrAngle(magnitude range: NumberRange) throws(ProtocolError)
    -> (direction: Vector?, angle: Double?, magnitude: Double?)
  {
    let direction = try vector("direction", in: range)
    let angle = try number("angle", in: Limits.angle)
    let magnitude = try number("magnitude", in: range)
    if direction != nil {
      if angle != nil { throw exclusive("angle", with: "direction") }
      if magnitude != nil { throw exclusive("magnitude", with: "direction") }
    }
    return (direction, angle, magnitude)
  }
}
