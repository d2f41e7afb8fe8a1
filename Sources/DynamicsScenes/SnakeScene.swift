import Dynamics
import Primitives

/// The spring snake of seed 000 (BepBop's BEPDynamicsSpringViewController), defined once for the
/// `snake` transition, the tour, the tests and dynbench: an orange 60×60 block that never
/// rotates, and four 60×20 blocks chained by rigid item-to-item attachments at (+25, 0) →
/// (−25, 0), the green tail light and easy to spin. All collide with each other and the edges of
/// the bounds. The seed drags the orange block by a spring (damping 0.4, frequency 1.5).
public final class SnakeScene {
  public let animator: DynamicAnimator
  public let orange: DynamicItem
  public let blocks: [DynamicItem]
  /// The orange block's material (no rotation): velocities are handed over through it.
  public let upright: DynamicItemBehavior
  private var drag: AttachmentBehavior?
  /// The drag spring's constants in the seed.
  public static let dragDamping = 0.4
  public static let dragFrequency = 1.5
  /// The green tail's density and (angular) resistance in the seed.
  public static let tailDensity = 0.1
  public static let tailResistance = 0.1

  /// The seed's snake on its 320×568 screen.
  public convenience init() {
    // Literal, valid geometry: cannot throw.
    try! self.init(bounds: Scenes.screen)
  }

  /// The snake laid out in `bounds` where the seed has it on its 320×568 screen, relative to the
  /// bounds (the chain centered, its blocks their seed's size and spacing). `resistance` slows
  /// the orange and blue blocks, moving and turning (1/s; 0 is the seed, whose snake drifts for
  /// ever).
  public init(
    bounds: Rect, resistance: Double = 0, tailDensity: Double = SnakeScene.tailDensity,
    tailResistance: Double = SnakeScene.tailResistance
  ) throws {
    animator = DynamicAnimator(referenceBounds: bounds)
    let middle = bounds.minX + bounds.size.width * 160 / 320
    orange = try DynamicItem(
      identifier: "orange",
      center: Point(x: middle, y: bounds.minY + bounds.size.height * 410 / 568),
      size: Size(width: 60, height: 60))
    let chainY = bounds.minY + bounds.size.height * 237 / 568
    blocks = try [("blue1", -102.0), ("blue2", -34), ("blue3", 34), ("green", 102)].map {
      try DynamicItem(
        identifier: $0.0, center: Point(x: middle + $0.1, y: chainY),
        size: Size(width: 60, height: 20))
    }
    upright = DynamicItemBehavior(items: [orange])
    upright.allowsRotation = false
    upright.resistance = resistance
    animator.addBehavior(upright)
    let body = DynamicItemBehavior(items: Array(blocks.dropLast()))
    body.resistance = resistance
    body.angularResistance = resistance
    animator.addBehavior(body)
    for (a, b) in zip(blocks, blocks.dropFirst()) {
      animator.addBehavior(
        try AttachmentBehavior(
          item: a, offsetFromCenter: Vector(dx: 25, dy: 0), attachedTo: b,
          offsetFromCenter: Vector(dx: -25, dy: 0)))
    }
    let tail = DynamicItemBehavior(items: [blocks[3]])
    tail.density = tailDensity
    tail.resistance = tailResistance
    tail.angularResistance = tailResistance
    animator.addBehavior(tail)
    let collision = CollisionBehavior(items: [orange] + blocks)
    try collision.setTranslatesReferenceBoundsIntoBoundary(true)
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
