import Dynamics
import Primitives
import SceneBuilding
import Wire

extension SceneModel {
  /// The `behaviors` reply: every behavior of the scene in the order it was added, read back
  /// from the engine as a spec whose every field `set_behavior` can set holds its current
  /// value, with its action rules; a composite lists its children the same way. The hidden
  /// carrier `add_velocity` may add is not one of the scene's behaviors.
  func behaviorStates() -> [BehaviorSpec] {
    var ids: [ObjectIdentifier: String] = [:]
    for entry in behaviorsByID.values { ids[ObjectIdentifier(entry.behavior)] = entry.id }
    return behaviors.compactMap { entry in state(of: entry.behavior, id: entry.id, ids: ids) }
  }

  /// One behavior's state with its rules; a composite's with its children's, in order.
  private func state(of behavior: DynamicBehavior, id: String, ids: [ObjectIdentifier: String])
    -> BehaviorSpec?
  {
    var spec: BehaviorSpec?
    if type(of: behavior) == DynamicBehavior.self {
      spec = .composite(
        CompositeSpec(
          id: id,
          children: behavior.childBehaviors.compactMap { child in
            ids[ObjectIdentifier(child)].flatMap { state(of: child, id: $0, ids: ids) }
          }))
    } else {
      spec = Self.state(of: behavior, id: id)
    }
    spec?.action = actions[id]?.map(\.rule) ?? []
    return spec
  }

  /// An upper bound of the `behaviors` reply's size, counted without building it nor reading
  /// an id, in O(behaviors): 400 bytes a behavior for its numbers and words, its id, each item
  /// it lists at the scene's longest id with its quotes and comma (but never more in all than
  /// every id of the scene once, as a behavior lists an item once), 80 bytes a boundary shape.
  /// A field adds 300 bytes for its region (at most 64 objects of one number or pair each
  /// makes 40 bytes an object), and a rule up to 2 KiB (its 8 effects, a `set` of every field).
  func behaviorsReplyBound() -> Int {
    behaviorsByID.values.reduce(0) { total, entry in
      let listed = Self.heldItems(of: entry.behavior).count
      let field = entry.behavior is FieldBehavior ? 300 + 40 * Limits.maxRegionNodes : 0
      return total + 400 + field + SceneModel.jsonBytes(entry.id)
        + min(listed * longestItemIDBytes, itemIDBytes) + 3 * listed
        + 80 * Self.boundaryShapeCount(of: entry.behavior)
        + 2048 * (actions[entry.id]?.count ?? 0)
    }
  }

  private static func state(of behavior: DynamicBehavior, id: String) -> BehaviorSpec? {
    switch behavior {
    case let g as GravityBehavior:
      return .gravity(
        GravitySpec(
          id: id, items: g.items.map(\.identifier), direction: g.gravityDirection,
          angle: g.angle, magnitude: g.magnitude))
    case let c as CollisionBehavior:
      return .collision(
        CollisionSpec(
          id: id, items: c.items.map(\.identifier), mode: c.collisionMode,
          referenceBounds: c.translatesReferenceBoundsIntoBoundary,
          insets: c.referenceBoundsInsets, boundaries: boundaries(of: c)))
    case let a as AttachmentBehavior:
      return .attachment(attachment(a, id: id))
    case let s as SnapBehavior:
      return .snap(
        SnapSpec(id: id, item: s.item.identifier, point: s.snapPoint, damping: s.damping))
    case let p as PushBehavior:
      // The wire sets one offset for every item the push holds; an item added later by
      // `items` starts at its center, so the first item's offset stands for the behavior's.
      let offset = p.items.first.map { p.targetOffsetFromCenter(for: $0) } ?? .zero
      return .push(
        PushSpec(
          id: id, items: p.items.map(\.identifier),
          mode: p.mode == .continuous ? .continuous : .instantaneous,
          direction: p.pushDirection, angle: p.angle, magnitude: p.magnitude, offset: offset,
          active: p.active))
    case let f as FieldBehavior:
      return .field(
        FieldSpec(
          id: id, kind: FieldKindName(rawValue: f.kind.rawValue) ?? .linearGravity,
          items: f.items.map(\.identifier), position: f.position, region: RegionSpec(f.region),
          strength: f.strength, falloff: f.falloff, minimumRadius: f.minimumRadius,
          direction: f.direction, smoothness: f.smoothness, animationSpeed: f.animationSpeed,
          seed: f.seed))
    case let s as SpringBehavior:
      return .spring(
        SpringSpec(
          id: id, items: s.items.map(\.identifier), target: s.target,
          parameters: SpringParameterValues(s.parameters), initialVelocity: s.initialVelocity))
    case let d as DecayBehavior:
      return .decay(
        DecaySpec(
          id: id, items: d.items.map(\.identifier), model: d.model,
          initialVelocity: d.initialVelocity))
    case let d as DynamicItemBehavior:
      return .dynamicItem(
        DynamicItemSpec(
          id: id, items: d.items.map(\.identifier), elasticity: d.elasticity,
          friction: d.friction, density: d.density, resistance: d.resistance,
          angularResistance: d.angularResistance, allowsRotation: d.allowsRotation,
          anchored: d.anchored, charge: d.charge))
    default:
      return nil
    }
  }

  /// An attachment with the fields its kind was created with (`to`, `offset`, `to_offset`,
  /// `axis`) and every settable one: `anchor`, `length`, `damping`, `frequency`,
  /// `friction_torque`, and `range` (nil when unlimited).
  private static func attachment(_ a: AttachmentBehavior, id: String) -> AttachmentSpec {
    var other: (id: String, offset: Vector)?
    if case .item(let item, let offset) = a.target { other = (item.identifier, offset) }
    let takesOffsets = a.kind == .distance || a.kind == .limit
    let range = a.attachmentRange
    return AttachmentSpec(
      id: id, kind: AttachmentKind(rawValue: a.kind.rawValue) ?? .distance,
      item: a.item.identifier, to: other?.id, anchor: a.anchorPoint,
      offset: takesOffsets ? a.offset : nil, toOffset: takesOffsets ? other?.offset : nil,
      length: a.length, damping: a.damping, frequency: a.frequency,
      axis: a.kind == .sliding ? a.axis : nil,
      range: range.minimum.isFinite && range.maximum.isFinite ? range : nil,
      frictionTorque: a.frictionTorque)
  }

  /// Named boundaries in order: two points as a segment, more as a path.
  private static func boundaries(of c: CollisionBehavior) -> [BoundarySpec] {
    c.boundaryIdentifiers.compactMap { id in
      guard let points = c.boundary(identifier: id)?.points else { return nil }
      let shape: BoundaryShape =
        points.count == 2 ? .segment(from: points[0], to: points[1]) : .path(points)
      return BoundarySpec(id: id, shape: shape)
    }
  }
}
