import CBox2D
import Primitives

/// An item's Box2D body while the item is part of an animator.
final class ItemBody {
  let item: DynamicItem
  let handle: BodyHandle
  /// The state read after the last step (or set by the animator since).
  var state: BodyState
  /// The item properties currently applied to the body.
  private(set) var properties = ItemProperties.defaults
  private(set) var itemGroups: [UInt32] = []
  private(set) var boundaryGroups: [UInt32] = []
  /// Mass in kg from the item's density and bounds (Units.mass).
  private(set) var mass: Double
  /// Centre of mass relative to the item's center, in the item's frame (pt).
  let massCenter: Point
  /// Rotational inertia about the centre of mass per kg (pt²), from the shape.
  let inertiaPerMass: Double

  var isDynamic: Bool { !properties.anchored }
  var allowsRotation: Bool { properties.allowsRotation }
  /// How many finger grips (zero-length rigid anchor attachments) hold the item now.
  var grips = 0 {
    didSet { if (grips > 0) != (oldValue > 0) { world?.setHeld(handle, grips > 0) } }
  }
  private weak var world: PhysicsWorld?
  /// The spring or decay whose closed form moves the item (`DynamicAnimator.prepare`: the last
  /// one in the tree holding it, none while a finger grips it), if any. An identifier, not a
  /// reference (no reference counting at every step): the animator resolves it again whenever
  /// the tree changes, so it never outlives its behavior's place in the tree.
  var motionOwner: ObjectIdentifier?
  /// Whether the body is kinematic for its motion owner: it then moves only with the velocity
  /// the owner gives it, and no force, impulse, joint or contact moves it.
  private(set) var followsMotion = false
  /// True while the owner's motion has not ended: the animator does not pause (`RestRule`).
  var motionInFlight = false
  /// The exact state the motion owner puts the body in at the end of the coming step, which the
  /// animator reads back instead of Box2D's 32-bit one.
  var followedState: (center: Point, velocity: Vector)?

  /// Creates the body and the fixtures of the item's shape, with default properties.
  init(item: DynamicItem, world: PhysicsWorld) throws {
    self.item = item
    self.world = world
    massCenter = item.massModel.center
    inertiaPerMass = item.massModel.inertiaPerMass
    mass = item.massModel.mass(density: ItemProperties.defaults.density, size: item.size)
    handle = try world.createBody(CBOX2D_BODY_DYNAMIC, center: item.center, angle: item.angle)
    state = BodyState(
      center: item.center, angle: item.angle, velocity: .zero, angularVelocity: 0, isAwake: true)
    state.pose = world.state(handle).pose
    do {
      try Self.addFixtures(for: item, to: handle, in: world)
      try world.setMass(handle, mass: mass, center: massCenter, inertia: mass * inertiaPerMass)
      world.setCollisionGroups(handle, items: [], boundaries: [])
    } catch {
      world.destroyBody(handle)
      throw error
    }
  }

  /// Where a point given relative to the item's center (in the item's frame) is now.
  func worldPoint(offset: Vector) -> Point { state.center + offset.rotated(by: state.angle) }

  var worldCenterOfMass: Point {
    worldPoint(offset: Vector(dx: massCenter.x, dy: massCenter.y))
  }

  /// Radius of gyration (pt): springs this far from the center pull rotation as hard as position.
  var radiusOfGyration: Double { inertiaPerMass.squareRoot() }

  /// Writes the body's state into its item and, for a group, into every member: its place at its
  /// offset, its angle, the velocity of that point of the body (v + ω × r, r from the centre of
  /// mass) and the body's angular velocity.
  func publish() { show(state) }

  /// Writes the body's state into a group's members (nothing for a plain item).
  func publishMembers() { showMembers(state) }

  /// What the item shows at a frame's time between two internal steps, `shownLead` seconds after
  /// the last (nil when it shows the last step's state; `FrameState.swift`).
  private(set) var shownBetweenSteps: BodyState?
  private(set) var shownLead = 0.0

  /// Whether the body is waiting for the next frame to be put in the state given it between
  /// two steps again (`DynamicAnimator.rebaseGiven`).
  var awaitsRebase = false

  /// Whether the item shows the state at the frame `lead` seconds after the last step.
  func isShown(lead: Double) -> Bool { shownBetweenSteps != nil && shownLead == lead }

  /// The body's state was written at the last step's time (a velocity given during a step):
  /// what was shown between steps no longer follows from it.
  func forgetShown() { shownBetweenSteps = nil }

  /// Shows `shown`, the state `lead` seconds after the last step (a frame's time between two).
  func showBetweenSteps(_ shown: BodyState, lead: Double) {
    shownBetweenSteps = shown
    shownLead = lead
    show(shown)
  }

  /// The state the item shows: between two steps, at the frame's time; else the body's.
  var shownState: BodyState { shownBetweenSteps ?? state }

  /// Writes `shown` into the item (and a group's members), leaving the body's own state as it is.
  func show(_ shown: BodyState) {
    item.center = shown.center
    item.angle = shown.angle
    item.velocity = shown.velocity
    item.angularVelocity = shown.angularVelocity
    showMembers(shown)
  }

  private func showMembers(_ shown: BodyState) {
    guard item.isGroup else { return }
    let w = shown.angularVelocity
    let massPoint =
      shown.center + Vector(dx: massCenter.x, dy: massCenter.y).rotated(by: shown.angle)
    for member in item.members {
      let p = shown.center + member.offset.rotated(by: shown.angle)
      let r = p - massPoint
      member.item.center = p
      member.item.angle = shown.angle + member.angle
      member.item.velocity = shown.velocity + Vector(dx: -w * r.dy, dy: w * r.dx)
      member.item.angularVelocity = w
    }
  }

  /// How the velocity changed over the last internal step and the one before it (pt/s, rad/s),
  /// for the state between steps (`DynamicAnimator.showFrameState`).
  private(set) var velocityChange: (last: Vector, before: Vector) = (.zero, .zero)
  private(set) var angularVelocityChange: (last: Double, before: Double) = (0, 0)
  /// How many of the two changes above are known (0 before the body's first step).
  private(set) var changesRecorded = 0

  /// Notes the change of velocity the step that ends in `next` made, from the velocity the body
  /// went into it with (a velocity given before it included).
  func recordChange(to next: BodyState) {
    shownBetweenSteps = nil
    changesRecorded = min(changesRecorded + 1, 2)
    velocityChange = (next.velocity - state.velocity, velocityChange.last)
    angularVelocityChange = (
      next.angularVelocity - state.angularVelocity, angularVelocityChange.last
    )
  }

  /// Applies properties that differ from the ones in force; returns true if the mass changed.
  @discardableResult
  func apply(_ new: ItemProperties, in world: PhysicsWorld) -> Bool {
    let old = properties
    properties = new
    if new.friction != old.friction || new.elasticity != old.elasticity {
      world.setMaterial(handle, friction: new.friction, restitution: new.elasticity)
    }
    if new.resistance != old.resistance || new.angularResistance != old.angularResistance {
      world.setDamping(handle, linear: new.resistance, angular: new.angularResistance)
    }
    if new.allowsRotation != old.allowsRotation {
      world.setFixedRotation(handle, !new.allowsRotation)
    }
    if new.anchored != old.anchored {
      world.setType(handle, new.anchored ? CBOX2D_BODY_STATIC : unanchoredType)
      if !new.anchored { world.wake(handle) }
    }
    guard new.density != old.density else { return false }
    mass = item.massModel.mass(density: new.density, size: item.size)
    // The density was validated by DynamicItemBehavior, so the shim accepts this mass.
    try? world.setMass(handle, mass: mass, center: massCenter, inertia: mass * inertiaPerMass)
    return true
  }

  /// Makes the body kinematic for its motion owner, or dynamic again with the velocity its
  /// state holds (the exact velocity the motion left it, not Box2D's step-average).
  func setFollowsMotion(_ follows: Bool) {
    guard follows != followsMotion else { return }
    followsMotion = follows
    if !follows { (motionInFlight, followedState) = (false, nil) }
    guard isDynamic, let world else { return }
    world.setType(handle, unanchoredType)
    if !follows { world.setVelocity(handle, state.velocity, angular: state.angularVelocity) }
    world.wake(handle)
  }

  private var unanchoredType: cbox2d_body_type {
    followsMotion ? CBOX2D_BODY_KINEMATIC : CBOX2D_BODY_DYNAMIC
  }

  func setGroups(items: [UInt32], boundaries: [UInt32], in world: PhysicsWorld) {
    guard items != itemGroups || boundaries != boundaryGroups else { return }
    itemGroups = items
    boundaryGroups = boundaries
    world.setCollisionGroups(handle, items: items, boundaries: boundaries)
  }

  private static func addFixtures(
    for item: DynamicItem, to body: BodyHandle, in world: PhysicsWorld
  )
    throws
  {
    for fixture in item.fixtures {
      switch fixture {
      case .box(let size): try world.addBox(body, size: size)
      case .circle(let radius, let center):
        try world.addCircle(body, radius: radius, center: center)
      case .polygon(let vertices): try world.addPolygon(body, vertices)
      }
    }
  }
}
