import Dynamics
import Primitives

/// The snap example of seed 000, defined once for the `snap` transition, the tour, the tests and
/// dynbench: a 95×47 "Snappy!" label snaps to each tap with the damping of a slider (0.5 by
/// default), replacing the previous snap.
public final class SnapScene {
  public let animator: DynamicAnimator
  public let label: DynamicItem
  private var snap: SnapBehavior?
  public var damping = SnapScene.defaultDamping

  /// The slider's default damping (UISnapBehavior's).
  public static let defaultDamping = 0.5
  /// The label's size in the storyboard.
  public static let labelSize = Size(width: 95, height: 47)

  /// The seed's label on its 320×568 screen.
  public convenience init() {
    // Literal, valid geometry: cannot throw.
    try! self.init(bounds: Scenes.screen)
  }

  /// The label near the storyboard's frame (112, 80): its top 80 pt below the top of `bounds`,
  /// centered across them (x = 160 on the seed's 320 pt screen).
  public init(bounds: Rect, labelSize: Size = SnapScene.labelSize) throws {
    animator = DynamicAnimator(referenceBounds: bounds)
    label = try DynamicItem(
      identifier: "label",
      center: Point(
        x: bounds.minX + bounds.size.width * 160 / 320, y: bounds.minY + 80 + labelSize.height / 2),
      size: labelSize)
  }

  /// Snaps the label to `point`, replacing the previous snap.
  public func tap(_ point: Point) {
    if let snap { animator.removeBehavior(snap) }
    let s = SnapBehavior(item: label, snapTo: point)
    s.damping = damping
    animator.addBehavior(s)
    snap = s
  }
}
