import Dynamics
import Primitives

/// The spring snake of seed 000 (BepBop's BEPDynamicsSpringViewController): an orange block that
/// never rotates, dragged by a spring (damping 0.4, frequency 1.5), and four 60×20 blocks chained
/// by rigid item-to-item attachments, the green tail light and easy to spin. All collide with
/// each other and the screen edges.
public final class SnakeScene {
  public let animator: DynamicAnimator
  public let orange: DynamicItem
  public let blocks: [DynamicItem]
  private var drag: AttachmentBehavior?
  /// The drag spring's constants in the seed.
  public static let dragDamping = 0.4
  public static let dragFrequency = 1.5

  public init() {
    animator = DynamicAnimator(referenceBounds: Scenes.screen)
    orange = Scenes.item("orange", frame: 130, 380, 60, 60)
    blocks = [("blue1", 28.0), ("blue2", 96), ("blue3", 164), ("green", 232)].map {
      Scenes.item($0.0, frame: $0.1, 227, 60, 20)
    }
    let upright = DynamicItemBehavior(items: [orange])
    upright.allowsRotation = false
    animator.addBehavior(upright)
    for (a, b) in zip(blocks, blocks.dropFirst()) {
      animator.addBehavior(
        try! AttachmentBehavior(
          item: a, offsetFromCenter: Vector(dx: 25, dy: 0), attachedTo: b,
          offsetFromCenter: Vector(dx: -25, dy: 0)))
    }
    let tail = DynamicItemBehavior(items: [blocks[3]])
    tail.density = 0.1
    tail.resistance = 0.1
    tail.angularResistance = 0.1
    animator.addBehavior(tail)
    let collision = CollisionBehavior(items: [orange] + blocks)
    try! collision.setTranslatesReferenceBoundsIntoBoundary(true)
    animator.addBehavior(collision)
  }

  /// A finger lands on the orange block at `point` (relative offset kept), or moves there.
  public func drag(to point: Point) {
    if let drag {
      drag.anchorPoint = point
      return
    }
    let offset = point - orange.center
    let spring = try! AttachmentBehavior(
      item: orange, offsetFromCenter: offset, attachedToAnchor: point)
    spring.damping = Self.dragDamping
    spring.frequency = Self.dragFrequency
    animator.addBehavior(spring)
    drag = spring
  }

  /// The finger lifts: the spring goes and the snake runs free.
  public func release() {
    if let drag { animator.removeBehavior(drag) }
    drag = nil
  }
}
