import Primitives

/// Groups (UIDynamicItemGroup): several items that move as one rigid body.
///
/// A group is a `DynamicItem`, so every behavior takes it as it takes any item. The rules:
/// - **Making one.** At least one member; a group cannot contain a group; an item belongs to at
///   most one group while that group exists (`DynamicItem.group`); the same item twice is
///   refused. Each refusal is a `DynamicsError` of kind `invalidReference`, and a group wider or
///   taller than `DynamicItem.maximumSide` is `outOfRange`.
/// - **Its shape.** The members' centers and angles when the group is made freeze into offsets.
///   The group's bounds are the rectangle enclosing the members' frames, its center that
///   rectangle's center, its angle 0. Its collision outline is every member's outline at its
///   offset and angle (one Box2D body, so members never collide with each other); `shape` says
///   `.rectangle` and means nothing for a group.
/// - **Its mass.** The sum of the members' masses at density 1 (each density × width × height /
///   10 000), with the centre of mass and the inertia of the members together (parallel-axis
///   theorem). The density of the group's own item behavior multiplies it; the group's item
///   behavior decides all its properties, and the members' own item behaviors do not act.
///   Gravity acts at the centre of mass, so it never turns a group; a push at the group's center
///   turns a group whose centre of mass is elsewhere, as it turns a path item.
/// - **While animated.** After every step each member's `center`, `angle`, `velocity` (the
///   group's v + ω × r, r from the group's centre of mass to the member's center) and
///   `angularVelocity` are written from the group's body. A member has no body of its own while
///   its group has one: behaviors that name the member directly are ignored for it (UIKit does
///   not support it; name the group). Contacts name the group, never a member. When the group
///   leaves the animator its members stay where they were last written.
/// - **Moving one.** `updateItem(usingCurrentState:)` on a group moves the group and its members
///   with it; on a member of an animated group it moves the group so that that member is where
///   the caller put it (the other members follow rigidly). A group that is not animated keeps its
///   own `center` and `angle`: when it is animated, its members are placed from them.
extension DynamicItem {
  /// A group item: one rigid body made of the members' collision outlines.
  public convenience init(group identifier: String, items members: [DynamicItem]) throws {
    let plan = try GroupPlan(identifier: identifier, members: members)
    self.init(groupIdentifier: identifier, plan: plan)
  }

  /// The group's members in the order given; empty for a plain item.
  public var groupMembers: [DynamicItem] { members.map(\.item) }

  /// Whether this item is a group.
  public var isGroup: Bool { !members.isEmpty }

  /// Where `item` sits in this group, if it is one of its members.
  func placement(of item: DynamicItem) -> GroupMember? {
    members.first { $0.item === item }
  }
}

/// One member of a group and where it sits in it, frozen when the group was made.
struct GroupMember {
  let item: DynamicItem
  /// The member's center relative to the group's center, in the group's frame (pt).
  let offset: Vector
  /// The member's rotation relative to the group's (radians).
  let angle: Double
}

/// A group worked out and checked before the group item exists.
struct GroupPlan {
  let center: Point
  let size: Size
  let members: [GroupMember]
  let fixtures: [FixtureShape]
  let massModel: MassModel

  init(identifier: String, members items: [DynamicItem]) throws {
    let owner = "group '\(identifier)'"
    guard !items.isEmpty else {
      throw DynamicsError(.invalidReference, "\(owner) needs at least one item")
    }
    var seen = Set<ObjectIdentifier>()
    for item in items {
      guard !item.isGroup else {
        throw DynamicsError(
          .invalidReference, "\(owner) cannot contain group '\(item.identifier)'")
      }
      guard item.group == nil else {
        throw DynamicsError(
          .invalidReference,
          "item '\(item.identifier)' is already in group '\(item.group?.identifier ?? "")'")
      }
      guard seen.insert(ObjectIdentifier(item)).inserted else {
        throw DynamicsError(.invalidReference, "\(owner) names '\(item.identifier)' twice")
      }
      try DynamicItem.validate(center: item.center, angle: item.angle)
    }
    var minX = Double.infinity
    var minY = Double.infinity
    var maxX = -Double.infinity
    var maxY = -Double.infinity
    for item in items {
      let f = item.frame
      minX = min(minX, f.minX)
      minY = min(minY, f.minY)
      maxX = max(maxX, f.maxX)
      maxY = max(maxY, f.maxY)
    }
    let bounds = Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    guard bounds.size.width <= DynamicItem.maximumSide,
      bounds.size.height <= DynamicItem.maximumSide
    else {
      throw DynamicsError(
        .outOfRange, "\(owner) spans more than \(DynamicItem.maximumSide) pt")
    }
    center = bounds.center
    try DynamicItem.validate(center: center, angle: 0)
    size = bounds.size
    members = items.map {
      GroupMember(item: $0, offset: $0.center - bounds.center, angle: $0.angle)
    }
    var fixtures: [FixtureShape] = []
    var parts: [(mass: Double, center: Point, inertiaPerMass: Double)] = []
    for member in members {
      for fixture in member.item.fixtures {
        let placed = fixture.placed(at: member.offset, angle: member.angle)
        if case .polygon(let piece) = placed, !PhysicsWorld.acceptsPolygon(piece) {
          throw DynamicsError(
            .invalidShape, "\(owner) has a shape too thin or small to simulate")
        }
        fixtures.append(placed)
      }
      // The member's own centre of mass, where it sits in the group.
      let model = member.item.massModel
      let c = Vector(dx: model.center.x, dy: model.center.y).rotated(by: member.angle)
      parts.append(
        (
          mass: Units.mass(density: 1, size: member.item.size),
          center: Point(x: member.offset.dx + c.dx, y: member.offset.dy + c.dy),
          inertiaPerMass: model.inertiaPerMass
        ))
    }
    self.fixtures = fixtures
    massModel = MassModel.combining(parts)
  }
}
