import Dynamics
import Primitives
import Wire

/// A scripted scene: items and behaviors by id, built from wire specs onto an animator.
///
/// This is the remote UIKit Dynamics API of the scene ops. Every method validates completely
/// before changing anything, so a refused request leaves the scene as it was.
final class SceneModel {
  let animator: DynamicAnimator
  /// Items in the order they were added (the order of `items` in frames).
  private(set) var items: [DynamicItem] = []
  private(set) var itemsByID: [String: DynamicItem] = [:]
  /// Behaviors in the order they were added, with their ids and types.
  private(set) var behaviors: [(id: String, type: BehaviorType, behavior: DynamicBehavior)] = []
  private var nextBehaviorNumber = 1
  /// Box2D shapes the scene holds or will hold: every item's pieces (animated or not) and the
  /// boundaries of its collision behaviors. Checked against `Limits.maxShapesPerSession` and
  /// `shapeRoom` before anything is built.
  var shapeCount: Int {
    items.reduce(0) { $0 + $1.shapeCount }
      + behaviors.reduce(0) { $0 + Self.boundaryShapeCount(of: $1.behavior) }
  }
  /// How many more shapes the daemon as a whole has room for; the daemon sets it before each
  /// request (`Limits.maxShapesTotal`).
  var shapeRoom = Int.max

  /// The default reference bounds, the iPhone 5 screen the seeds were written for.
  static let defaultBounds = Rect(x: 0, y: 0, width: 320, height: 568)

  init(_ spec: SceneSpec, shapeRoom: Int = .max) throws(ProtocolError) {
    self.shapeRoom = shapeRoom
    let bounds = spec.bounds ?? Self.defaultBounds
    animator = DynamicAnimator(referenceBounds: bounds)
    for item in spec.items { try addItem(item) }
    for behavior in spec.behaviors { _ = try addBehavior(behavior) }
  }

  func item(_ id: String, session: String) throws(ProtocolError) -> DynamicItem {
    guard let item = itemsByID[id] else { throw .unknownItem(id, session: session) }
    return item
  }

  func addItem(_ spec: ItemSpec) throws(ProtocolError) {
    guard itemsByID[spec.id] == nil else {
      throw ProtocolError(.invalidScene, "an item with id '\(spec.id)' already exists")
    }
    guard items.count < Limits.maxItemsPerScene else {
      throw ProtocolError(.outOfRange, "a scene holds at most \(Limits.maxItemsPerScene) items")
    }
    let shape: CollisionShape
    switch spec.shape {
    case .rectangle: shape = .rectangle
    case .ellipse: shape = .ellipse
    case .path(let points): shape = .path(points)
    }
    let item = try engine {
      try DynamicItem(
        identifier: spec.id, center: spec.center, size: spec.size, angle: spec.angle,
        shape: shape)
    }
    try admitShapes(item.shapeCount)
    items.append(item)
    itemsByID[spec.id] = item
  }

  /// Removes the item from the scene and from every behavior; attachments and snaps that
  /// cannot exist without it are removed with it.
  func removeItem(_ id: String, session: String) throws(ProtocolError) {
    let item = try self.item(id, session: session)
    for entry in behaviors.reversed() {
      switch entry.behavior {
      case let b as GravityBehavior: b.removeItem(item)
      case let b as CollisionBehavior: b.removeItem(item)
      case let b as PushBehavior: b.removeItem(item)
      case let b as DynamicItemBehavior: b.removeItem(item)
      case let b as AttachmentBehavior where b.items.contains(where: { $0 === item }):
        try? removeBehavior(entry.id, session: session)
      case let b as SnapBehavior where b.item === item:
        try? removeBehavior(entry.id, session: session)
      default: break
      }
    }
    items.removeAll { $0 === item }
    itemsByID[id] = nil
  }

  func addBehavior(_ spec: BehaviorSpec) throws(ProtocolError) -> String {
    let id = spec.id ?? freshBehaviorID()
    guard !behaviors.contains(where: { $0.id == id }) else {
      throw ProtocolError(.invalidScene, "a behavior with id '\(id)' already exists")
    }
    guard behaviors.count < Limits.maxBehaviorsPerScene else {
      throw ProtocolError(
        .outOfRange, "a scene holds at most \(Limits.maxBehaviorsPerScene) behaviors")
    }
    let added = spec.boundaryShapeCount
    try admitShapes(added)
    let behavior = try BehaviorFactory(scene: self).make(spec)
    behaviors.append((id, spec.type, behavior))
    animator.addBehavior(behavior)
    return id
  }

  func removeBehavior(_ id: String, session: String) throws(ProtocolError) {
    guard let index = behaviors.firstIndex(where: { $0.id == id }) else {
      throw .unknownBehavior(id, session: session)
    }
    animator.removeBehavior(behaviors[index].behavior)
    behaviors.remove(at: index)
  }

  func removeAllBehaviors() {
    animator.removeAllBehaviors()
    behaviors = []
  }

  static func boundaryShapeCount(of behavior: DynamicBehavior) -> Int {
    (behavior as? CollisionBehavior)?.boundaryShapeCount ?? 0
  }

  /// Refuses a change that would add `added` shapes (net) beyond the session's or the daemon's
  /// bound.
  private func admitShapes(_ added: Int) throws(ProtocolError) {
    guard added > 0 else { return }
    let total = shapeCount + added
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

  func setBehavior(_ request: SetBehaviorRequest) throws(ProtocolError) {
    guard let entry = behaviors.first(where: { $0.id == request.behavior }) else {
      throw .unknownBehavior(request.behavior, session: request.session)
    }
    try request.update.check(for: entry.type)
    guard let c = entry.behavior as? CollisionBehavior else {
      try BehaviorFactory(scene: self).apply(request.update, to: entry.behavior)
      return
    }
    let before = c.boundaryShapeCount
    let u = request.update
    let referenceBounds =
      u.insets != nil || (u.referenceBounds ?? c.translatesReferenceBoundsIntoBoundary)
    let named =
      u.boundaries.map {
        CollisionBehavior.boundaryShapeCount(
          referenceBounds: false, pathPointCounts: $0.map(\.shape.pointCount))
      } ?? (before - (c.translatesReferenceBoundsIntoBoundary ? 4 : 0))
    try admitShapes(named + (referenceBounds ? 4 : 0) - before)
    try BehaviorFactory(scene: self).apply(u, to: c)
  }

  /// Moves an item (UIKit's updateItemUsingCurrentState); its velocity is kept.
  func setItem(_ request: SetItemRequest) throws(ProtocolError) {
    let item = try self.item(request.item, session: request.session)
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
    guard animator.items.contains(where: { $0 === item }) else {
      throw ProtocolError(
        .invalidScene,
        "item '\(request.item)' is in no behavior, so nothing animates it; add a behavior first")
    }
    let carrier =
      behaviors.reversed().compactMap { $0.behavior as? DynamicItemBehavior }
      .first { $0.items.contains { $0 === item } } ?? velocityCarrier(for: item)
    if let v = request.velocity { carrier.addLinearVelocity(v, for: item) }
    if let w = request.angular { carrier.addAngularVelocity(w, for: item) }
  }

  /// An item behavior with default properties that only carries velocity.
  private func velocityCarrier(for item: DynamicItem) -> DynamicItemBehavior {
    let carrier = DynamicItemBehavior(items: [item])
    animator.addBehavior(carrier)
    return carrier
  }

  private func freshBehaviorID() -> String {
    while true {
      let id = "b\(nextBehaviorNumber)"
      nextBehaviorNumber += 1
      if !behaviors.contains(where: { $0.id == id }) { return id }
    }
  }
}

extension BehaviorSpec {
  /// Box2D shapes the behavior's boundaries make (collision behaviors only).
  var boundaryShapeCount: Int {
    guard case .collision(let c) = self else { return 0 }
    return CollisionBehavior.boundaryShapeCount(
      referenceBounds: c.insets != nil || c.referenceBounds == true,
      pathPointCounts: c.boundaries.map(\.shape.pointCount))
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

/// Runs an engine call, turning its refusal into the protocol's error.
func engine<T>(_ body: () throws -> T) throws(ProtocolError) -> T {
  do {
    return try body()
  } catch let error as DynamicsError {
    switch error.kind {
    case .invalidShape, .invalidReference: throw ProtocolError(.invalidScene, error.message)
    case .nonFinite: throw ProtocolError(.invalidNumber, error.message)
    case .outOfRange: throw ProtocolError(.outOfRange, error.message)
    }
  } catch {
    throw ProtocolError(.invalidScene, "\(error)")
  }
}
