import Dynamics
import Primitives

/// Scenes built with the Swift API, shared by the tests, the tour, the benchmark and the
/// transitions that start from the same scene.
///
/// Geometry follows the seeds: the 320×568 iPhone 5 screen and the storyboard frames of the
/// BepBop examples (seed 000).
public enum Scenes {
  /// The iPhone 5 screen the seeds were written for.
  public static let screen = Rect(x: 0, y: 0, width: 320, height: 568)

  /// `count` items of mixed shapes in rows, falling into the screen under gravity with
  /// elasticity 0.3 and friction 0.2, one of them on a spring and one snapping to the middle.
  public static func pile(count: Int) -> (animator: DynamicAnimator, items: [DynamicItem]) {
    let animator = DynamicAnimator(referenceBounds: screen)
    let columns = 4
    let side = count <= 16 ? 36.0 : 18.0
    let pitch = (screen.size.width - 20) / Double(columns * (count <= 16 ? 1 : 2))
    let perRow = count <= 16 ? columns : columns * 2
    var items: [DynamicItem] = []
    for i in 0..<count {
      let shape: CollisionShape =
        i % 3 == 0
        ? .rectangle
        : i % 3 == 1
          ? .ellipse
          : .path([
            Point(x: -side * 0.42, y: -side * 0.33), Point(x: side * 0.42, y: -side * 0.4),
            Point(x: side * 0.5, y: side * 0.27), Point(x: -side * 0.33, y: side * 0.47),
          ])
      let x = 10 + pitch / 2 + Double(i % perRow) * pitch
      let y = 60 + Double(i / perRow) * (side * 1.9)
      let it = try! DynamicItem(
        identifier: "i\(i)", center: Point(x: x, y: y),
        size: Size(width: side, height: side * 0.84), angle: Double(i) * 0.1, shape: shape)
      items.append(it)
    }
    animator.addBehavior(GravityBehavior(items: items))
    let collision = CollisionBehavior(items: items)
    try! collision.setTranslatesReferenceBoundsIntoBoundary(true)
    animator.addBehavior(collision)
    let material = DynamicItemBehavior(items: items)
    material.elasticity = 0.3
    material.friction = 0.2
    animator.addBehavior(material)
    if count > 5 {
      let spring = try! AttachmentBehavior(item: items[0], attachedToAnchor: Point(x: 60, y: 40))
      spring.frequency = 2
      spring.damping = 0.3
      animator.addBehavior(spring)
      animator.addBehavior(SnapBehavior(item: items[5], snapTo: Point(x: 200, y: 200)))
    }
    return (animator, items)
  }
}
