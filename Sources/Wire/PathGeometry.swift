import Glibc
import Primitives

/// Checks on the polygons and polylines of a scene, done here so that Box2D, which aborts the
/// process on degenerate shapes, never sees one.
enum PathGeometry {
  /// Throws `invalid_scene` unless `points` is a convex polygon (either winding) with vertices at
  /// least `Limits.minVertexSpacing` apart, no three consecutive vertices collinear, a single turn
  /// around (no star shapes), and an area of at least `Limits.minPathArea`.
  static func checkConvexPolygon(_ points: [Point], path: @autoclosure () -> String)
    throws(ProtocolError)
  {
    let count = points.count
    try checkSpacing(points, path: path(), closed: true)
    var turning = 0.0
    var sign = 0.0
    var doubleArea = 0.0
    for index in 0..<count {
      let a = points[index]
      let b = points[(index + 1) % count]
      let c = points[(index + 2) % count]
      let edge = (x: b.x - a.x, y: b.y - a.y)
      let next = (x: c.x - b.x, y: c.y - b.y)
      let cross = edge.x * next.y - edge.y * next.x
      let dot = edge.x * next.x + edge.y * next.y
      let scale =
        (edge.x * edge.x + edge.y * edge.y).squareRoot()
        * (next.x * next.x + next.y * next.y).squareRoot()
      guard abs(cross) > 1e-9 * scale else {
        throw ProtocolError(
          .invalidScene,
          "field '\(path())' is not a convex polygon: vertices \(index), \((index + 1) % count) and "
            + "\((index + 2) % count) are collinear")
      }
      if sign == 0 { sign = cross > 0 ? 1 : -1 }
      guard (cross > 0) == (sign > 0) else {
        throw ProtocolError(
          .invalidScene,
          "field '\(path())' is not a convex polygon: it turns the other way at vertex "
            + "\((index + 1) % count)")
      }
      turning += atan2(cross, dot)
      doubleArea += a.x * b.y - b.x * a.y
    }
    // A convex polygon turns exactly once around; a pentagram turns the same way at every vertex
    // but twice around.
    guard abs(abs(turning) - 2 * Double.pi) < 1e-6 else {
      throw ProtocolError(
        .invalidScene, "field '\(path())' is not a convex polygon: its edges cross each other")
    }
    guard abs(doubleArea) / 2 >= Limits.minPathArea else {
      throw ProtocolError(
        .invalidScene,
        "field '\(path())' encloses \(plainNumber(abs(doubleArea) / 2)) square points; the "
          + "minimum is \(plainNumber(Limits.minPathArea))")
    }
  }

  /// Throws `invalid_scene` when two consecutive points (and, for a closed path, the last and the
  /// first) are closer than `Limits.minVertexSpacing`.
  static func checkSpacing(
    _ points: [Point], path: @autoclosure () -> String, closed: Bool
  )
    throws(ProtocolError)
  {
    let edges = closed ? points.count : points.count - 1
    for index in 0..<edges {
      let a = points[index]
      let b = points[(index + 1) % points.count]
      let distance = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
      guard distance >= Limits.minVertexSpacing else {
        throw ProtocolError(
          .invalidScene,
          "field '\(path())' has points \(index) and \((index + 1) % points.count) "
            + "\(plainNumber(distance)) pt apart; the minimum is "
            + "\(plainNumber(Limits.minVertexSpacing)) pt")
      }
    }
  }
}
