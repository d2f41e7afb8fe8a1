import CBox2D
import Primitives

/// Makes its items collide with each other and with boundaries (UICollisionBehavior).
///
/// Items of different collision behaviors ignore each other; an item meets only the boundaries of
/// behaviors that hold it with mode `boundaries` or `everything`. The reference-bounds boundary
/// has the identifier nil in contact events; in an animator without reference bounds it makes no
/// walls, and it follows `DynamicAnimator.setReferenceBounds(_:)` as soon as they change.
public final class CollisionBehavior: DynamicBehavior {
  /// A named boundary: a segment or an open or closed polyline.
  public struct Boundary: Equatable, Sendable {
    public let identifier: String
    /// Consecutive points joined by segments.
    public let points: [Point]
  }

  private var list: ItemList
  private var namedBoundaries: [Boundary] = []
  /// Fixture tags of the named boundaries while attached (tag 0 is the reference bounds).
  private var tags: [String: Int32] = [:]
  private var identifiersByTag: [Int32: String] = [:]
  private var nextTag: Int32 = 1
  private var boundaryBody: BodyHandle?
  private var collisionGroup: UInt32?

  public var collisionMode: CollisionMode = .everything {
    didSet { structureDidChange(rebuild: false) }
  }
  /// Whether the animator's reference bounds (inset by `referenceBoundsInsets`) are a boundary.
  public private(set) var translatesReferenceBoundsIntoBoundary = false
  public private(set) var referenceBoundsInsets = EdgeInsets.zero

  public init(items: [DynamicItem] = []) {
    list = ItemList(items)
    super.init()
  }

  public var items: [DynamicItem] { list.items }
  public func addItem(_ item: DynamicItem) {
    if list.add(item) { structureDidChange(rebuild: false) }
  }
  public func removeItem(_ item: DynamicItem) {
    if list.remove(item) { structureDidChange(rebuild: false) }
  }

  /// Turns the reference bounds into a boundary (or stops), optionally inset; negative insets
  /// move the boundary outward.
  public func setTranslatesReferenceBoundsIntoBoundary(_ on: Bool, insets: EdgeInsets = .zero)
    throws
  {
    guard [insets.top, insets.left, insets.bottom, insets.right].allSatisfy(\.isFinite) else {
      throw DynamicsError(.nonFinite, "reference bounds insets must be finite")
    }
    translatesReferenceBoundsIntoBoundary = on
    referenceBoundsInsets = insets
    structureDidChange()
  }

  /// Adds a segment boundary; replaces one with the same identifier.
  public func addBoundary(identifier: String, from: Point, to: Point) throws {
    try addBoundary(identifier: identifier, path: [from, to])
  }

  /// Adds a polyline boundary (closed when the last point equals the first); replaces one with
  /// the same identifier. Segments shorter than 0.5 pt are refused.
  public func addBoundary(identifier: String, path: [Point]) throws {
    guard path.allSatisfy(\.isFinite) else {
      throw DynamicsError(.nonFinite, "boundary '\(identifier)' has a non-finite point")
    }
    guard path.count >= 2 else {
      throw DynamicsError(.invalidShape, "boundary '\(identifier)' needs at least 2 points")
    }
    guard path.count <= 1024 else {
      throw DynamicsError(.invalidShape, "boundary '\(identifier)' has more than 1024 points")
    }
    guard
      path.allSatisfy({
        abs($0.x) <= DynamicItem.maximumCoordinate && abs($0.y) <= DynamicItem.maximumCoordinate
      })
    else {
      throw DynamicsError(.outOfRange, "boundary '\(identifier)' lies beyond the world's range")
    }
    for i in 1..<path.count where path[i - 1].distance(to: path[i]) < 0.5 {
      throw DynamicsError(
        .invalidShape, "boundary '\(identifier)' has a segment shorter than 0.5 pt")
    }
    removeBoundary(identifier: identifier)
    let boundary = Boundary(identifier: identifier, points: path)
    namedBoundaries.append(boundary)
    if let animator = dynamicAnimator, let body = boundaryBody, !needsRebuild {
      addFixtures(boundary, to: body, in: animator.world)
    }
    parameterDidChange()
  }

  /// How many Box2D shapes the boundaries make: one per segment of each named boundary, and
  /// 4 walls for the reference bounds.
  public var boundaryShapeCount: Int {
    Self.boundaryShapeCount(
      referenceBounds: translatesReferenceBoundsIntoBoundary,
      pathPointCounts: namedBoundaries.map(\.points.count))
  }

  /// `boundaryShapeCount` of a behavior that would have these boundaries.
  public static func boundaryShapeCount(referenceBounds: Bool, pathPointCounts: [Int]) -> Int {
    (referenceBounds ? 4 : 0) + pathPointCounts.reduce(0) { $0 + max(0, $1 - 1) }
  }

  public func removeBoundary(identifier: String) {
    guard let i = namedBoundaries.firstIndex(where: { $0.identifier == identifier }) else { return }
    namedBoundaries.remove(at: i)
    if let animator = dynamicAnimator, let body = boundaryBody, let tag = tags[identifier] {
      animator.world.removeFixtures(body, tag: tag)
      animator.flushContacts()  // report contacts the removal ended while the tag is still known
      tags[identifier] = nil
      identifiersByTag[tag] = nil
    }
    parameterDidChange()
  }

  public func removeAllBoundaries() {
    for boundary in namedBoundaries { removeBoundary(identifier: boundary.identifier) }
  }

  public var boundaryIdentifiers: [String] { namedBoundaries.map(\.identifier) }

  public func boundary(identifier: String) -> Boundary? {
    namedBoundaries.first { $0.identifier == identifier }
  }

  // MARK: physics

  override var behaviorItems: [DynamicItem] { list.items }

  func group(in animator: DynamicAnimator) -> UInt32 {
    if let g = collisionGroup { return g }
    let g = animator.makeCollisionGroup()
    collisionGroup = g
    return g
  }

  func identifier(forTag tag: Int32) -> String? { identifiersByTag[tag] }

  override func attachPhysics(_ animator: DynamicAnimator) throws {
    let body = try animator.world.createBody(CBOX2D_BODY_STATIC, center: .zero, angle: 0)
    animator.world.makeBoundary(body, group: group(in: animator))
    animator.registerBoundaryBody(body, owner: self)
    boundaryBody = body
    if translatesReferenceBoundsIntoBoundary, let bounds = animator.referenceBounds {
      addWalls(around: bounds.inset(by: referenceBoundsInsets), to: body, in: animator.world)
    }
    for boundary in namedBoundaries { addFixtures(boundary, to: body, in: animator.world) }
  }

  /// The animator's reference bounds changed: the walls move to them (or go, or come), and the
  /// contacts with the old walls end. Named boundaries keep their fixtures and contacts.
  func referenceBoundsDidChange(_ animator: DynamicAnimator) {
    guard translatesReferenceBoundsIntoBoundary, let body = boundaryBody, !needsRebuild else {
      return
    }
    animator.world.removeFixtures(body, tag: 0)
    animator.flushContacts()  // report the walls' contacts while the tag is still known
    if let bounds = animator.referenceBounds {
      addWalls(around: bounds.inset(by: referenceBoundsInsets), to: body, in: animator.world)
    }
    parameterDidChange()  // wakes this behavior's items, so that sleeping ones meet the walls
  }

  override func detachPhysics(_ animator: DynamicAnimator) {
    guard let body = boundaryBody else { return }
    animator.world.destroyBody(body)
    animator.flushContacts()
    animator.registerBoundaryBody(body, owner: nil)
    boundaryBody = nil
    tags = [:]
    identifiersByTag = [:]
  }

  /// The reference boundary as four thick walls outside the rectangle rather than four lines:
  /// an item crushed into a wall by a much heavier one is pushed back inside, never through.
  private func addWalls(around r: Rect, to body: BodyHandle, in world: PhysicsWorld) {
    guard r.size.width > 0, r.size.height > 0 else { return }
    let t = Self.wallThickness
    let walls = [
      Rect(x: r.minX - t, y: r.minY - t, width: r.size.width + 2 * t, height: t),  // top
      Rect(x: r.minX - t, y: r.maxY, width: r.size.width + 2 * t, height: t),  // bottom
      Rect(x: r.minX - t, y: r.minY, width: t, height: r.size.height),  // left
      Rect(x: r.maxX, y: r.minY, width: t, height: r.size.height),  // right
    ]
    for w in walls {
      let corners = [
        Point(x: w.minX, y: w.minY), Point(x: w.maxX, y: w.minY), Point(x: w.maxX, y: w.maxY),
        Point(x: w.minX, y: w.maxY),
      ]
      // Finite, large and convex: the shim accepts it (a huge rectangle only fails past 10⁷ pt).
      try? world.addPolygon(body, corners, tag: 0)
    }
  }

  /// Thickness of the reference-bounds walls, in points.
  static let wallThickness = 1000.0

  private func addFixtures(_ boundary: Boundary, to body: BodyHandle, in world: PhysicsWorld) {
    let tag = nextTag
    nextTag += 1
    tags[boundary.identifier] = tag
    identifiersByTag[tag] = boundary.identifier
    for i in 1..<boundary.points.count {
      // Points were validated in addBoundary; the shim accepts every segment.
      try? world.addEdge(body, from: boundary.points[i - 1], to: boundary.points[i], tag: tag)
    }
  }
}
