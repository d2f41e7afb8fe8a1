import Glibc

/// A point in the animator's reference coordinate space: points, origin top-left, y down.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
  public static let zero = Point(x: 0, y: 0)
  public var isFinite: Bool { x.isFinite && y.isFinite }
  public var description: String { "(\(x), \(y))" }

  public static func + (p: Point, v: Vector) -> Point { Point(x: p.x + v.dx, y: p.y + v.dy) }
  public static func - (p: Point, v: Vector) -> Point { Point(x: p.x - v.dx, y: p.y - v.dy) }
  public static func - (a: Point, b: Point) -> Vector { Vector(dx: a.x - b.x, dy: a.y - b.y) }
  /// Distance between two points.
  public func distance(to other: Point) -> Double { (other - self).length }
}

/// A vector: a direction, a velocity (pt/s) or an offset, in reference coordinates.
public struct Vector: Hashable, Sendable, CustomStringConvertible {
  public var dx: Double
  public var dy: Double
  public init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }
  public static let zero = Vector(dx: 0, dy: 0)
  public var length: Double { (dx * dx + dy * dy).squareRoot() }
  public var isFinite: Bool { dx.isFinite && dy.isFinite }
  public var description: String { "(\(dx), \(dy))" }

  public static func + (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx + b.dx, dy: a.dy + b.dy) }
  public static func - (a: Vector, b: Vector) -> Vector { Vector(dx: a.dx - b.dx, dy: a.dy - b.dy) }
  public static func * (v: Vector, s: Double) -> Vector { Vector(dx: v.dx * s, dy: v.dy * s) }
  /// The vector turned by `angle` radians (positive turns clockwise on screen, as in UIKit).
  public func rotated(by angle: Double) -> Vector {
    let c = cos(angle)
    let s = sin(angle)
    return Vector(dx: dx * c - dy * s, dy: dx * s + dy * c)
  }
}

/// A width and a height in points.
public struct Size: Hashable, Sendable {
  public var width: Double
  public var height: Double
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// An axis-aligned rectangle: origin (top-left) and size.
public struct Rect: Hashable, Sendable {
  public var origin: Point
  public var size: Size
  public init(x: Double, y: Double, width: Double, height: Double) {
    origin = Point(x: x, y: y)
    size = Size(width: width, height: height)
  }
  public var minX: Double { origin.x }
  public var minY: Double { origin.y }
  public var maxX: Double { origin.x + size.width }
  public var maxY: Double { origin.y + size.height }
  public var center: Point { Point(x: origin.x + size.width / 2, y: origin.y + size.height / 2) }
  /// True when the rectangles overlap with positive area or touch.
  public func intersects(_ other: Rect) -> Bool {
    minX <= other.maxX && other.minX <= maxX && minY <= other.maxY && other.minY <= maxY
  }
  /// True when `point` is inside the rectangle or on its edge (CGRectContainsPoint, closed).
  public func contains(_ point: Point) -> Bool {
    minX <= point.x && point.x <= maxX && minY <= point.y && point.y <= maxY
  }
  /// The rectangle shrunk by insets (negative insets grow it), as UIEdgeInsetsInsetRect.
  public func inset(by insets: EdgeInsets) -> Rect {
    Rect(
      x: minX + insets.left, y: minY + insets.top,
      width: size.width - insets.left - insets.right,
      height: size.height - insets.top - insets.bottom)
  }
}

/// Insets from each edge of a rectangle, as UIEdgeInsets.
public struct EdgeInsets: Hashable, Sendable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double
  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
  public static let zero = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
}

/// A closed range that may be unbounded at either end, as UIFloatRange.
public struct FloatRange: Hashable, Sendable {
  public var minimum: Double
  public var maximum: Double
  public init(minimum: Double, maximum: Double) {
    self.minimum = minimum
    self.maximum = maximum
  }
  /// UIFloatRangeInfinite: no limit at all.
  public static let infinite = FloatRange(minimum: -.infinity, maximum: .infinity)
  public var isInfinite: Bool { minimum == -.infinity && maximum == .infinity }
}
