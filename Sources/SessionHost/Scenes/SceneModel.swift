import Dynamics
import Primitives
import SceneBuilding
import Transitions
import Wire

/// A scripted scene: items, groups and behaviors by id, built from wire specs onto an animator.
///
/// This is the remote UIKit Dynamics API of the scene ops. Every method validates completely
/// before changing anything, so a refused request leaves the scene as it was. Behaviors are in
/// `SceneBehaviors.swift`, groups in `SceneGroups.swift`, action rules in `ActionRules.swift`.
final class SceneModel {
  let animator: DynamicAnimator
  /// Items in the order they were added (the order of `items` in frames).
  private(set) var items: [DynamicItem] = [] { didSet { footprintChanged() } }
  private(set) var itemsByID: [String: DynamicItem] = [:]
  /// Groups (UIDynamicItemGroup) in the order they were added; each is an engine item whose
  /// members are scene items.
  var groups: [DynamicItem] = [] { didSet { footprintChanged() } }
  var groupsByID: [String: DynamicItem] = [:]
  /// The group each grouped item belongs to, by the item's id.
  var groupOfItem: [String: DynamicItem] = [:]
  /// Top-level behaviors in the order they were added.
  var behaviors: [SceneBehavior] = []
  /// Every behavior of the scene, children of composites included, by id.
  var behaviorsByID: [String: SceneBehavior] = [:] { didSet { footprintChanged() } }
  var nextBehaviorNumber = 1
  /// The `order` of the next behavior registered.
  var nextOrder = 0
  /// Action rules by the id of the behavior that carries them, and what they emitted during the
  /// steps not yet published (`takeActionEvents`).
  var actions: [String: [ActionRuleState]] = [:]
  var emitted: [EmittedAction] = []
  /// The `dynamic_item` behaviors dynd made to carry a velocity to an item no behavior of the
  /// scene's holds (`add_velocity`, a release), one per item, by the item.
  var carriers: [ObjectIdentifier: DynamicItemBehavior] = [:]
  /// What a `gesture` does to the scene (`ScenePanning.swift`).
  private(set) lazy var pan = ScenePan(
    animator: animator, hitTest: { [unowned self] in itemUnder($0) },
    carrier: { [unowned self] in velocityCarrier(for: $0) })
  /// Box2D shapes the scene holds or will hold: every item's pieces (animated or not), every
  /// group's pieces, and the boundaries of its collision behaviors. Checked against
  /// `Limits.maxShapesPerSession` and `shapeRoom` before anything is built.
  var shapeCount: Int { footprint.shapes }
  /// How many more shapes the daemon as a whole has room for; the daemon sets it before each
  /// request (`Limits.maxShapesTotal`).
  var shapeRoom = Int.max
  /// The footprint counted after the last change, if any came since (`footprint`).
  private var countedFootprint: SceneFootprint?
  /// Set while `init` builds a spec whose totals `check` found within every bound: the bounds
  /// are not checked again for each piece (that would cost O(scene) each).
  private(set) var buildingCheckedSpec = false
  /// The longest id of an item or group the scene has held, in bytes as written in JSON
  /// (escapes counted), and the sum over those it holds: what the size bounds of replies that
  /// list ids (`behaviors`, `debug`) are computed from without reading the ids.
  private(set) var longestItemIDBytes = 0
  private(set) var itemIDBytes = 0

  /// The default reference bounds, the iPhone 5 screen the seeds were written for.
  static let defaultBounds = SceneBuilder.defaultBounds

  /// Refuses `spec` if it would pass a bound, counting from the request alone (O(its size)):
  /// nothing is built. Returns what it holds once built, for `init(_:checked:)`.
  static func check(_ spec: SceneSpec, shapeRoom: Int) throws(ProtocolError) -> SceneFootprint {
    let footprint = SceneFootprint(spec)
    try admitShapes(footprint.shapes, to: 0, room: shapeRoom)
    try admit(footprint.fieldPairs, to: .fieldItems, holding: 0)
    try admit(footprint.itemReferences, to: .itemReferences, holding: 0)
    return footprint
  }

  /// Builds a scene `check` accepted: what remains to refuse is what only building finds
  /// (a degenerate shape, a rule naming what is not there).
  init(_ spec: SceneSpec, checked: SceneFootprint) throws(ProtocolError) {
    animator = SceneBuilder.animator(for: spec)
    buildingCheckedSpec = true
    for item in spec.items { try addItem(item) }
    for group in spec.groups { try addGroup(group) }
    for behavior in spec.behaviors { _ = try addBehavior(behavior) }
    buildingCheckedSpec = false
    countedFootprint = nil
  }

  /// What the scene holds now; counted again (O(scene)) only after a change.
  var footprint: SceneFootprint {
    if let countedFootprint { return countedFootprint }
    let counted = countFootprint()
    countedFootprint = counted
    return counted
  }

  /// The footprint is to be counted again (the scene changed).
  func footprintChanged() { countedFootprint = nil }

  private func countFootprint() -> SceneFootprint {
    var f = SceneFootprint()
    f.bodies = items.count + groups.count
    f.groups = groups.count
    f.shapes =
      items.reduce(0) { $0 + $1.shapeCount } + groups.reduce(0) { $0 + $1.shapeCount }
    f.behaviors = behaviorsByID.count
    for entry in behaviorsByID.values {
      if entry.behavior is CollisionBehavior { f.collisionBehaviors += 1 }
      f.shapes += Self.boundaryShapeCount(of: entry.behavior)
      let held = Self.heldItems(of: entry.behavior).count
      f.itemReferences += held
      if entry.behavior is FieldBehavior { f.fieldPairs += held }
    }
    f.actionRules = actions.values.reduce(0) { $0 + $1.count }
    return f
  }

  func item(_ id: String, session: String) throws(ProtocolError) -> DynamicItem {
    guard let item = itemsByID[id] else { throw .unknownItem(id, session: session) }
    return item
  }

  func addItem(_ spec: ItemSpec) throws(ProtocolError) {
    guard itemsByID[spec.id] == nil, groupsByID[spec.id] == nil else {
      throw ProtocolError(.invalidScene, "an item or group with id '\(spec.id)' already exists")
    }
    guard items.count < Limits.maxItemsPerScene else {
      throw ProtocolError(.outOfRange, "a scene holds at most \(Limits.maxItemsPerScene) items")
    }
    try admitShapes(DynamicItem.shapeCount(of: spec.shape, size: spec.size))
    let item = try SceneBuilder.item(spec)
    items.append(item)
    itemsByID[spec.id] = item
    countID(spec.id, adding: true)
  }

  /// Keeps `itemIDBytes` and `longestItemIDBytes` up to date as an item or group comes or goes.
  func countID(_ id: String, adding: Bool) {
    let bytes = Self.jsonBytes(id)
    itemIDBytes += adding ? bytes : -bytes
    longestItemIDBytes = max(longestItemIDBytes, bytes)
  }

  /// Bytes of `text` as a JSON string without its quotes: a quote or backslash is escaped
  /// (a name holds no control character, `NameCharacters`).
  static func jsonBytes(_ text: String) -> Int {
    text.utf8.reduce(0) { $0 + ($1 == 0x22 || $1 == 0x5C ? 2 : 1) }
  }

  /// Removes the item from the scene and from every behavior; attachments and snaps that
  /// cannot exist without it are removed with it. A grouped item leaves with its group only.
  func removeItem(_ id: String, session: String) throws(ProtocolError) {
    let item = try self.item(id, session: session)
    if let group = groupOfItem[id] {
      throw ProtocolError(
        .invalidScene,
        "item '\(id)' is in group '\(group.identifier)'; remove the group first")
    }
    detach(item, session: session)
    items.removeAll { $0 === item }
    itemsByID[id] = nil
    countID(id, adding: false)
  }

  /// Replaces the reference bounds (`set_bounds`); collision behaviors that use them collide
  /// with the new ones from the next step.
  func setBounds(_ bounds: Rect?) throws(ProtocolError) {
    try engine { try animator.setReferenceBounds(bounds) }
  }

  /// The scene's animated items whose frames intersect `rect` (UIKit's itemsInRect:), in the
  /// scene's order; a group's members count by their own frames.
  func items(in rect: Rect) -> [String] {
    let found = Set(animator.items(in: rect).map(ObjectIdentifier.init))
    return items.filter { found.contains(ObjectIdentifier($0)) }.map(\.identifier)
  }

  /// Refuses a change that would add `added` shapes (net) beyond the session's or the daemon's
  /// bound.
  func admitShapes(_ added: Int) throws(ProtocolError) {
    guard added > 0, !buildingCheckedSpec else { return }
    try Self.admitShapes(added, to: shapeCount, room: shapeRoom)
  }

  /// Refuses `added` shapes (net) to a session holding `now`, with `room` left in the daemon.
  static func admitShapes(_ added: Int, to now: Int, room shapeRoom: Int) throws(ProtocolError) {
    guard added > 0 else { return }
    let total = now + added
    guard total <= Limits.maxShapesPerSession else {
      throw ProtocolError(
        .outOfRange,
        "the session would hold \(total) Box2D shapes (item pieces and boundary segments); a "
          + "session holds at most \(Limits.maxShapesPerSession)")
    }
    guard added <= shapeRoom else {
      throw ProtocolError(
        .busy,
        "dynd holds \(Limits.maxShapesTotal - shapeRoom) Box2D shapes in all its sessions and "
          + "takes at most \(Limits.maxShapesTotal); close some sessions first")
    }
  }

  /// Moves an item (UIKit's updateItemUsingCurrentState); its velocity is kept. A grouped
  /// item moves with its group only.
  func setItem(_ request: SetItemRequest) throws(ProtocolError) {
    let item = try self.item(request.item, session: request.session)
    if let group = groupOfItem[request.item] {
      throw ProtocolError(
        .invalidScene,
        "item '\(request.item)' moves with its group '\(group.identifier)'; it cannot be "
          + "placed on its own")
    }
    let center = request.center ?? item.center
    let angle = request.angle ?? item.angle
    let old = (item.center, item.angle)
    item.center = center
    item.angle = angle
    do {
      try engine { try animator.updateItem(usingCurrentState: item) }
    } catch {
      (item.center, item.angle) = old
      throw error
    }
  }

  /// Adds velocity through the last item behavior holding the item, or else through a hidden
  /// one with default properties (the item has no other, so it changes no property).
  func addVelocity(_ request: AddVelocityRequest) throws(ProtocolError) {
    let item = try self.item(request.item, session: request.session)
    if let group = groupOfItem[request.item] {
      throw ProtocolError(
        .invalidScene,
        "item '\(request.item)' moves with its group '\(group.identifier)'; a velocity is "
          + "given to the group through a dynamic_item behavior holding it")
    }
    guard animator.items.contains(where: { $0 === item }) else {
      throw ProtocolError(
        .invalidScene,
        "item '\(request.item)' is in no behavior, so nothing animates it; add a behavior first")
    }
    let carrier = velocityCarrier(for: item)
    if let v = request.velocity { carrier.addLinearVelocity(v, for: item) }
    if let w = request.angular { carrier.addAngularVelocity(w, for: item) }
  }
}
