import Primitives

/// A scene for `open`: `{"bounds", "items", "groups", "behaviors"}`.
///
/// Decoding checks the scene as a whole (`invalid_scene`): item ids are unique; group ids are
/// unique and not item ids, their members are items of the scene and each item is in at most one
/// group (`GroupSpec`); behavior ids are unique across every behavior tree (composites'
/// children included); every id a behavior names is an item or a group of the scene, and every
/// item a rule's condition watches is an item (not a group). A rule's `set` effect aimed at a
/// behavior of the scene is checked as `set_behavior` checks it for that behavior's type.
public struct SceneSpec: Equatable, Sendable {
  /// The reference bounds, `[w, h]` (origin 0, 0) or `[x, y, w, h]`. `nil` when omitted: the
  /// daemon gives the default `[0, 0, 320, 568]`, unless `withoutBounds`.
  public var bounds: Rect?
  /// `"bounds": null` (extension): an animator without reference bounds, as UIKit's made
  /// without a reference view; a collision behavior's `reference_bounds` then makes no wall.
  public var withoutBounds = false
  /// The items, in order (at most `Limits.maxItemsPerScene`).
  public var items: [ItemSpec]
  /// The item groups, in order (at most `Limits.maxGroupsPerScene`).
  public var groups: [GroupSpec]
  /// The behaviors, in order (at most `Limits.maxBehaviorsPerScene`, counting every behavior of
  /// composites' trees); later dynamic-item behaviors win, as in UIKit's behavior tree.
  public var behaviors: [BehaviorSpec]

  public init(
    bounds: Rect? = nil, items: [ItemSpec] = [], groups: [GroupSpec] = [],
    behaviors: [BehaviorSpec] = []
  ) {
    self.bounds = bounds
    self.items = items
    self.groups = groups
    self.behaviors = behaviors
  }
}

extension SceneSpec {
  static let fields: [StaticString] = ["bounds", "items", "groups", "behaviors"]

  /// Reads a scene object and checks its references.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let withoutBounds = fields.isNull("bounds")
    let bounds = withoutBounds ? nil : try fields.rect("bounds")
    let itemObjects =
      try fields.objects("items", maxCount: Limits.maxItemsPerScene, owner: "an item") ?? []
    var items: [ItemSpec] = []
    items.reserveCapacity(itemObjects.count)
    for object in itemObjects { items.append(try ItemSpec(object)) }
    let groupObjects =
      try fields.objects("groups", maxCount: Limits.maxGroupsPerScene, owner: "a group") ?? []
    var groups: [GroupSpec] = []
    groups.reserveCapacity(groupObjects.count)
    for object in groupObjects { groups.append(try GroupSpec(object)) }
    let behaviorObjects =
      try fields.objects("behaviors", maxCount: Limits.maxBehaviorsPerScene, owner: "a behavior")
      ?? []
    var behaviors: [BehaviorSpec] = []
    behaviors.reserveCapacity(behaviorObjects.count)
    var tree = BehaviorTreeBudget()
    for object in behaviorObjects { behaviors.append(try BehaviorSpec(object, tree: &tree)) }
    self.init(bounds: bounds, items: items, groups: groups, behaviors: behaviors)
    self.withoutBounds = withoutBounds

    try checkDistinct(items.map(\.id), path: fields.fieldPath("items"), what: "item id")
    let itemIDs = Set(items.map(\.id))
    try checkGroups(itemIDs: itemIDs, path: fields.fieldPath("groups"))
    try checkBehaviors(itemIDs: itemIDs, path: fields.fieldPath("behaviors"))
  }

  private func checkGroups(itemIDs: Set<String>, path: @autoclosure () -> String)
    throws(ProtocolError)
  {
    try checkDistinct(groups.map(\.id), path: path(), what: "group id")
    let groupIDs = Set(groups.map(\.id))
    var groupOf: [String: String] = [:]
    for group in groups {
      if itemIDs.contains(group.id) {
        throw ProtocolError(
          .invalidScene,
          "group id '\(quoted(group.id))' is also an item id; ids of items and groups are distinct")
      }
      for member in group.items {
        if groupIDs.contains(member) {
          throw ProtocolError(
            .invalidScene,
            "group '\(quoted(group.id))' names group '\(quoted(member))'; a group cannot contain "
              + "a group")
        }
        guard itemIDs.contains(member) else {
          throw ProtocolError(
            .invalidScene,
            "group '\(quoted(group.id))' names item '\(quoted(member))', which is not in the scene")
        }
        if let other = groupOf.updateValue(group.id, forKey: member) {
          throw ProtocolError(
            .invalidScene,
            "item '\(quoted(member))' is in groups '\(quoted(other))' and '\(quoted(group.id))'; "
              + "an item may be in one group only")
        }
      }
    }
  }

  private func checkBehaviors(itemIDs: Set<String>, path: @autoclosure () -> String)
    throws(ProtocolError)
  {
    var types: [String: BehaviorType] = [:]
    var ids: [String] = []
    for behavior in behaviors {
      for spec in behavior.allSpecs {
        guard let id = spec.id else { continue }
        ids.append(id)
        types[id] = spec.type
      }
    }
    try checkDistinct(ids, path: path(), what: "behavior id")
    let groupIDs = Set(groups.map(\.id))
    func check(_ spec: BehaviorSpec, _ location: () -> String) throws(ProtocolError) {
      for name in spec.itemIDs where !itemIDs.contains(name) && !groupIDs.contains(name) {
        throw ProtocolError(
          .invalidScene,
          "behavior \(location()) names item '\(quoted(name))', which is not in the scene")
      }
      for (index, rule) in spec.action.enumerated() {
        try checkRule(
          rule, itemIDs: itemIDs, groupIDs: groupIDs, types: types,
          path: "\(location()).action[\(index)]")
      }
      guard case .composite(let composite) = spec else { return }
      for (index, child) in composite.children.enumerated() {
        try check(child) { "\(location()).children[\(index)]" }
      }
    }
    for (index, behavior) in behaviors.enumerated() {
      try check(behavior) { "\(path())[\(index)]" }
    }
  }

  private func checkRule(
    _ rule: ActionRule, itemIDs: Set<String>, groupIDs: Set<String>,
    types: [String: BehaviorType], path: @autoclosure () -> String
  ) throws(ProtocolError) {
    if let item = rule.when.item, !itemIDs.contains(item) {
      throw ProtocolError(
        .invalidScene,
        "rule \(path()) watches '\(quoted(item))', which is not an item of the scene"
          + (groupIDs.contains(item) ? " (it is a group; a rule watches an item)" : ""))
    }
    for effect in rule.then {
      guard case .set(let behavior, let fields) = effect else { continue }
      // A target the scene has is read for its type; another only for its items.
      let items: [String]?
      do throws(ProtocolError) {
        if let type = types[behavior] {
          items = try fields.update(for: type).items
        } else {
          items = try fields.items()
        }
      } catch {
        throw ProtocolError(
          error.code, "rule \(path()) sets '\(quoted(behavior))': \(error.message)")
      }
      for name in items ?? [] where !itemIDs.contains(name) && !groupIDs.contains(name) {
        throw ProtocolError(
          .invalidScene,
          "rule \(path()) sets items of '\(quoted(behavior))' to '\(quoted(name))', which is not "
            + "in the scene")
      }
    }
  }
}

/// Throws `invalid_scene` when `names` has one twice.
func checkDistinct(_ names: [String], path: @autoclosure () -> String, what: String)
  throws(ProtocolError)
{
  var seen = Set<String>()
  seen.reserveCapacity(names.count)
  for name in names where !seen.insert(name).inserted {
    throw ProtocolError(.invalidScene, "\(what) '\(quoted(name))' appears twice in '\(path())'")
  }
}
