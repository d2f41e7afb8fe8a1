import Dynamics
import Wire

/// What a scene holds, counted in the units its cost is bounded by: the Box2D shapes
/// (`Limits.maxShapesPerSession`, `maxShapesTotal`), the items behaviors and fields name
/// (`BehaviorTally`), and the memory the daemon's budget counts (`MemoryCost`).
///
/// `open` counts it from the request (`init(_:)`), before any item, hull or body is built, so
/// that a scene the bounds refuse costs only its decoding; a live scene keeps its own up to date
/// (`SceneModel.footprint`).
struct SceneFootprint: Equatable {
  /// Items and groups: the rigid bodies the scene may animate.
  var bodies = 0
  var groups = 0
  /// Item pieces, group pieces and collision boundary segments (`SceneModel.shapeCount`).
  var shapes = 0
  /// Behaviors, children of composites included.
  var behaviors = 0
  /// Collision behaviors among them (only colliding shapes make contacts).
  var collisionBehaviors = 0
  /// Items and groups named by behaviors, once per behavior naming them.
  var itemReferences = 0
  /// Items acted on by fields, once per field (a part of `itemReferences`).
  var fieldPairs = 0
  var actionRules = 0

  init() {}

  /// The footprint of `spec` once built, counted from the request alone: O(its size).
  init(_ spec: SceneSpec) {
    var itemShapes: [String: Int] = [:]
    itemShapes.reserveCapacity(spec.items.count)
    for item in spec.items {
      let count = DynamicItem.shapeCount(of: item.shape, size: item.size)
      itemShapes[item.id] = count
      shapes += count
    }
    // A group's body is made of its members' pieces, placed.
    for group in spec.groups {
      shapes += group.items.reduce(0) { $0 + (itemShapes[$1] ?? 0) }
    }
    bodies = spec.items.count + spec.groups.count
    groups = spec.groups.count
    for node in spec.behaviors.flatMap(\.allSpecs) {
      behaviors += 1
      if node.type == .collision { collisionBehaviors += 1 }
      shapes += node.boundaryShapeCount
      itemReferences += node.itemIDs.count
      fieldPairs += node.fieldPairCount
      actionRules += node.action.count
    }
  }

  /// Work building it costs, in units of about a microsecond (release build): an item or a
  /// shape about one, a behavior about four (the engine's tree and, for attachments, a joint),
  /// an item reference one.
  var buildCost: Int { bodies + shapes + 4 * behaviors + itemReferences }

  /// Bytes the daemon counts the scene for (`MemoryCost`).
  var bytes: Int { MemoryCost.bytes(of: self) }

  /// Both footprints together (`b`'s counts may be negative: a change).
  static func + (a: SceneFootprint, b: SceneFootprint) -> SceneFootprint {
    var f = a
    f.bodies += b.bodies
    f.groups += b.groups
    f.shapes += b.shapes
    f.behaviors += b.behaviors
    f.collisionBehaviors += b.collisionBehaviors
    f.itemReferences += b.itemReferences
    f.fieldPairs += b.fieldPairs
    f.actionRules += b.actionRules
    return f
  }
}
