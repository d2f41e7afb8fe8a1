import Glibc
import Primitives

/// Something the animator moves: a view-like rectangle with a center, a size and a rotation.
///
/// Like a UIView handed to UIKit Dynamics, the animator reads the item's state when it joins and
/// writes `center`, `angle` and the velocities back after every step. Changing `center` or `angle`
/// while the item is animated has no effect until `DynamicAnimator.updateItem(usingCurrentState:)`.
///
/// An item made with `init(group:items:)` is a group (UIDynamicItemGroup): several items moved as
/// one rigid body. See `DynamicItemGroup.swift` for its rules.
public final class DynamicItem {
  /// The smallest side accepted, in points. Box2D welds points closer than a quarter point and
  /// aborts on degenerate polygons, so items must be comfortably larger than that.
  public static let minimumSide = 1.0
  /// The largest side accepted, in points.
  public static let maximumSide = 100_000.0
  /// The largest coordinate magnitude accepted for centers and points, in points.
  public static let maximumCoordinate = PropertyRanges.coordinate.upperBound
  /// The most vertices a path may have.
  public static let maximumPathVertices = 64

  /// A name for the item, used in contact events and on the wire.
  public let identifier: String
  /// The bounds size; the animator never changes it.
  public let size: Size
  /// The collision outline.
  public let shape: CollisionShape
  /// Position of the item's center.
  public var center: Point
  /// Rotation in radians; positive turns clockwise on screen.
  public var angle: Double
  /// Velocity in pt/s after the last step (zero before the item was animated).
  public internal(set) var velocity: Vector = .zero
  /// Angular velocity in rad/s after the last step.
  public internal(set) var angularVelocity: Double = 0
  /// The group this item belongs to, if any (while that group exists); nil for a group.
  public internal(set) weak var group: DynamicItem?
  /// A group's members and where they sit in it; empty for a plain item.
  let members: [GroupMember]
  /// The Box2D fixtures that make up the shape, checked when the item was created.
  let fixtures: [FixtureShape]
  /// Centre of mass and inertia of the shape (a group's: of its members together).
  let massModel: MassModel
  /// How many Box2D shapes the item is made of: 1 for a rectangle or ellipse, one per convex
  /// piece of a path. Known before the item reaches Box2D.
  public var shapeCount: Int { fixtures.count }

  /// The `shapeCount` an item of `shape` and `size` would have, counted without building it
  /// (nor checking the shape), so that a request can be refused before anything is built.
  public static func shapeCount(of shape: CollisionShape, size: Size) -> Int {
    FixtureShape.count(of: shape, size: size)
  }

  /// Creates an item; throws for a zero, tiny or non-finite size or position, or a bad path.
  public init(
    identifier: String, center: Point, size: Size, angle: Double = 0,
    shape: CollisionShape = .rectangle
  ) throws {
    try Self.validate(center: center, angle: angle)
    guard size.width.isFinite, size.height.isFinite else {
      throw DynamicsError(.nonFinite, "item '\(identifier)' has a non-finite size")
    }
    guard size.width >= Self.minimumSide, size.height >= Self.minimumSide else {
      throw DynamicsError(
        .invalidShape,
        "item '\(identifier)' has size \(size.width)×\(size.height); each side must be at least "
          + "\(Self.minimumSide) pt")
    }
    guard size.width <= Self.maximumSide, size.height <= Self.maximumSide else {
      throw DynamicsError(
        .outOfRange, "item '\(identifier)' is larger than \(Self.maximumSide) pt")
    }
    if case .path(let vertices) = shape {
      try ConvexPolygon.validate(vertices, owner: "item '\(identifier)'")
    }
    fixtures = FixtureShape.plan(shape, size: size)
    for case .polygon(let piece) in fixtures {
      guard PhysicsWorld.acceptsPolygon(piece) else {
        throw DynamicsError(
          .invalidShape, "item '\(identifier)' has a shape too thin or small to simulate")
      }
    }
    self.identifier = identifier
    self.center = center
    self.size = size
    self.angle = angle
    self.shape = shape
    members = []
    massModel = MassModel.of(shape, size: size)
  }

  /// A group item from its plan (`DynamicItem.init(group:items:)` checked it).
  init(groupIdentifier identifier: String, plan: GroupPlan) {
    self.identifier = identifier
    center = plan.center
    size = plan.size
    angle = 0
    shape = .rectangle
    members = plan.members
    fixtures = plan.fixtures
    massModel = plan.massModel
    for member in plan.members { member.item.group = self }
  }

  /// Checks a center and an angle the caller wants to give an item.
  static func validate(center: Point, angle: Double) throws {
    guard center.isFinite, angle.isFinite else {
      throw DynamicsError(.nonFinite, "center \(center) or angle \(angle) is not finite")
    }
    guard abs(center.x) <= maximumCoordinate, abs(center.y) <= maximumCoordinate else {
      throw DynamicsError(.outOfRange, "center \(center) is beyond ±\(maximumCoordinate) pt")
    }
  }

  /// The axis-aligned box around the rotated bounds.
  public var frame: Rect {
    let c = abs(cos(angle))
    let s = abs(sin(angle))
    let w = size.width * c + size.height * s
    let h = size.width * s + size.height * c
    return Rect(x: center.x - w / 2, y: center.y - h / 2, width: w, height: h)
  }
}

/// One Box2D fixture of an item's shape, in points relative to the item's center.
enum FixtureShape {
  case box(Size)
  case circle(radius: Double, center: Point = .zero)
  case polygon([Point])

  /// The fixture turned by `angle` about the item's center and then moved by `offset`: where it
  /// sits in a group. A box becomes its four corners.
  func placed(at offset: Vector, angle: Double) -> FixtureShape {
    func place(_ p: Point) -> Point {
      let v = offset + Vector(dx: p.x, dy: p.y).rotated(by: angle)
      return Point(x: v.dx, y: v.dy)
    }
    switch self {
    case .box(let size):
      let w = size.width / 2
      let h = size.height / 2
      return .polygon(
        [
          Point(x: -w, y: -h), Point(x: w, y: -h), Point(x: w, y: h), Point(x: -w, y: h),
        ].map(place))
    case .circle(let radius, let center):
      return .circle(radius: radius, center: place(center))
    case .polygon(let vertices):
      return .polygon(vertices.map(place))
    }
  }

  /// How many fixtures `plan` makes, counted without making them.
  static func count(of shape: CollisionShape, size: Size) -> Int {
    switch shape {
    case .rectangle: return 1
    case .ellipse where isRound(size): return 1
    case .ellipse: return ConvexPolygon.fanCount(ellipseSides(size))
    case .path(let vertices): return ConvexPolygon.fanCount(vertices.count)
    }
  }

  /// An ellipse this close to a circle is one.
  private static func isRound(_ size: Size) -> Bool {
    abs(size.width - size.height) <= 0.01 * max(size.width, size.height)
  }

  /// The sides of the polygon standing for a non-round ellipse.
  private static func ellipseSides(_ size: Size) -> Int {
    Double.pi * (size.width + size.height) / 2 < 96 ? 8 : 24
  }

  /// Rectangle: one box. Ellipse: a circle when round (within 1%), else a 24-gon (8-gon when
  /// small) in fans of at most 8 vertices. Path: the polygon, in fans when over 8 vertices.
  static func plan(_ shape: CollisionShape, size: Size) -> [FixtureShape] {
    let w = size.width
    let h = size.height
    switch shape {
    case .rectangle:
      return [.box(size)]
    case .ellipse where isRound(size):
      return [.circle(radius: (w + h) / 4)]
    case .ellipse:
      let sides = ellipseSides(size)
      let outline = (0..<sides).map { i -> Point in
        let t = 2 * Double.pi * Double(i) / Double(sides)
        return Point(x: w / 2 * cos(t), y: h / 2 * sin(t))
      }
      return ConvexPolygon.fans(outline).map { .polygon($0) }
    case .path(let vertices):
      return ConvexPolygon.fans(vertices).map { .polygon($0) }
    }
  }
}

/// Geometry of convex polygons given as point lists (item paths).
enum ConvexPolygon {
  /// Throws unless `vertices` form a convex polygon with no repeated or collinear points.
  static func validate(_ vertices: [Point], owner: String) throws {
    guard vertices.allSatisfy(\.isFinite) else {
      throw DynamicsError(.nonFinite, "\(owner) has a non-finite path vertex")
    }
    guard vertices.count >= 3 else {
      throw DynamicsError(.invalidShape, "\(owner) path needs at least 3 vertices")
    }
    guard vertices.count <= DynamicItem.maximumPathVertices else {
      throw DynamicsError(
        .invalidShape, "\(owner) path has more than \(DynamicItem.maximumPathVertices) vertices")
    }
    guard
      vertices.allSatisfy({
        abs($0.x) <= DynamicItem.maximumSide && abs($0.y) <= DynamicItem.maximumSide
      })
    else {
      throw DynamicsError(.outOfRange, "\(owner) path extends beyond \(DynamicItem.maximumSide) pt")
    }
    let n = vertices.count
    var sign = 0.0
    for i in 0..<n {
      let a = vertices[i]
      let b = vertices[(i + 1) % n]
      let c = vertices[(i + 2) % n]
      // Box2D welds points closer than 0.25 pt; demand edges of at least 0.5 pt.
      guard a.distance(to: b) >= 0.5 else {
        throw DynamicsError(.invalidShape, "\(owner) path has an edge shorter than 0.5 pt")
      }
      let turn = (b - a).cross(c - b)
      guard abs(turn) > 1e-9 * max(1, (b - a).length * (c - b).length) else {
        throw DynamicsError(.invalidShape, "\(owner) path has collinear vertices")
      }
      if sign == 0 {
        sign = turn
      } else if (turn > 0) != (sign > 0) {
        throw DynamicsError(.invalidShape, "\(owner) path is not convex")
      }
    }
    // A star traced with consistent turns winds more than once: the angles must sum to 2π.
    var total = 0.0
    for i in 0..<n {
      let e1 = vertices[(i + 1) % n] - vertices[i]
      let e2 = vertices[(i + 2) % n] - vertices[(i + 1) % n]
      total += atan2(e1.cross(e2), e1.dot(e2))
    }
    guard abs(abs(total) - 2 * Double.pi) < 1e-6 else {
      throw DynamicsError(.invalidShape, "\(owner) path intersects itself")
    }
    guard abs(area(vertices)) >= 0.25 else {
      throw DynamicsError(.invalidShape, "\(owner) path encloses almost no area")
    }
  }

  /// Signed area (positive when the vertices turn clockwise on screen).
  static func area(_ v: [Point]) -> Double {
    var a = 0.0
    for i in 0..<v.count {
      let p = v[i]
      let q = v[(i + 1) % v.count]
      a += p.x * q.y - q.x * p.y
    }
    return a / 2
  }

  /// Area centroid.
  static func centroid(_ v: [Point]) -> Point {
    let a = area(v)
    var cx = 0.0
    var cy = 0.0
    for i in 0..<v.count {
      let p = v[i]
      let q = v[(i + 1) % v.count]
      let k = p.x * q.y - q.x * p.y
      cx += (p.x + q.x) * k
      cy += (p.y + q.y) * k
    }
    return Point(x: cx / (6 * a), y: cy / (6 * a))
  }

  /// Second moment of area about the centroid per unit area (pt²): I = mass × this.
  static func inertiaPerMass(_ v: [Point]) -> Double {
    let c = centroid(v)
    let p = v.map { Point(x: $0.x - c.x, y: $0.y - c.y) }
    var num = 0.0
    var den = 0.0
    for i in 0..<p.count {
      let a = p[i]
      let b = p[(i + 1) % p.count]
      let k = abs(a.x * b.y - b.x * a.y)
      num += k * (a.x * a.x + a.x * b.x + b.x * b.x + a.y * a.y + a.y * b.y + b.y * b.y)
      den += k
    }
    return num / (6 * den)
  }

  /// Splits a convex polygon into fans of at most 8 vertices around its centroid.
  /// How many pieces `fans` cuts an outline of `vertexCount` vertices into.
  static func fanCount(_ vertexCount: Int, maximumVertices: Int = 8) -> Int {
    if vertexCount <= maximumVertices { return 1 }
    let perPiece = maximumVertices - 2
    return (vertexCount + perPiece - 1) / perPiece
  }

  static func fans(_ v: [Point], maximumVertices: Int = 8) -> [[Point]] {
    if v.count <= maximumVertices { return [v] }
    let c = centroid(v)
    var pieces: [[Point]] = []
    let perPiece = maximumVertices - 2  // edges of the outline per piece
    var start = 0
    while start < v.count {
      let end = min(start + perPiece, v.count)
      var piece = [c]
      for i in start...end { piece.append(v[i % v.count]) }
      pieces.append(piece)
      start = end
    }
    return pieces
  }
}

extension Vector {
  func cross(_ o: Vector) -> Double { dx * o.dy - dy * o.dx }
  func dot(_ o: Vector) -> Double { dx * o.dx + dy * o.dy }
}
