import Primitives
import Testing

@testable import Dynamics

/// A rigid attachment of length 0 to an anchor holds the item's point on the anchor (a finger's
/// grip), and rigid anchors glide; these are the cases a hostile review found.
@Suite("Grip and gliding anchors")
struct GripTests {
  /// An item of `size` gripped at `offset` from its center, in an animator of its own.
  func gripped(size: Size = Size(width: 100, height: 60), offset: Vector, resistance: Double = 0)
    throws -> (DynamicAnimator, DynamicItem, AttachmentBehavior)
  {
    let animator = DynamicAnimator()
    let item = try DynamicItem(identifier: "a", center: Point(x: 160, y: 300), size: size)
    let material = DynamicItemBehavior(items: [item])
    material.resistance = resistance
    animator.addBehavior(material)
    let grip = try AttachmentBehavior(
      item: item, offsetFromCenter: offset, attachedToAnchor: item.center + offset)
    grip.length = 0
    animator.addBehavior(grip)
    return (animator, item, grip)
  }

  func gap(_ item: DynamicItem, _ grip: AttachmentBehavior) -> Double {
    (item.center + grip.offset.rotated(by: item.angle) - grip.anchorPoint).length
  }

  /// Resistance damps the velocity before the body moves; the grip asks for that much more.
  @Test(arguments: [1.0, 5, 50])
  func aGripTracksThroughResistance(resistance: Double) throws {
    let (animator, item, grip) = try gripped(offset: .zero, resistance: resistance)
    for i in 1...6 {
      grip.anchorPoint = Point(x: 160 + 5000 * Double(i) / 60, y: 300)
      animator.step(1.0 / 60)
      #expect(gap(item, grip) < 0.01, "resistance \(resistance), frame \(i): \(gap(item, grip))")
    }
  }

  /// A small item held by its corner and pulled fast would turn faster than Box2D allows (π/2
  /// per step); the grip keeps under that limit and still lands the point on the finger.
  @Test(arguments: [5000.0, 10_000])
  func aCornerGripOnASmallItemStaysUnderTheFinger(speed: Double) throws {
    let (animator, item, grip) = try gripped(
      size: Size(width: 40, height: 40), offset: Vector(dx: 18, dy: 18))
    let start = grip.anchorPoint
    for i in 1...6 {
      grip.anchorPoint = start + Vector(dx: speed * Double(i) / 60, dy: 0)
      animator.step(1.0 / 60)
      #expect(gap(item, grip) < 1, "frame \(i): \(gap(item, grip)) pt")
    }
  }

  /// Far from the origin float32 positions are coarse; a held item still comes to rest.
  @Test func aHeldItemFarAwayComesToRest() throws {
    let animator = DynamicAnimator()
    let item = try DynamicItem(
      identifier: "a", center: Point(x: 999_000, y: 5e5), size: Size(width: 50, height: 50))
    let material = DynamicItemBehavior(items: [item])
    material.resistance = 5
    animator.addBehavior(material)
    let grip = try AttachmentBehavior(item: item, attachedToAnchor: item.center)
    grip.length = 0
    animator.addBehavior(grip)
    grip.anchorPoint = item.center + Vector(dx: 30, dy: 0)
    for _ in 0..<180 { animator.step(1.0 / 60) }
    #expect(!animator.isRunning, "still running at \(item.velocity)")
  }

  /// A spring made rigid after it has stepped glides; a rigid one made a spring settles; a rod
  /// made length 0 becomes a grip. (Each once kept the Box2D side it was built with.)
  @Test func changingFrequencyOrLengthRebuildsTheAttachment() throws {
    let animator = DynamicAnimator()
    let item = try DynamicItem(
      identifier: "a", center: Point(x: 160, y: 300), size: Size(width: 20, height: 20))
    let attachment = try AttachmentBehavior(item: item, attachedToAnchor: Point(x: 160, y: 200))
    attachment.frequency = 3
    attachment.damping = 1
    animator.addBehavior(attachment)
    for _ in 0..<60 { animator.step(1.0 / 60) }
    attachment.frequency = 0
    for i in 1...30 {
      attachment.anchorPoint = Point(x: 160 + 20 * Double(i), y: 200)
      animator.step(1.0 / 60)
    }
    #expect(item.center.x > 700, "the rigid rod pulled it along: \(item.center)")

    attachment.frequency = 0
    attachment.length = 0
    #expect(attachment.holdsPointOnAnchor)
    attachment.anchorPoint = Point(x: 300, y: 100)
    // ≈ 500 pt away: the speed limit (200 pt per step) makes that a few steps.
    for _ in 0..<3 { animator.step(1.0 / 60) }
    #expect((item.center - attachment.anchorPoint).length < 0.01, "a grip: \(item.center)")
  }

  /// The review's reproducer: a rigid attachment stepped, then made a spring while its anchor
  /// moves far: pulled straight along the spring, the item settles (it orbited for ever when
  /// the rod's stale gliding anchor swung it sideways).
  @Test func aRigidAttachmentMadeASpringSettles() throws {
    let animator = DynamicAnimator()
    let item = try DynamicItem(
      identifier: "a", center: Point(x: 160, y: 300), size: Size(width: 20, height: 20))
    let attachment = try AttachmentBehavior(item: item, attachedToAnchor: Point(x: 160, y: 200))
    animator.addBehavior(attachment)
    for _ in 0..<10 { animator.step(1.0 / 60) }
    attachment.frequency = 2
    attachment.damping = 1
    attachment.anchorPoint = Point(x: 760, y: 200)
    for _ in 0..<600 { animator.step(1.0 / 60) }
    #expect(!animator.isRunning, "the spring settled: \(item.velocity) \(item.center)")
  }
}
