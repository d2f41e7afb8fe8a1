import Primitives

/// Where a field acts (UIRegion), as offsets from the field's position.
///
/// A radius is a disc and a size a rectangle, both centered on the field's position; their edges
/// belong to them. The other cases combine regions as sets. `.inverse(.infinite)` is the empty
/// region. Values are checked with `validate(_:)`; a `FieldBehavior` refuses a region it fails.
public indirect enum Region: Equatable, Sendable {
  /// Everywhere (UIRegion.infiniteRegion, the default).
  case infinite
  /// The disc of this radius, in points (initWithRadius:).
  case radius(Double)
  /// The rectangle of this size, in points (initWithSize:).
  case size(Size)
  /// Everywhere the region is not (inverseRegion).
  case inverse(Region)
  /// Where either region is (regionByUnionWithRegion:).
  case union(Region, Region)
  /// Where both regions are (regionByIntersectionWithRegion:).
  case intersection(Region, Region)
  /// Where the first region is and the second is not (regionByDifferenceFromRegion:).
  case difference(Region, Region)

  /// The deepest nesting `validate(_:)` accepts: a leaf has depth 1, a combination one more than
  /// its deepest part.
  public static let maximumDepth = 16
  /// The largest radius or side accepted, in points.
  public static let maximumExtent = 1e9

  /// The empty region (UIKit: the inverse of the infinite region).
  public static let empty = Region.inverse(.infinite)

  /// Whether a point at `offset` from the field's position lies in the region (containsPoint:).
  public func contains(_ offset: Vector) -> Bool {
    switch self {
    case .infinite: return true
    case .radius(let r): return offset.dx * offset.dx + offset.dy * offset.dy <= r * r
    case .size(let s): return abs(offset.dx) <= s.width / 2 && abs(offset.dy) <= s.height / 2
    case .inverse(let a): return !a.contains(offset)
    case .union(let a, let b): return a.contains(offset) || b.contains(offset)
    case .intersection(let a, let b): return a.contains(offset) && b.contains(offset)
    case .difference(let a, let b): return a.contains(offset) && !b.contains(offset)
    }
  }

  /// The nesting depth: 1 for a leaf, one more than the deepest part for a combination.
  public var depth: Int {
    switch self {
    case .infinite, .radius, .size: return 1
    case .inverse(let a): return 1 + a.depth
    case .union(let a, let b), .intersection(let a, let b), .difference(let a, let b):
      return 1 + max(a.depth, b.depth)
    }
  }

  /// Throws unless every radius and side is finite and within 0…`maximumExtent` and the depth is
  /// at most `maximumDepth`.
  public static func validate(_ r: Region) throws {
    try r.check(level: 1)
  }

  private func check(level: Int) throws {
    guard level <= Self.maximumDepth else {
      throw DynamicsError(
        .outOfRange, "a region may nest at most \(Self.maximumDepth) levels deep")
    }
    switch self {
    case .infinite: return
    case .radius(let r): try Self.checkExtent(r, "radius")
    case .size(let s):
      try Self.checkExtent(s.width, "width")
      try Self.checkExtent(s.height, "height")
    case .inverse(let a): try a.check(level: level + 1)
    case .union(let a, let b), .intersection(let a, let b), .difference(let a, let b):
      try a.check(level: level + 1)
      try b.check(level: level + 1)
    }
  }

  private static func checkExtent(_ value: Double, _ name: String) throws {
    guard value.isFinite else {
      throw DynamicsError(.nonFinite, "a region's \(name) is not finite")
    }
    guard value >= 0, value <= maximumExtent else {
      throw DynamicsError(
        .outOfRange, "a region's \(name) is \(value); it must be 0 to \(maximumExtent) pt")
    }
  }
}
