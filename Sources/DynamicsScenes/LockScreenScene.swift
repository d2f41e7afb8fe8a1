import Dynamics
import Primitives

/// The iOS 7 lock screen's physical setup (protocol/PROTOCOL.md, “lock-screen”; seeds 000, 001,
/// 004: docs/TRANSITIONS.md, “The seeds”), defined once for the `lock-screen` transition, the
/// tour, the tests and dynbench.
///
/// One item, `screen`, the size of the bounds, on a vertical rail through the bounds' center (it
/// never turns or moves sideways); a floor `floorMargin` below the bottom edge that it bounces on
/// with `elasticity`; and gravity, off until `fall(up:magnitude:)` turns it on.
public final class LockScreenScene {
  public let animator: DynamicAnimator
  public let screen: DynamicItem
  /// The screen's material (its elasticity, no rotation): velocities are handed over through it.
  public let material: DynamicItemBehavior
  public let gravity: GravityBehavior

  /// The seed's gravity when it falls (4 = 4000 pt/s²).
  public static let fallMagnitude = 4.0
  /// The bounce, as the open-source recreations have it.
  public static let elasticity = 0.4
  /// The floor's distance below the bottom edge (pt).
  public static let floorMargin = 1.0

  /// The screen in `bounds`, its center `pull` points above the bounds' center.
  public init(
    bounds: Rect, elasticity: Double = LockScreenScene.elasticity,
    floorMargin: Double = LockScreenScene.floorMargin, pull: Double = 0
  ) throws {
    animator = DynamicAnimator(referenceBounds: bounds)
    screen = try DynamicItem(
      identifier: "screen", center: Point(x: bounds.center.x, y: bounds.center.y - pull),
      size: bounds.size)
    material = DynamicItemBehavior(items: [screen])
    material.elasticity = elasticity
    material.allowsRotation = false
    let floor = CollisionBehavior(items: [screen])
    floor.collisionMode = .boundaries
    let y = bounds.maxY + floorMargin
    try floor.addBoundary(
      identifier: "floor", from: Point(x: bounds.minX, y: y), to: Point(x: bounds.maxX, y: y))
    let rail = try AttachmentBehavior.sliding(
      item: screen, anchor: bounds.center, axis: Vector(dx: 0, dy: 1))
    gravity = GravityBehavior()
    gravity.addItem(screen)
    gravity.setMagnitude(0)
    for b in [material, floor, rail, gravity] as [DynamicBehavior] { animator.addBehavior(b) }
  }

  /// Turns gravity on at `magnitude` (× 1000 pt/s²): up, thrown off the top (it opens), or
  /// down onto the floor (it closes).
  public func fall(up: Bool, magnitude: Double) {
    gravity.gravityDirection = Vector(dx: 0, dy: up ? -magnitude : magnitude)
  }
}
