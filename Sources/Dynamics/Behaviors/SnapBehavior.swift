import Primitives

/// Springs an item to a point and its rotation to 0 (UISnapBehavior).
///
/// Built, as in UIKit, from springs to a static anchor: two soft point constraints at ± the
/// item's radius of gyration, so position and rotation settle together at the same rate.
/// `damping` runs from 0 (most oscillation) to 1 (least), the iOS 9+ meaning; it maps linearly to
/// a damping ratio of 0.1…1 on springs of `frequency` Hz.
public final class SnapBehavior: DynamicBehavior {
  /// The spring frequency UIKit keeps private; 3 Hz settles a snap in about half a second.
  public static let frequency = 3.0
  /// Damping ratio at damping 0: still oscillating, but settling within a few seconds.
  public static let minimumDampingRatio = 0.1

  public let item: DynamicItem
  private var joints: [JointHandle] = []

  /// Where the item's center is driven.
  public var snapPoint: Point {
    didSet {
      if !snapPoint.isFinite { snapPoint = oldValue }
      retarget()
    }
  }
  /// 0…1, default 0.5; out-of-range values are clamped, non-finite ones ignored.
  public var damping = 0.5 {
    didSet {
      let range = PropertyRanges.snapDamping
      damping = damping.isFinite ? min(max(damping, range.lowerBound), range.upperBound) : oldValue
      retarget()
    }
  }

  public init(item: DynamicItem, snapTo point: Point) {
    self.item = item
    self.snapPoint = point.isFinite ? point : item.center
    super.init()
  }

  var dampingRatio: Double { Self.minimumDampingRatio + (1 - Self.minimumDampingRatio) * damping }

  // Two springs share the work: each gets half the stiffness and damping, which is the
  // frequency and ratio divided by √2 (k = mω², c = 2mζω).
  private var springFrequency: Double { Self.frequency / 2.0.squareRoot() }
  private var springRatio: Double { dampingRatio / 2.0.squareRoot() }

  override var behaviorItems: [DynamicItem] { [item] }
  override var dependsOnMass: Bool { true }

  /// The two points on the item the springs hold, in the item's frame.
  private func grips(_ body: ItemBody) -> [Vector] {
    let r = body.radiusOfGyration
    return [Vector(dx: -r, dy: 0), Vector(dx: r, dy: 0)]
  }

  /// Spring force cap: 100 000 pt/s² for the item, far above any UI motion.
  private func maxForce(_ body: ItemBody) -> Double { body.mass * 1000 }

  override func attachPhysics(_ animator: DynamicAnimator) throws {
    guard let body = animator.body(for: item), body.isDynamic else { return }
    let ground = animator.groundBody
    for grip in grips(body) {
      let j = try animator.world.createMouse(
        ground: ground, body: body.handle, grab: body.worldPoint(offset: grip),
        frequency: springFrequency, dampingRatio: springRatio, maxForce: maxForce(body))
      joints.append(j)
    }
    retarget()
  }

  override func detachPhysics(_ animator: DynamicAnimator) {
    for j in joints { animator.world.destroyJoint(j) }
    joints = []
  }

  private func retarget() {
    guard let animator = dynamicAnimator, let body = animator.body(for: item), !joints.isEmpty
    else {
      parameterDidChange()
      return
    }
    for (joint, grip) in zip(joints, grips(body)) {
      animator.world.setMouse(
        joint, target: snapPoint + grip, frequency: springFrequency, dampingRatio: springRatio,
        maxForce: maxForce(body))
    }
    parameterDidChange()
  }
}
