import Dynamics
import Primitives

/// The snap example of seed 000: a 95×47 "Snappy!" label snaps to each tap with the damping of
/// a slider (0.5 by default), replacing the previous snap.
public final class SnapScene {
  public let animator: DynamicAnimator
  public let label: DynamicItem
  private var snap: SnapBehavior?
  public var damping = 0.5

  public init() {
    animator = DynamicAnimator(referenceBounds: Scenes.screen)
    label = Scenes.item("label", frame: 112, 80, 95, 47)
  }

  public func tap(_ point: Point) {
    if let snap { animator.removeBehavior(snap) }
    let s = SnapBehavior(item: label, snapTo: point)
    s.damping = damping
    animator.addBehavior(s)
    snap = s
  }
}
