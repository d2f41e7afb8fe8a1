import Dynamics
import Primitives
import SceneBuilding
import Wire

/// A behavior of a scene: its id and type, and the composite it is a child of (nil at the top).
struct SceneBehavior {
  let id: String
  let type: BehaviorType
  let behavior: DynamicBehavior
  let parent: String?
  /// Its place in the animator's depth-first walk of the behavior tree: a behavior met later
  /// wins where UIKit says the last one wins (item properties).
  let order: Int
}

extension SceneModel {
  /// Adds a behavior and, for a composite, its whole tree, as a unit: every check (ids unique in
  /// the scene, the behavior limit counting every node, the items and groups named, shapes,
  /// field pairs, action rules) passes before anything is built. Returns the top id.
  func addBehavior(_ spec: BehaviorSpec) throws(ProtocolError) -> String {
    let nodes = spec.allSpecs
    var ids: [String] = []
    var seen = Set<String>()  // this tree's ids; the scene's are looked up (O(the request))
    var fresh = nextBehaviorNumber
    for node in nodes {
      var id = node.id ?? ""
      if node.id == nil {
        repeat {
          id = "b\(fresh)"
          fresh += 1
        } while seen.contains(id) || behaviorsByID[id] != nil
      }
      guard behaviorsByID[id] == nil, seen.insert(id).inserted else {
        throw ProtocolError(.invalidScene, "a behavior with id '\(id)' already exists")
      }
      ids.append(id)
    }
    guard behaviorsByID.count + nodes.count <= Limits.maxBehaviorsPerScene else {
      throw ProtocolError(
        .outOfRange,
        "a scene holds at most \(Limits.maxBehaviorsPerScene) behaviors (children of "
          + "composites count); it has \(behaviorsByID.count) and this adds \(nodes.count)")
    }
    for node in nodes { try checkNames(node.itemIDs) }
    try admitShapes(nodes.reduce(0) { $0 + $1.boundaryShapeCount })
    try admit(nodes.reduce(0) { $0 + $1.fieldPairCount }, to: .fieldItems)
    try admit(nodes.reduce(0) { $0 + $1.itemIDs.count }, to: .itemReferences)
    let rules = nodes.reduce(0) { $0 + $1.action.count }
    if rules > 0 {
      var adding: [String: BehaviorType] = [:]
      for (node, id) in zip(nodes, ids) { adding[id] = node.type }
      let known = typesOfTargets(of: nodes.flatMap(\.action), adding: adding)
      for (node, id) in zip(nodes, ids) {
        try checkActionRules(node.action, owner: id, known: known)
      }
      try checkActionRuleCount(adding: rules)
    }

    var built: [(SceneBehavior, [ActionRule])] = []
    var index = 0
    let root = try build(
      spec, ids: ids, index: &index, parent: nil, factory: BehaviorFactory(scene: self),
      into: &built)
    nextBehaviorNumber = fresh
    nextOrder += built.count
    for (entry, _) in built {
      behaviorsByID[entry.id] = entry
      if entry.parent == nil { behaviors.append(entry) }
    }
    // Once all are in: a rule's `set` is read for its target's type, which may come after it.
    for (entry, rules) in built { setActionRules(rules, of: entry) }
    animator.addBehavior(root)
    return ids[0]
  }

  /// Builds `spec` (ids in depth-first order from `index`), appending each node to `built`;
  /// nothing is registered, so a refusal half way leaves the scene as it was.
  private func build(
    _ spec: BehaviorSpec, ids: [String], index: inout Int, parent: String?,
    factory: BehaviorFactory, into built: inout [(SceneBehavior, [ActionRule])]
  ) throws(ProtocolError) -> DynamicBehavior {
    let id = ids[index]
    index += 1
    let behavior = try factory.make(spec)
    built.append(
      (
        SceneBehavior(
          id: id, type: spec.type, behavior: behavior, parent: parent,
          order: nextOrder + built.count),
        spec.action
      ))
    if case .composite(let composite) = spec {
      for child in composite.children {
        behavior.addChildBehavior(
          try build(child, ids: ids, index: &index, parent: id, factory: factory, into: &built))
      }
    }
    return behavior
  }

  /// Removes a behavior by id with its children: from the animator at the top, from its
  /// composite otherwise (UIKit's removeChildBehavior:).
  func removeBehavior(_ id: String, session: String) throws(ProtocolError) {
    guard let entry = behaviorsByID[id] else { throw .unknownBehavior(id, session: session) }
    if let parent = entry.parent, let composite = behaviorsByID[parent] {
      composite.behavior.removeChildBehavior(entry.behavior)
    } else {
      animator.removeBehavior(entry.behavior)
      behaviors.removeAll { $0.id == id }
    }
    unregister(entry)
  }

  /// Forgets `entry` and its tree: O(the scene's behaviors) once, whatever the tree's size.
  private func unregister(_ entry: SceneBehavior) {
    var entries: [ObjectIdentifier: SceneBehavior] = [:]
    if !entry.behavior.childBehaviors.isEmpty {
      for other in behaviorsByID.values { entries[ObjectIdentifier(other.behavior)] = other }
    }
    var pending = [entry]
    while let next = pending.popLast() {
      for child in next.behavior.childBehaviors {
        if let childEntry = entries[ObjectIdentifier(child)] { pending.append(childEntry) }
      }
      next.behavior.action = nil
      behaviorsByID[next.id] = nil
      actions[next.id] = nil
    }
  }

  func removeAllBehaviors() {
    pan.letGo()
    carriers = [:]
    animator.removeAllBehaviors()
    for entry in behaviorsByID.values { entry.behavior.action = nil }
    behaviors = []
    behaviorsByID = [:]
    actions = [:]
  }

  /// The behavior a `set_behavior` names, and its fields read for the behavior's type.
  func update(of request: SetBehaviorRequest) throws(ProtocolError)
    -> (SceneBehavior, BehaviorUpdate)
  {
    guard let entry = behaviorsByID[request.behavior] else {
      throw .unknownBehavior(request.behavior, session: request.session)
    }
    return (entry, try request.fields.update(for: entry.type))
  }

  /// Applies an update read for the behavior's type (`set_behavior`, an action rule's `set`).
  func apply(_ u: BehaviorUpdate, to entry: SceneBehavior) throws(ProtocolError) {
    if let ids = u.items { try checkNames(ids) }
    if let rules = u.action {
      let known = typesOfTargets(of: rules, adding: [entry.id: entry.type])
      try checkActionRules(rules, owner: entry.id, known: known)
      try checkActionRuleCount(adding: rules.count - (actions[entry.id]?.count ?? 0))
    }
    if let field = entry.behavior as? FieldBehavior, let ids = u.items {
      try admit(ids.count - field.items.count, to: .fieldItems)
    }
    if let ids = u.items {
      try admit(ids.count - Self.heldItems(of: entry.behavior).count, to: .itemReferences)
    }
    if let c = entry.behavior as? CollisionBehavior {
      try admitShapes(Self.boundaryShapeChange(of: u, to: c))
    }
    try BehaviorFactory(scene: self).apply(u, to: entry.behavior)
    if let rules = u.action { setActionRules(rules, of: entry) }
    if u.items != nil || u.boundaries != nil || u.referenceBounds != nil || u.insets != nil
      || u.action != nil
    {
      footprintChanged()
    }
  }

  /// Box2D shapes `u` adds to the boundaries of `c` (net; negative when it takes some away).
  static func boundaryShapeChange(of u: BehaviorUpdate, to c: CollisionBehavior) -> Int {
    let before = c.boundaryShapeCount
    let referenceBounds =
      u.insets != nil || (u.referenceBounds ?? c.translatesReferenceBoundsIntoBoundary)
    let named =
      u.boundaries.map {
        CollisionBehavior.boundaryShapeCount(
          referenceBounds: false, pathPointCounts: $0.map(\.shape.pointCount))
      } ?? (before - (c.translatesReferenceBoundsIntoBoundary ? 4 : 0))
    return named + (referenceBounds ? 4 : 0) - before
  }

  /// The types of the behaviors `rules` name, from `adding` or the scene: all that
  /// `checkActionRules` looks up, gathered in O(the rules) rather than O(the scene).
  private func typesOfTargets(of rules: [ActionRule], adding: [String: BehaviorType])
    -> [String: BehaviorType]
  {
    var known: [String: BehaviorType] = [:]
    for rule in rules {
      for effect in rule.then {
        let target: String
        switch effect {
        case .emit: continue
        case .set(let behavior, _): target = behavior
        case .removeBehavior(let behavior): target = behavior
        }
        if let type = adding[target] ?? behaviorsByID[target]?.type { known[target] = type }
      }
    }
    return known
  }

  /// Takes `item` (an item or a group) out of every behavior; attachments and snaps that
  /// cannot exist without it are removed.
  func detach(_ item: DynamicItem, session: String) {
    releaseDynd(item)
    for entry in behaviorsByID.values.sorted(by: { $0.order > $1.order }) {
      guard behaviorsByID[entry.id] != nil else { continue }  // gone with its composite
      switch entry.behavior {
      case let b as GravityBehavior: b.removeItem(item)
      case let b as CollisionBehavior: b.removeItem(item)
      case let b as PushBehavior: b.removeItem(item)
      case let b as DynamicItemBehavior: b.removeItem(item)
      case let b as FieldBehavior: b.removeItem(item)
      case let b as SpringBehavior: b.removeItem(item)
      case let b as DecayBehavior: b.removeItem(item)
      case let b as AttachmentBehavior where b.items.contains(where: { $0 === item }):
        try? removeBehavior(entry.id, session: session)
      case let b as SnapBehavior where b.item === item:
        try? removeBehavior(entry.id, session: session)
      default: break
      }
    }
  }

  /// Every item or group a behavior holds.
  static func heldItems(of behavior: DynamicBehavior) -> [DynamicItem] {
    switch behavior {
    case let g as GravityBehavior: return g.items
    case let c as CollisionBehavior: return c.items
    case let p as PushBehavior: return p.items
    case let d as DynamicItemBehavior: return d.items
    case let f as FieldBehavior: return f.items
    case let s as SpringBehavior: return s.items
    case let d as DecayBehavior: return d.items
    case let a as AttachmentBehavior: return a.items
    case let s as SnapBehavior: return [s.item]
    default: return []
    }
  }

  /// Checks names a behavior gives for items: each is an item or a group of the scene, and a
  /// grouped item is never named on its own (it moves with its group).
  func checkNames(_ names: [String]) throws(ProtocolError) {
    for name in names {
      if let group = groupOfItem[name] {
        throw ProtocolError(
          .invalidScene,
          "item '\(name)' is in group '\(group.identifier)', which moves it as one body with "
            + "the group's other items; name the group instead")
      }
      guard itemsByID[name] != nil || groupsByID[name] != nil else {
        throw ProtocolError(.unknownItem, "no item or group named '\(name)' in this scene")
      }
    }
  }

  /// Refuses behaviors that would take one of the scene's tallies past its bound.
  func admit(_ added: Int, to tally: BehaviorTally) throws(ProtocolError) {
    guard added > 0, !buildingCheckedSpec else { return }
    try Self.admit(added, to: tally, holding: tally.count(in: footprint))
  }

  /// Refuses `added` to `tally` in a scene holding `now` of it.
  static func admit(_ added: Int, to tally: BehaviorTally, holding now: Int)
    throws(ProtocolError)
  {
    guard added > 0, now + added > tally.limit else { return }
    throw ProtocolError(.outOfRange, tally.refusal(now + added))
  }

  static func boundaryShapeCount(of behavior: DynamicBehavior) -> Int {
    (behavior as? CollisionBehavior)?.boundaryShapeCount ?? 0
  }
}

extension BehaviorSpec {
  /// Box2D shapes the behavior's own boundaries make (collision behaviors only).
  var boundaryShapeCount: Int {
    guard case .collision(let c) = self else { return 0 }
    return CollisionBehavior.boundaryShapeCount(
      referenceBounds: c.insets != nil || c.referenceBounds == true,
      pathPointCounts: c.boundaries.map(\.shape.pointCount))
  }

  /// Items a field behavior acts on (0 for other types).
  var fieldPairCount: Int {
    guard case .field(let f) = self else { return 0 }
    return f.items.count
  }
}

extension BoundaryShape {
  var pointCount: Int {
    switch self {
    case .segment: return 2
    case .path(let points): return points.count
    }
  }
}

extension BehaviorFactory {
  /// The factory for behaviors of `scene`, naming its items and groups.
  init(scene: SceneModel) {
    self.init { scene.itemsByID[$0] ?? scene.groupsByID[$0] }
  }
}

/// A count a scene's behaviors add up, each with its bound (PROTOCOL.md, section 12): every one
/// costs work at every internal step.
enum BehaviorTally {
  /// Items fields act on, once per field (`Limits.maxFieldItemPairs`).
  case fieldItems
  /// Items behaviors name, once per behavior naming them (`Limits.maxItemReferences`).
  case itemReferences

  var limit: Int {
    switch self {
    case .fieldItems: return Limits.maxFieldItemPairs
    case .itemReferences: return Limits.maxItemReferences
    }
  }

  func count(in f: SceneFootprint) -> Int {
    switch self {
    case .fieldItems: return f.fieldPairs
    case .itemReferences: return f.itemReferences
    }
  }

  /// Why a scene that would hold `total` is refused.
  func refusal(_ total: Int) -> String {
    switch self {
    case .fieldItems:
      return "the scene's fields would act on \(total) items in all (counting an item once per "
        + "field); a scene's fields act on at most \(limit)"
    case .itemReferences:
      return "the scene's behaviors would name \(total) items in all (counting an item once per "
        + "behavior naming it); a scene's behaviors name at most \(limit)"
    }
  }
}
