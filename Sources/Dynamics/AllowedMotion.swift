import Primitives

extension DynamicAnimator {
  /// The fastest an item moves, in pt/s: Box2D moves a body at most 2 m (b2_maxTranslation,
  /// 200 pt) per internal step and scales a faster velocity down to that during the step
  /// (`PropertyRanges.speedLimit`, 200 pt × 120 steps a second).
  public static let maxSpeed = PropertyRanges.speedLimit

  /// The velocity `item` actually moves with when given `velocity`, and the constraints that
  /// changed it (in the order they apply): a rail to an anchor projects it onto its axis (two
  /// rails that cross stop it), anchoring stops it, the speed limit scales it down. Forces
  /// (gravity, springs, resistance) are not constraints: they change the velocity over time,
  /// from this starting value. Not modelled (their effect shows in the motion, which
  /// `dynctl handoff` measures): rails between two items, a rail's range, rigid rods, pins and
  /// welds, and contacts.
  public func allowedVelocity(_ velocity: Vector, for item: DynamicItem) -> (
    velocity: Vector, constraints: [MotionConstraint]
  ) {
    prepare()
    var v = velocity
    var constraints: [MotionConstraint] = []
    var railAxis: Vector?
    if let body = body(for: item), !body.isDynamic { return (.zero, [.anchored]) }
    for case let rail as AttachmentBehavior in Self.flatten(behaviors)
    where rail.kind == .sliding && rail.item === item {
      guard case .anchor = rail.target else { continue }
      let axis = rail.axis * (1 / rail.axis.length)
      var projected = axis * (v.dx * axis.dx + v.dy * axis.dy)
      // A second rail across the first leaves no direction to move in.
      if let first = railAxis, abs(first.dx * axis.dy - first.dy * axis.dx) > 1e-9 {
        projected = .zero
      }
      railAxis = railAxis ?? axis
      if projected != v { constraints.append(.rail(axis: axis)) }
      v = projected
    }
    if v.length > Self.maxSpeed {
      v = v * (Self.maxSpeed / v.length)
      constraints.append(.speedLimit(Self.maxSpeed))
    }
    return (v, constraints)
  }
}
