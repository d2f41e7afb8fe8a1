import Primitives

/// The engine's limits as they apply to a spring's or decay's closed form, which Box2D does not
/// integrate (the body is kinematic and placed): no item moves faster than the speed limit
/// (`DynamicAnimator.maxSpeed`, 24 000 pt/s) nor further than 200 pt in one internal step, and
/// none is carried past the edge of the coordinate space (±`DynamicItem.maximumCoordinate`).
///
/// Exactness ends at these limits, as it does for a handoff (`allowedVelocity`): a motion starts
/// at most at the speed limit (its velocity scaled down, direction kept), and a state of the
/// closed form beyond a limit is brought back to it — the velocity scaled down to the speed
/// limit, the step's travel to 200 pt (Box2D's own `b2_maxTranslation`), and an axis past an
/// edge held on the edge, its outward velocity 0 — and the motion starts afresh from there
/// (`ExactMotionTracks`). A motion that stays within them is exactly its closed form. An item
/// already beyond an edge (thrown there by the engine) is not brought back, only carried no
/// further out.
enum ExactMotionLimits {
  /// `velocity` scaled down to the speed limit, direction kept.
  static func startingVelocity(_ velocity: Vector) -> Vector {
    let speed = velocity.length
    return speed > DynamicAnimator.maxSpeed
      ? velocity * (DynamicAnimator.maxSpeed / speed) : velocity
  }

  /// The state the closed form gives `interval` seconds after the item was at `start`, brought
  /// within the limits; nil when it already is.
  static func bounded(
    _ position: Point, _ velocity: Vector, from start: Point, over interval: Double
  ) -> (position: Point, velocity: Vector)? {
    var position = position
    let limited = startingVelocity(velocity)
    var changed = limited != velocity
    let travel = position - start
    let most = DynamicAnimator.maxSpeed * interval
    if travel.length > most {
      position = start + travel * (most / travel.length)
      changed = true
    }
    let x = onEdge(position.x, limited.dx, from: start.x)
    let y = onEdge(position.y, limited.dy, from: start.y)
    changed = changed || x.held || y.held
    return changed
      ? (Point(x: x.coordinate, y: y.coordinate), Vector(dx: x.speed, dy: y.speed)) : nil
  }

  /// `point` held within the edges, as seen from `start` (a decay's resting point, which its
  /// motion stops at the edge before).
  static func withinEdges(_ point: Point, from start: Point) -> Point {
    Point(
      x: onEdge(point.x, 0, from: start.x).coordinate,
      y: onEdge(point.y, 0, from: start.y).coordinate)
  }

  /// One axis held on the edge beyond which it may not go from `start` (the coordinate limit, or
  /// `start` itself when it lies beyond): its outward velocity is then 0.
  private static func onEdge(_ coordinate: Double, _ speed: Double, from start: Double) -> (
    coordinate: Double, speed: Double, held: Bool
  ) {
    let edge = max(DynamicItem.maximumCoordinate, abs(start))
    if coordinate > edge { return (edge, min(speed, 0), true) }
    if coordinate < -edge { return (-edge, max(speed, 0), true) }
    return (coordinate, speed, false)
  }
}
