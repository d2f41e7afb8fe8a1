import Primitives

/// How an item's mass is spread, known when the item is created: what its Box2D body needs besides
/// the density that an item behavior sets.
struct MassModel {
  /// Centre of mass relative to the item's center, in the item's frame (pt).
  let center: Point
  /// Rotational inertia about the centre of mass per kg (pt²).
  let inertiaPerMass: Double
  /// A group's mass at density 1 (kg): the sum of its members' masses. Nil for a plain item,
  /// whose mass comes from its bounds (`Units.mass`).
  let groupMass: Double?

  /// A plain item: rectangles and ellipses balance on their center, paths on their centroid.
  static func of(_ shape: CollisionShape, size: Size) -> MassModel {
    let w = size.width
    let h = size.height
    switch shape {
    case .rectangle:
      return MassModel(center: .zero, inertiaPerMass: (w * w + h * h) / 12, groupMass: nil)
    case .ellipse:
      return MassModel(center: .zero, inertiaPerMass: (w * w + h * h) / 16, groupMass: nil)
    case .path(let vertices):
      return MassModel(
        center: ConvexPolygon.centroid(vertices),
        inertiaPerMass: ConvexPolygon.inertiaPerMass(vertices), groupMass: nil)
    }
  }

  /// Mass in kg at `density`: density × width × height / 10 000 for a plain item, density × the
  /// members' masses for a group.
  func mass(density: Double, size: Size) -> Double {
    if let groupMass { return density * groupMass }
    return Units.mass(density: density, size: size)
  }

  /// Parts (each a mass at density 1, its own centre of mass and inertia per kg about it, placed
  /// in a common frame) as one rigid body: masses add, the centre of mass is their weighted mean,
  /// and the inertia about it follows the parallel-axis theorem, I = Σ mᵢ (Iᵢ/mᵢ + |cᵢ − c|²).
  static func combining(_ parts: [(mass: Double, center: Point, inertiaPerMass: Double)])
    -> MassModel
  {
    var total = 0.0
    var x = 0.0
    var y = 0.0
    for part in parts {
      total += part.mass
      x += part.mass * part.center.x
      y += part.mass * part.center.y
    }
    let center = Point(x: x / total, y: y / total)
    var inertia = 0.0
    for part in parts {
      let r = part.center - center
      inertia += part.mass * (part.inertiaPerMass + r.dx * r.dx + r.dy * r.dy)
    }
    return MassModel(center: center, inertiaPerMass: inertia / total, groupMass: total)
  }
}
