import Primitives

/// A scene for `open`: `{"bounds", "items", "behaviors"}`.
///
/// Decoding checks the scene as a whole (`invalid_scene`): item ids and behavior ids are unique,
/// and every item a behavior names is one of the scene's items.
public struct SceneSpec: Equatable, Sendable {
  /// The reference bounds, `[w, h]` (origin 0, 0) or `[x, y, w, h]`. `nil` when omitted: the
  /// daemon decides (UIKit's animator without a reference view has no reference bounds).
  public var bounds: Rect?
  /// The items, in order (at most `Limits.maxItemsPerScene`).
  public var items: [ItemSpec]
  /// The behaviors, in order (at most `Limits.maxBehaviorsPerScene`); later dynamic-item
  /// behaviors win, as in UIKit's behavior tree.
  public var behaviors: [BehaviorSpec]

  public init(bounds: Rect? = nil, items: [ItemSpec] = [], behaviors: [BehaviorSpec] = []) {
    self.bounds = bounds
    self.items = items
    self.behaviors = behaviors
  }
}

extension SceneSpec {
  static let fields: [StaticString] = ["bounds", "items", "behaviors"]

  /// Reads a scene object and checks its references.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let bounds = try fields.rect("bounds")
    let itemObjects =
      try fields.objects("items", maxCount: Limits.maxItemsPerScene, owner: "an item") ?? []
    var items: [ItemSpec] = []
    items.reserveCapacity(itemObjects.count)
    for object in itemObjects { items.append(try ItemSpec(object)) }
    let behaviorObjects =
      try fields.objects("behaviors", maxCount: Limits.maxBehaviorsPerScene, owner: "a behavior")
      ?? []
    var behaviors: [BehaviorSpec] = []
    behaviors.reserveCapacity(behaviorObjects.count)
    for object in behaviorObjects { behaviors.append(try BehaviorSpec(object)) }
    self.init(bounds: bounds, items: items, behaviors: behaviors)

    try checkDistinct(items.map(\.id), path: fields.fieldPath("items"), what: "item id")
    try checkDistinct(
      behaviors.compactMap(\.id), path: fields.fieldPath("behaviors"), what: "behavior id")
    let itemIDs = Set(items.map(\.id))
    for (index, behavior) in behaviors.enumerated() {
      for name in behavior.itemIDs where !itemIDs.contains(name) {
        throw ProtocolError(
          .invalidScene,
          "behavior \(fields.fieldPath("behaviors"))[\(index)] names item '\(quoted(name))', "
            + "which is not in the scene")
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
