import Dynamics
import Primitives

/// The closing drop of the iOS 7 lock screen (protocol/PROTOCOL.md, “lock-screen”; seeds
/// 000/001/004: docs/TRANSITIONS.md, “The seeds”): the `LockScreenScene` pulled up by `pull`
/// points and released: it falls under gravity 4 (4000 pt/s²) onto the floor 1 pt below the
/// bottom edge, bouncing with elasticity 0.4.
public struct LockScreenDrop {
  public let scene: LockScreenScene
  public var animator: DynamicAnimator { scene.animator }
  public var screen: DynamicItem { scene.screen }
  /// Gravity magnitude of the close (4 = 4000 pt/s²).
  public static let gravity = LockScreenScene.fallMagnitude
  /// Elasticity of the bounce, as the open-source recreations use.
  public static let elasticity = LockScreenScene.elasticity

  public init(pull: Double, releaseVelocity: Double = 0, bounds: Rect = Scenes.screen) {
    // Valid geometry for any bounds an item can have: cannot throw.
    scene = try! LockScreenScene(bounds: bounds, elasticity: Self.elasticity, pull: pull)
    scene.fall(up: false, magnitude: Self.gravity)
    scene.material.addLinearVelocity(Vector(dx: 0, dy: releaseVelocity), for: scene.screen)
  }
}
