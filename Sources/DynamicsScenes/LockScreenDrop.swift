import Dynamics
import Primitives

/// The closing drop of the iOS 7 lock screen (TRANSITIONS.md `lock-screen`, seeds 000/001/004):
/// a full-screen item pulled up by `pull` points and released falls under gravity 4
/// (4000 pt/s²) onto a floor 1 pt below the bottom edge, bouncing with elasticity 0.4.
public struct LockScreenDrop {
  public let animator: DynamicAnimator
  public let screen: DynamicItem
  /// Gravity magnitude of the close (4 = 4000 pt/s²).
  public static let gravity = 4.0
  /// Elasticity of the bounce, as the open-source recreations use.
  public static let elasticity = 0.4

  public init(pull: Double, releaseVelocity: Double = 0, bounds: Rect = Scenes.screen) {
    animator = DynamicAnimator(referenceBounds: bounds)
    screen = try! DynamicItem(
      identifier: "screen", center: Point(x: bounds.center.x, y: bounds.center.y - pull),
      size: bounds.size)
    let gravity = GravityBehavior(items: [screen])
    gravity.setMagnitude(Self.gravity)
    let floor = CollisionBehavior(items: [screen])
    try! floor.addBoundary(
      identifier: "floor", from: Point(x: bounds.minX, y: bounds.maxY + 1),
      to: Point(x: bounds.maxX, y: bounds.maxY + 1))
    let material = DynamicItemBehavior(items: [screen])
    material.elasticity = Self.elasticity
    material.allowsRotation = false
    // The screen only moves vertically: a sliding attachment along y through its center.
    let rail = try! AttachmentBehavior.sliding(
      item: screen, anchor: screen.center, axis: Vector(dx: 0, dy: 1))
    for b in [gravity, floor, material, rail] as [DynamicBehavior] { animator.addBehavior(b) }
    material.addLinearVelocity(Vector(dx: 0, dy: releaseVelocity), for: screen)
  }
}
