import CBox2D
import Primitives

/// Joins an item to an anchor point or to another item (UIAttachmentBehavior).
///
/// The default kind is a rigid rod of the distance between the attachment points at creation;
/// a `frequency` above 0 makes it a spring (Hz) with `damping` as its damping ratio (1 =
/// critical). The iOS 9 kinds: `sliding` (along an axis, no relative rotation, `attachmentRange`
/// limits the travel), `limit` (a rope: at most `length` apart), `fixed` (fused at the anchor) and
/// `pin` (hinged at the anchor, `frictionTorque` resists turning, `attachmentRange` limits the
/// angle). Attached items do not collide with each other.
///
/// Moving the anchor of a rigid attachment (frequency 0) moves the other end with it within the
/// frame: the anchor glides to its new point over the internal steps of the animator's next
/// `step(_:)` call, so the joint sees it move at its real speed rather than jump. A rigid
/// attachment of length 0 to an anchor is a finger's grip: the item's point is held on the
/// anchor (see `holdsPointOnAnchor`). A spring's anchor jumps, as UIKit's does.
public final class AttachmentBehavior: DynamicBehavior {
  public enum Kind: String, Sendable {
    case distance
    case sliding
    case limit
    case fixed
    case pin
  }

  /// What the first item is attached to.
  public enum Target {
    case anchor
    case item(DynamicItem, offset: Vector)
  }

  public let kind: Kind
  public let item: DynamicItem
  /// The attachment point on `item`, relative to its center, in its own frame.
  public let offset: Vector
  public let target: Target
  /// The sliding axis (sliding kind), in reference coordinates.
  public let axis: Vector

  /// The anchor point: the other end (anchor targets) or the joint point (sliding, fixed, pin).
  public var anchorPoint: Point {
    didSet {
      if !anchorPoint.isFinite { anchorPoint = oldValue }
      moveAnchor()
    }
  }
  /// Rest length in points (distance), or the most the items may be apart (limit).
  public var length: Double {
    didSet {
      length = length.isFinite ? max(0, length) : oldValue
      reconfigure()
    }
  }
  /// Damping ratio of the spring (0 = none, 1 = critical).
  public var damping: Double = 0 {
    didSet {
      damping = damping.isFinite ? max(0, damping) : oldValue
      reconfigure()
    }
  }
  /// Spring frequency in Hz; 0 (the default) is rigid.
  public var frequency: Double = 0 {
    didSet {
      frequency = frequency.isFinite ? max(0, frequency) : oldValue
      reconfigure()
    }
  }
  /// Torque resisting rotation about a pin (N·m at 100 pt per metre).
  public var frictionTorque: Double = 0 {
    didSet {
      frictionTorque = frictionTorque.isFinite ? max(0, frictionTorque) : oldValue
      structureDidChange()
    }
  }
  /// Travel along the axis (sliding, points) or rotation (pin, radians); infinite by default.
  public var attachmentRange = FloatRange.infinite {
    didSet {
      if attachmentRange.minimum.isNaN || attachmentRange.maximum.isNaN
        || attachmentRange.minimum > attachmentRange.maximum
      {
        attachmentRange = oldValue
      }
      structureDidChange()
    }
  }

  private var joint: JointHandle?
  private var anchorBody: BodyHandle?
  /// Where a gliding anchor is in the simulation; it reaches `anchorPoint` with the frame.
  private var glidePoint: Point?
  /// Where the glide was at the last internal step.
  private var glideTarget: Point?
  /// The item's body while this attachment grips it (`holdsPointOnAnchor`).
  private weak var grippedBody: ItemBody?

  /// A rigid attachment of length 0 to an anchor: a finger's grip. The item's point is put on
  /// the anchor at every internal step (`DynamicAnimator.drive`) instead of through a Box2D
  /// joint, which cannot have length 0 (it keeps ≥ 0.5 pt) and lets a moving anchor lead: the
  /// point is under the anchor at the end of each frame, the item moves with the anchor's
  /// velocity, and its contacts do not bounce while it is held.
  public var holdsPointOnAnchor: Bool {
    if case .anchor = target { return kind == .distance && frequency == 0 && length == 0 }
    return false
  }

  /// A rigid anchor attachment: its anchor glides to a new point rather than jumping.
  private var glides: Bool {
    if case .anchor = target { return frequency == 0 && kind == .distance }
    return false
  }

  /// How the Box2D side was built; a change of `frequency` or `length` that would build it
  /// another way rebuilds it.
  private enum Build: Equatable {
    case grip
    case glidingJoint
    case joint
  }
  private var built: Build?
  private var wanted: Build { holdsPointOnAnchor ? .grip : glides ? .glidingJoint : .joint }

  private init(
    kind: Kind, item: DynamicItem, offset: Vector, target: Target, anchor: Point,
    axis: Vector = Vector(dx: 1, dy: 0)
  ) throws {
    guard offset.isFinite, anchor.isFinite, axis.isFinite else {
      throw DynamicsError(.nonFinite, "attachment of '\(item.identifier)' has a non-finite value")
    }
    if case .item(let other, let otherOffset) = target {
      guard other !== item else {
        throw DynamicsError(.invalidReference, "an item cannot be attached to itself")
      }
      guard otherOffset.isFinite else {
        throw DynamicsError(.nonFinite, "attachment offset is not finite")
      }
    }
    if kind == .sliding, axis.length < 1e-9 {
      throw DynamicsError(.outOfRange, "a sliding attachment needs a non-zero axis")
    }
    self.kind = kind
    self.item = item
    self.offset = offset
    self.target = target
    self.anchorPoint = anchor
    self.axis = axis
    // UIKit sets the length from the distance between the attachment points at creation.
    let a = item.center + offset.rotated(by: item.angle)
    switch target {
    case .anchor: length = a.distance(to: anchor)
    case .item(let other, let o): length = a.distance(to: other.center + o.rotated(by: other.angle))
    }
    super.init()
  }

  /// A rigid attachment of the item's center (or `offset` from it) to an anchor point.
  public convenience init(
    item: DynamicItem, offsetFromCenter offset: Vector = .zero, attachedToAnchor anchor: Point
  )
    throws
  {
    try self.init(kind: .distance, item: item, offset: offset, target: .anchor, anchor: anchor)
  }

  /// A rigid attachment between two items (their centers, or points offset from them).
  public convenience init(
    item: DynamicItem, offsetFromCenter offset: Vector = .zero, attachedTo other: DynamicItem,
    offsetFromCenter otherOffset: Vector = .zero
  ) throws {
    try self.init(
      kind: .distance, item: item, offset: offset, target: .item(other, offset: otherOffset),
      anchor: other.center)
  }

  /// Two items sliding along `axis` through `anchor`, without turning relative to each other.
  public static func sliding(
    item: DynamicItem, attachedTo other: DynamicItem, anchor: Point, axis: Vector
  ) throws -> AttachmentBehavior {
    try AttachmentBehavior(
      kind: .sliding, item: item, offset: .zero, target: .item(other, offset: .zero),
      anchor: anchor, axis: axis)
  }

  /// An item sliding along `axis` through `anchor`, without turning.
  public static func sliding(item: DynamicItem, anchor: Point, axis: Vector) throws
    -> AttachmentBehavior
  {
    try AttachmentBehavior(
      kind: .sliding, item: item, offset: .zero, target: .anchor, anchor: anchor, axis: axis)
  }

  /// A rope: the points may come closer but never further apart than their distance now.
  public static func limit(
    item: DynamicItem, offsetFromCenter offset: Vector = .zero, attachedTo other: DynamicItem,
    offsetFromCenter otherOffset: Vector = .zero
  ) throws -> AttachmentBehavior {
    try AttachmentBehavior(
      kind: .limit, item: item, offset: offset, target: .item(other, offset: otherOffset),
      anchor: other.center)
  }

  /// Fuses two items at `anchor`.
  public static func fixed(item: DynamicItem, attachedTo other: DynamicItem, anchor: Point) throws
    -> AttachmentBehavior
  {
    try AttachmentBehavior(
      kind: .fixed, item: item, offset: .zero, target: .item(other, offset: .zero), anchor: anchor)
  }

  /// Hinges two items at `anchor`.
  public static func pin(item: DynamicItem, attachedTo other: DynamicItem, anchor: Point) throws
    -> AttachmentBehavior
  {
    try AttachmentBehavior(
      kind: .pin, item: item, offset: .zero, target: .item(other, offset: .zero), anchor: anchor)
  }

  /// The attached items: one for anchor attachments, two for item attachments.
  public var items: [DynamicItem] {
    if case .item(let other, _) = target { return [item, other] }
    return [item]
  }

  // MARK: physics

  override var behaviorItems: [DynamicItem] { items }
  override var dependsOnMass: Bool { frequency > 0 }

  /// Lengths and spring of the distance joint for the distance and limit kinds.
  private var distanceSpec: DistanceSpec {
    if kind == .limit {
      return DistanceSpec(
        length: length, minLength: 0, maxLength: length, frequency: 0, dampingRatio: 0)
    }
    if frequency > 0 {
      return DistanceSpec(
        length: length, minLength: 0, maxLength: 1e7, frequency: frequency,
        dampingRatio: damping)
    }
    return DistanceSpec(
      length: length, minLength: length, maxLength: length, frequency: 0, dampingRatio: 0)
  }

  override func attachPhysics(_ animator: DynamicAnimator) throws {
    guard let bodyA = animator.body(for: item) else { return }
    let world = animator.world
    built = wanted
    glidePoint = glides ? anchorPoint : nil
    if holdsPointOnAnchor {
      bodyA.grips += 1
      grippedBody = bodyA
      return
    }
    let otherHandle: BodyHandle
    let otherPoint: Point
    switch target {
    case .anchor:
      let anchor = try world.createBody(
        glides ? CBOX2D_BODY_KINEMATIC : CBOX2D_BODY_STATIC, center: anchorPoint, angle: 0)
      anchorBody = anchor
      otherHandle = anchor
      otherPoint = anchorPoint
    case .item(let other, let otherOffset):
      guard let bodyB = animator.body(for: other) else { return }
      otherHandle = bodyB.handle
      otherPoint = bodyB.worldPoint(offset: otherOffset)
    }
    switch kind {
    case .distance, .limit:
      joint = try world.createDistance(
        bodyA.handle, otherHandle, anchorA: bodyA.worldPoint(offset: offset),
        anchorB: otherPoint, spec: distanceSpec)
    case .sliding:
      // The other end first: Box2D measures travel and angle of its second body relative to
      // its first, and keeps the axis fixed in the first.
      joint = try world.createPrismatic(
        otherHandle, bodyA.handle, anchor: anchorPoint, axis: axis, range: attachmentRange)
    case .fixed:
      joint = try world.createWeld(bodyA.handle, otherHandle, anchor: anchorPoint)
    case .pin:
      joint = try world.createRevolute(
        otherHandle, bodyA.handle, anchor: anchorPoint, frictionTorque: frictionTorque,
        range: attachmentRange)
    }
  }

  override func detachPhysics(_ animator: DynamicAnimator) {
    if let j = joint { animator.world.destroyJoint(j) }
    if let a = anchorBody { animator.world.destroyBody(a) }
    if let body = grippedBody { body.grips -= 1 }
    joint = nil
    anchorBody = nil
    grippedBody = nil
    glidePoint = nil
    glideTarget = nil
    built = nil
  }

  /// A gliding anchor moves the animator's `glideFraction` of the way left to its point (it
  /// arrives at the frame's time); a grip then drives the item's point onto it, a rigid joint's
  /// kinematic anchor body moves there at the matching velocity.
  override func prepareStep(_ animator: DynamicAnimator) {
    guard let from = glidePoint else { return }
    let to = from + (anchorPoint - from) * animator.glideFraction
    glidePoint = to
    glideTarget = to
    if let body = grippedBody {
      animator.drive(body, offset: offset, to: to)
    } else if let anchor = anchorBody {
      let at = animator.world.state(anchor).center
      animator.world.setVelocity(
        anchor, (to - at) * (1 / DynamicAnimator.stepInterval), angular: 0)
    }
  }

  /// A glide is at its point at the frame's time: it goes on from there. A gripped item shows
  /// its held point there when it reached the glide's point at the last step (nothing stopped
  /// it), or when the grip has not been stepped yet; an item on a rigid rod to a gliding anchor
  /// shows its point at the rod's length from it, as the joint holds it at every step.
  override func showFrameState(_ animator: DynamicAnimator, lead: Double) {
    guard glidePoint != nil else { return }
    glidePoint = anchorPoint
    if let body = grippedBody, body.isDynamic {
      let reached = glideTarget.map {
        (body.worldPoint(offset: offset) - $0).length <= Self.reachedTolerance
      }
      guard reached ?? true else { return }
      var shown = body.shownState
      shown.center = shown.center + (anchorPoint - shownPoint(shown))
      body.showBetweenSteps(shown, lead: lead)
    } else if physicsAttached, let body = animator.body(for: item), body.isDynamic,
      body.state.isAwake
    {
      var shown = body.shownState
      let rod = shownPoint(shown) - anchorPoint
      guard rod.length > 0 else { return }
      shown.center = shown.center + rod * (length / rod.length - 1)
      body.showBetweenSteps(shown, lead: lead)
    }
  }

  /// Where the attached point of the item is in `shown`, the state of its body.
  private func shownPoint(_ shown: BodyState) -> Point {
    shown.center + offset.rotated(by: shown.angle)
  }

  /// How near its glide's point a gripped point must be to count as having reached it (pt).
  static let reachedTolerance = 0.01

  private func moveAnchor() {
    if built == .grip || built == .glidingJoint, dynamicAnimator != nil {
      parameterDidChange()  // it glides there during the next step call
    } else if case .anchor = target, let animator = dynamicAnimator, let body = anchorBody {
      animator.world.setTransform(body, center: anchorPoint, angle: 0)
      parameterDidChange()
    } else {
      // Item attachments use the anchor only when the joint is made.
      structureDidChange()
    }
  }

  private func reconfigure() {
    if built != nil, built != wanted {
      structureDidChange()  // a spring became rigid, a rod became a grip, or back
    } else if built == .grip {
      parameterDidChange()
    } else if let animator = dynamicAnimator, let j = joint, kind == .distance || kind == .limit {
      animator.world.setDistance(j, distanceSpec)
      parameterDidChange()
    } else {
      structureDidChange()
    }
  }
}
