import Primitives

/// A behavior to create: `{"type", "id", …}` with the fields of its type.
///
/// Every spec keeps UIKit's optional properties as optionals (`nil` = not sent), so the engine
/// applies UIKit's defaults, some of which depend on the scene (an attachment's length is the
/// distance at creation). Every type may carry `action` rules (`ActionRule`).
public enum BehaviorSpec: Equatable, Sendable {
  case gravity(GravitySpec)
  case collision(CollisionSpec)
  case attachment(AttachmentSpec)
  case snap(SnapSpec)
  case push(PushSpec)
  case dynamicItem(DynamicItemSpec)
  case field(FieldSpec)
  /// A closed-form spring (extension).
  case spring(SpringSpec)
  /// A closed-form decay (extension).
  case decay(DecaySpec)
  case composite(CompositeSpec)

  /// The behavior's id, if the client named it (otherwise the daemon assigns one).
  public var id: String? {
    switch self {
    case .gravity(let spec): return spec.id
    case .collision(let spec): return spec.id
    case .attachment(let spec): return spec.id
    case .snap(let spec): return spec.id
    case .push(let spec): return spec.id
    case .dynamicItem(let spec): return spec.id
    case .field(let spec): return spec.id
    case .spring(let spec): return spec.id
    case .decay(let spec): return spec.id
    case .composite(let spec): return spec.id
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
    case .field: return .field
    case .spring: return .spring
    case .decay: return .decay
    case .composite: return .composite
    }
  }

  /// Every item (or group) id the behavior itself refers to, in wire order, for reference
  /// checks: none for a composite (its children name their own; see `allSpecs`), and not the
  /// ids its `action` rules name.
  public var itemIDs: [String] {
    switch self {
    case .gravity(let spec): return spec.items
    case .collision(let spec): return spec.items
    case .attachment(let spec): return [spec.item] + (spec.to.map { [$0] } ?? [])
    case .snap(let spec): return [spec.item]
    case .push(let spec): return spec.items
    case .dynamicItem(let spec): return spec.items
    case .field(let spec): return spec.items
    case .spring(let spec): return spec.items
    case .decay(let spec): return spec.items
    case .composite: return []
    }
  }

  /// The behavior's `action` rules (empty when it has none).
  public var action: [ActionRule] {
    get {
      switch self {
      case .gravity(let spec): return spec.action
      case .collision(let spec): return spec.action
      case .attachment(let spec): return spec.action
      case .snap(let spec): return spec.action
      case .push(let spec): return spec.action
      case .dynamicItem(let spec): return spec.action
      case .field(let spec): return spec.action
      case .spring(let spec): return spec.action
      case .decay(let spec): return spec.action
      case .composite(let spec): return spec.action
      }
    }
    set {
      switch self {
      case .gravity(var spec):
        spec.action = newValue
        self = .gravity(spec)
      case .collision(var spec):
        spec.action = newValue
        self = .collision(spec)
      case .attachment(var spec):
        spec.action = newValue
        self = .attachment(spec)
      case .snap(var spec):
        spec.action = newValue
        self = .snap(spec)
      case .push(var spec):
        spec.action = newValue
        self = .push(spec)
      case .dynamicItem(var spec):
        spec.action = newValue
        self = .dynamicItem(spec)
      case .field(var spec):
        spec.action = newValue
        self = .field(spec)
      case .spring(var spec):
        spec.action = newValue
        self = .spring(spec)
      case .decay(var spec):
        spec.action = newValue
        self = .decay(spec)
      case .composite(var spec):
        spec.action = newValue
        self = .composite(spec)
      }
    }
  }

  /// The behavior and, for a composite, every behavior of its tree: depth first, each
  /// composite before its children (UIKit's order for "the last one in the behavior tree wins").
  public var allSpecs: [BehaviorSpec] {
    var specs: [BehaviorSpec] = []
    appendTree(to: &specs)
    return specs
  }

  private func appendTree(to specs: inout [BehaviorSpec]) {
    specs.append(self)
    guard case .composite(let composite) = self else { return }
    for child in composite.children { child.appendTree(to: &specs) }
  }
}

/// The `type` words of behaviors.
public enum BehaviorType: String, CaseIterable, Sendable {
  case gravity, collision, attachment, snap, push
  case dynamicItem = "dynamic_item"
  /// A field behavior (iOS 9 UIFieldBehavior).
  case field
  /// A closed-form spring toward a target (SwiftUI, Android, Flutter, libadwaita, Origami).
  case spring
  /// A closed-form exponential decay (UIScrollView, Android, Flutter).
  case decay
  /// A behavior with child behaviors.
  case composite
}

/// What reading one behavior tree (a scene's behaviors, or one `add_behavior`) has used so
/// far: it bounds the count of behaviors, composites' children included, and the depth of
/// composites while they are read, before more is read.
struct BehaviorTreeBudget {
  /// Behaviors read so far, composites and their children included.
  var count = 0
  /// Composites around the behavior being read (1 inside a top-level composite).
  var depth = 0
}

extension BehaviorSpec {
  /// Reads one behavior object (with its tree, for a composite), and checks that the tree's ids
  /// are distinct (`invalid_scene`).
  init(_ fields: ObjectReader) throws(ProtocolError) {
    var tree = BehaviorTreeBudget()
    try self.init(fields, tree: &tree)
    if case .composite = self {
      try checkDistinct(allSpecs.compactMap(\.id), path: fields.path, what: "behavior id")
    }
  }

  /// Reads a behavior object: its `type` first, then the fields that type defines. `tree`
  /// counts it (a tree may hold `Limits.maxBehaviorsPerScene` behaviors).
  init(_ fields: ObjectReader, tree: inout BehaviorTreeBudget) throws(ProtocolError) {
    tree.count += 1
    guard tree.count <= Limits.maxBehaviorsPerScene else {
      throw ProtocolError(
        .outOfRange,
        "behavior '\(fields.path)' is one too many: a scene holds at most "
          + "\(Limits.maxBehaviorsPerScene) behaviors, composites' children included")
    }
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
    case .field: self = .field(try FieldSpec(typed))
    case .spring: self = .spring(try SpringSpec(typed))
    case .decay: self = .decay(try DecaySpec(typed))
    case .composite:
      tree.depth += 1
      self = .composite(try CompositeSpec(typed, tree: &tree))
      tree.depth -= 1
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
