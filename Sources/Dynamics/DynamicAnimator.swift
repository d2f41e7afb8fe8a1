import CBox2D
import Primitives

/// Hears when an animator pauses and resumes, and each contact (UIDynamicAnimatorDelegate and
/// UICollisionBehaviorDelegate in one). All calls come after a step, never from inside the solver.
public protocol DynamicAnimatorDelegate: AnyObject {
  func dynamicAnimatorWillResume(_ animator: DynamicAnimator)
  func dynamicAnimatorDidPause(_ animator: DynamicAnimator)
  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent)
}

extension DynamicAnimatorDelegate {
  public func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {}
  public func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {}
  public func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {}
}

/// Runs behaviors over items in a reference coordinate space (UIDynamicAnimator).
///
/// Time advances only through `step(_:)`, in fixed internal steps of `stepInterval` seconds, so
/// the same calls give bit-identical results. A frame that ends between two internal steps
/// shows its items as they are at the frame's own time (`time`, `FrameState.swift`): the world
/// is never stepped past it. The animator pauses by itself when every item is
/// at rest — every item slower than 1 pt/s and 2°/s for 0.5 s, Box2D's sleep tolerances, or only
/// drifting slower than 2 pt/s (`RestRule`) — and resumes when a behavior or item is added or
/// removed or a parameter changes.
public final class DynamicAnimator {
  /// The fixed internal step: 1/120 s, two per 60 Hz frame.
  public static let stepInterval = 1.0 / 120
  /// Linear speed under which an item counts as still (Box2D's b2_linearSleepTolerance).
  public static let restSpeed = 1.0
  /// Angular speed under which an item counts as still (b2_angularSleepTolerance, 2°/s).
  public static let restAngularSpeed = 2.0 / 180.0 * Double.pi
  /// How long every item must stay still before the animator pauses (b2_timeToSleep).
  public static let restDuration = 0.5
  /// Linear speed under which an item that only drifts counts as still: nothing but gravity,
  /// collisions and its item properties act on it, and it is not speeding up (`RestRule`).
  public static let driftSpeed = 2.0

  /// The reference bounds (UIKit's reference view bounds); nil for an abstract space, as UIKit's
  /// animator made without a reference view: it has no reference bounds, so a collision behavior
  /// that translates them into a boundary makes no walls (its named boundaries still act).
  /// Change them with `setReferenceBounds(_:)`.
  public private(set) var referenceBounds: Rect?
  public weak var delegate: DynamicAnimatorDelegate?
  /// Top-level behaviors, in the order they were added.
  public private(set) var behaviors: [DynamicBehavior] = []
  /// Whether the animator is stepping; false once everything came to rest.
  public private(set) var isRunning = false
  /// Internal steps taken while running.
  public private(set) var stepCount = 0
  /// Simulated time of the last internal step, in seconds (stepCount × stepInterval): the time
  /// of what the steps report (contacts, actions, pause).
  public var elapsedTime: Double { Double(stepCount) * Self.stepInterval }
  /// Whether the items show the state at a frame's time between two steps (`showFrameState`):
  /// a change made now is made at that time (`FrameState.swift`).
  var isShowingFrame = false
  /// Bodies given a state between two steps since the last frame (`rebase`).
  var rebased: [ItemBody] = []
  /// The time the items show, in seconds: the last internal step's plus the part of a step the
  /// frames so far have advanced beyond it (the sum of their `dt`). The state at this time is
  /// what `items` hold once a frame is over (`FrameState.swift`); while the animator is paused
  /// it stands still.
  public var time: Double { elapsedTime + pendingSteps * Self.stepInterval }

  let world = PhysicsWorld()
  /// Changes whenever the set of bodies may have changed (`prepare`), so that a behavior may
  /// keep the bodies of its items between steps.
  private(set) var bodiesVersion = 0
  /// What the springs and decays share within a step (`ExactMotion.state(at:sharing:)`).
  var sharedMotionTerms = SharedMotionTerms()
  /// Bodies in the order their items first appear in the behavior tree (deterministic).
  private(set) var bodyOrder: [ItemBody] = []
  private(set) var bodies: [ObjectIdentifier: ItemBody] = [:]
  private var bodiesByHandle: [BodyHandle: ItemBody] = [:]
  private var boundaryOwners: [BodyHandle: CollisionBehavior] = [:]
  private(set) var flattened: [DynamicBehavior] = []
  private var structureDirty = false {
    didSet { if structureDirty { countedStepCostBound = nil } }
  }
  private var countedStepCostBound: StepCostBound?

  /// An upper bound on one internal step's time for what the behaviors hold now
  /// (`StepCostBound`), counted again only after the tree changed.
  public var stepCostBound: StepCostBound {
    if let counted = countedStepCostBound { return counted }
    let counted = countStepCostBound()
    countedStepCostBound = counted
    return counted
  }
  /// The part of an internal step the frames have advanced beyond the last one taken (0 ≤ … < 1).
  var pendingSteps = 0.0
  /// Behaviors changed since the last step, whose items wake before the next one.
  private var changedBehaviors: [DynamicBehavior] = []
  private var changedBehaviorIDs: Set<ObjectIdentifier> = []
  /// How long every item has been slower than the rest thresholds (seconds).
  private var stillTime = 0.0
  private var restRule = RestRule()
  private var contacts = ContactLedger()
  private var ground: BodyHandle?
  private var nextCollisionGroup: UInt32 = 1

  public init(referenceBounds: Rect? = nil) {
    self.referenceBounds = referenceBounds
  }

  deinit {
    for behavior in flattened { behavior.dynamicAnimator = nil }
  }

  // MARK: behaviors

  /// Adds a behavior (and its children); the animator resumes.
  public func addBehavior(_ behavior: DynamicBehavior) {
    guard behavior.dynamicAnimator == nil, behavior.parent == nil else { return }
    behaviors.append(behavior)
    treeDidGain(behavior)
  }

  /// Removes a top-level behavior (and its children); the animator resumes.
  public func removeBehavior(_ behavior: DynamicBehavior) {
    guard let i = behaviors.firstIndex(where: { $0 === behavior }) else { return }
    behaviors.remove(at: i)
    treeDidLose(behavior)
  }

  public func removeAllBehaviors() {
    for behavior in behaviors.reversed() { removeBehavior(behavior) }
  }

  /// Every item some behavior acts on, in the order they first appear in the tree.
  public var items: [DynamicItem] {
    prepare()
    return bodyOrder.map(\.item)
  }

  /// How many Box2D shapes the animated items and the collision boundaries make (see
  /// `DynamicItem.shapeCount`, `CollisionBehavior.boundaryShapeCount`).
  public var shapeCount: Int {
    var count = items.reduce(0) { $0 + $1.shapeCount }
    var pending = behaviors
    while let behavior = pending.popLast() {
      if let c = behavior as? CollisionBehavior { count += c.boundaryShapeCount }
      pending += behavior.childBehaviors
    }
    return count
  }

  /// The most contacts the world holds at once (Box2D makes one for every pair of shapes whose
  /// boxes overlap). Items piled on one spot would otherwise make n²/2 of them, each solved at
  /// every step; beyond the limit further overlapping pairs pass through each other until
  /// contacts end. Default: no limit (UIKit has none).
  public var contactLimit: Int {
    get { Int(world.contactLimit) }
    set {
      world.contactLimit = Int32(clamping: max(0, newValue))
      countedStepCostBound = nil
    }
  }

  /// Overlapping pairs the contact limit has kept from colliding so far.
  public var refusedContactCount: Int64 { world.refusedContacts }

  /// About the most candidate pairs (shapes whose boxes overlap, on different bodies) one
  /// internal step's broad phase meets. Box2D meets every overlap of every shape that moved:
  /// n²/2 for n shapes piled on one spot. Beyond the limit the moved shapes not yet met wait, in
  /// order, for the next step, so a pair is met late, never lost. Default: no limit.
  public var pairSearchLimit: Int {
    get { Int(world.pairSearchLimit) }
    set {
      world.pairSearchLimit = Int32(clamping: max(1, newValue))
      countedStepCostBound = nil
    }
  }

  /// Times a moved shape has waited for a later step under the pair limit.
  public var deferredShapeCount: Int64 { world.deferredProxies }

  /// Contacts the world holds now (pairs of shapes whose boxes overlap, touching or not).
  public var contactCount: Int { world.contactCount }

  /// Items whose frame intersects `rect` (UIKit's itemsInRect:), in the order of `items`. With
  /// `expandingGroups` (the default) an animated group is replaced by those of its members whose
  /// own frames intersect `rect`; without it the group itself is listed when its frame does.
  public func items(in rect: Rect, expandingGroups: Bool = true) -> [DynamicItem] {
    var found: [DynamicItem] = []
    for item in items {
      if expandingGroups && item.isGroup {
        found += item.groupMembers.filter { $0.frame.intersects(rect) }
      } else if item.frame.intersects(rect) {
        found.append(item)
      }
    }
    return found
  }

  /// Re-reads `center` and `angle` after the caller moved an animated item; velocity is kept.
  /// A group moves with its members. A member of an animated group moves its group, so that the
  /// member is where the caller put it and the other members keep their places in the group.
  public func updateItem(usingCurrentState item: DynamicItem) throws {
    try DynamicItem.validate(center: item.center, angle: item.angle)
    prepare()
    var moved = item
    var center = item.center
    var angle = item.angle
    if body(for: item) == nil, let group = item.group, body(for: group) != nil,
      let member = group.placement(of: item)
    {
      angle = item.angle - member.angle
      center = item.center - member.offset.rotated(by: angle)
      try DynamicItem.validate(center: center, angle: angle)
      moved = group
    }
    guard let body = body(for: moved) else { return }
    if isShowingFrame, body.isDynamic, var shown = body.shownBetweenSteps {
      // Moved at the frame's time, between two steps.
      shown.center = center
      shown.angle = angle
      rebase(body, to: shown)
      resume()
      return
    }
    body.forgetShown()
    world.setTransform(body.handle, center: center, angle: angle)
    world.wake(body.handle)
    moved.center = center
    moved.angle = angle
    body.state.center = center
    body.state.angle = angle
    body.state.pose = world.state(body.handle).pose
    body.publishMembers()
    resume()
  }

  /// Changes the reference bounds (nil: none). Collision behaviors that translate them into a
  /// boundary move their walls at once, so the next step collides with the new bounds; other
  /// boundaries and their contacts are untouched. The animator resumes when the bounds change.
  /// Items outside the new bounds are left where they are, as UIKit leaves them; one that
  /// overlaps a new wall is pushed out of it by the contact solver over a few steps, without
  /// being given speed, through the wall's nearer face (inward, unless it lies more than halfway
  /// into the wall's thickness). Throws for a non-finite rectangle, a side that is not positive,
  /// or a corner beyond ±`DynamicItem.maximumCoordinate`.
  public func setReferenceBounds(_ bounds: Rect?) throws {
    if let b = bounds {
      guard b.origin.isFinite, b.size.width.isFinite, b.size.height.isFinite else {
        throw DynamicsError(.nonFinite, "reference bounds \(b) are not finite")
      }
      guard b.size.width > 0, b.size.height > 0 else {
        throw DynamicsError(.outOfRange, "reference bounds \(b) must have a positive size")
      }
      let limit = DynamicItem.maximumCoordinate
      guard [b.minX, b.minY, b.maxX, b.maxY].allSatisfy({ abs($0) <= limit }) else {
        throw DynamicsError(.outOfRange, "reference bounds \(b) reach beyond ±\(limit) pt")
      }
    }
    guard bounds != referenceBounds else { return }
    referenceBounds = bounds
    for case let collision as CollisionBehavior in Self.flatten(behaviors) {
      collision.referenceBoundsDidChange(self)
    }
    resume()
  }

  // MARK: time

  /// Advances by `dt` seconds in fixed internal steps, carrying the remainder to the next call.
  /// Does nothing while paused. Returns the number of internal steps taken.
  @discardableResult
  public func step(_ dt: Double) -> Int {
    beginStep(dt)
    return continueStep { false }
  }

  /// Internal steps of the current frame not taken yet (`beginStep`, `continueStep`).
  public private(set) var stepsDue = 0

  /// Starts a frame of `dt` seconds: its internal steps become due (the remainder is carried
  /// to the next frame); `continueStep` takes them. `step(_:)` is the two in one call. A host
  /// that shares its threads cuts a long frame (a large `dt`, costly steps) into slices this
  /// way, at internal-step granularity, with exactly the result of one `step(_:)`.
  public func beginStep(_ dt: Double) {
    guard dt.isFinite, dt > 0, isRunning else { return }
    rebaseGiven()
    isShowingFrame = false
    pendingSteps += dt / Self.stepInterval
    // Tolerate rounding: 1/60 s must be exactly two steps, every time, and leave nothing over.
    let due = Int((pendingSteps + Self.stepTolerance).rounded(.down))
    pendingSteps -= Double(due)
    if due > 0, pendingSteps < Self.stepTolerance { pendingSteps = 0 }
    stepsDue += due
  }

  /// The part of an internal step that rounding may leave over or short (steps).
  private static let stepTolerance = 1e-6

  /// Takes the frame's due internal steps until none is left or the animator pauses, or, after
  /// any step but the last, `shouldYield()` says to stop for now (a later call goes on). Returns
  /// the number of internal steps taken.
  /// Once the frame's last step is taken, the items show the state at the frame's `time`.
  public func continueStep(shouldYield: () -> Bool) -> Int {
    var taken = 0
    while stepsDue > 0, isRunning {
      // From the glide's point at the last frame's time (a part of a step past the last step)
      // to the anchor's at this frame's time, at an even pace.
      let left = Double(stepsDue) + pendingSteps - partShown
      glideFraction = left > 0 ? (1 - partShown) / left : 1
      stepOnce()
      partShown = 0
      taken += 1
      stepsDue -= 1
      if stepsDue > 0, shouldYield() { break }
    }
    if !isRunning { stepsDue = 0 }
    glideFraction = 1
    if stepsDue == 0 {
      partShown = isRunning ? pendingSteps : 0
      if isRunning { showFrameState() }
    }
    return taken
  }

  /// Ends the current frame where it is: its internal steps not taken yet are dropped (the
  /// host's answer to a requester that left mid-frame), and so is the part of a step beyond them:
  /// The items show the last step's state, at its time.
  public func abandonStep() {
    stepsDue = 0
    pendingSteps = 0
    partShown = 0
  }

  /// The part of the way left to a moved anchor's point that the coming internal step covers
  /// (1 outside a frame): a gliding anchor moves at an even pace from where it was at the last
  /// frame's time to its point at this frame's time, and arrives with it.
  private(set) var glideFraction = 1.0
  /// How far past the last internal step (in steps) the last frame ended: where a glide starts.
  private var partShown = 0.0

  private func stepOnce() {
    prepare()
    wakeChangedBehaviors()
    for behavior in flattened { behavior.prepareStep(self) }
    for behavior in flattened { behavior.overrideVelocities(self) }
    world.step(Self.stepInterval)
    stepCount += 1
    readBack()
    report(world.takeContacts())
    for behavior in flattened { behavior.action?() }
    // A change made by an action keeps the animator running for at least one more step.
    if !structureDirty && isAtRest() { pause() }
  }

  /// True once every item has been still for `restDuration` (`RestRule`). The animator keeps its
  /// own count rather than waiting for Box2D's island sleep, which also demands a fully solved
  /// position and can stay awake forever (a fixed-rotation item on a rail); resting bodies are
  /// then put to sleep so that Box2D agrees.
  private func isAtRest() -> Bool {
    switch restRule.judge(bodyOrder, behaviors: flattened, stillTime: &stillTime) {
    case .moving, .still: return false
    case .asleep: return true
    case .rested: break
    }
    for body in bodyOrder where body.isDynamic {
      world.sleep(body.handle)
      body.state.velocity = .zero
      body.state.angularVelocity = 0
      body.state.isAwake = false
      body.item.velocity = .zero
      body.item.angularVelocity = 0
    }
    return true
  }

  private func readBack() {
    for body in bodyOrder {
      var s = world.state(body.handle)
      if !(s.center.isFinite && s.velocity.isFinite && s.angle.isFinite
        && s.angularVelocity.isFinite)
      {
        // Never let a diverged body leak NaN: put it back where it was, at rest.
        s = BodyState(
          center: body.state.center, angle: body.state.angle, velocity: .zero, angularVelocity: 0,
          isAwake: true)
        world.setTransform(body.handle, center: s.center, angle: s.angle)
        world.setVelocity(body.handle, .zero, angular: 0)
      }
      // A coordinate Box2D did not change keeps the exact Double it was given, rather than its
      // Float round trip (160 would read back as 160.0000024).
      if s.pose.x == body.state.pose.x { s.center.x = body.state.center.x }
      if s.pose.y == body.state.pose.y { s.center.y = body.state.center.y }
      if s.pose.z == body.state.pose.z { s.angle = body.state.angle }
      // A spring or decay gives its items the closed form's exact state, not Box2D's.
      if let exact = body.followedState {
        s.center = exact.center
        s.velocity = exact.velocity
        s.angularVelocity = 0
      }
      body.recordChange(to: s)
      body.state = s
      body.publish()
    }
  }

  private func resume() {
    stillTime = 0
    guard !isRunning else { return }
    isRunning = true
    delegate?.dynamicAnimatorWillResume(self)
  }

  private func pause() {
    guard isRunning else { return }
    isRunning = false
    // Resting bodies were stopped: their groups' members stop too.
    for body in bodyOrder { body.publishMembers() }
    pendingSteps = 0
    stepsDue = 0
    delegate?.dynamicAnimatorDidPause(self)
  }

  // MARK: tree changes (called by behaviors)

  func treeDidGain(_ root: DynamicBehavior) {
    for behavior in Self.flatten([root]) {
      behavior.willMove(to: self)
      behavior.dynamicAnimator = self
      behavior.needsRebuild = true
    }
    structureDirty = true
    resume()
  }

  func treeDidLose(_ root: DynamicBehavior) {
    for behavior in Self.flatten([root]) {
      behavior.willMove(to: nil)
      if behavior.physicsAttached { behavior.detachPhysics(self) }
      behavior.physicsAttached = false
      behavior.dynamicAnimator = nil
      behavior.needsRebuild = true
      wake(behavior.behaviorItems)
    }
    structureDirty = true
    resume()
  }

  func behaviorDidChange(_ behavior: DynamicBehavior, structure: Bool) {
    if structure { structureDirty = true }
    if changedBehaviorIDs.insert(ObjectIdentifier(behavior)).inserted {
      changedBehaviors.append(behavior)
    }
    resume()
  }

  /// Wakes the items of the behaviors changed since the last step, once each: a behavior changed
  /// many times between two steps (an action rule setting it at every one) costs one pass over
  /// its items, not one per change.
  private func wakeChangedBehaviors() {
    guard !changedBehaviors.isEmpty else { return }
    for behavior in changedBehaviors { wake(behavior.behaviorItems) }
    changedBehaviors = []
    changedBehaviorIDs = []
  }

  private func wake(_ items: [DynamicItem]) {
    for item in items { if let body = bodies[ObjectIdentifier(item)] { world.wake(body.handle) } }
  }

  // MARK: bodies (used by behaviors)

  func body(for item: DynamicItem) -> ItemBody? { bodies[ObjectIdentifier(item)] }

  /// Sets an item's velocity (pt/s) and/or angular velocity now, waking it; unless `resuming`
  /// is false (a held item's drive), the animator resumes and its rest count starts over.
  func setVelocity(of body: ItemBody, _ velocity: Vector?, angular: Double?, resuming: Bool = true)
  {
    if isShowingFrame, body.isDynamic, var shown = body.shownBetweenSteps {
      // Given at the frame's time, between two steps.
      shown.velocity = velocity ?? shown.velocity
      shown.angularVelocity = angular ?? shown.angularVelocity
      rebase(body, to: shown)
      if resuming { resume() }
      return
    }
    body.forgetShown()
    let v = velocity ?? body.state.velocity
    let w = angular ?? body.state.angularVelocity
    world.setVelocity(body.handle, v, angular: w)
    world.wake(body.handle)
    // Read back what Box2D stored (Float), so what callers see is what will be simulated.
    let s = world.state(body.handle)
    body.state.velocity = s.velocity
    body.state.angularVelocity = s.angularVelocity
    body.item.velocity = s.velocity
    body.item.angularVelocity = s.angularVelocity
    body.publishMembers()
    if resuming { resume() }
  }

  /// A static body without fixtures, shared by snaps as the other end of their springs.
  var groundBody: BodyHandle {
    if let g = ground { return g }
    // A static body at the origin cannot fail to be created.
    let g = try! world.createBody(CBOX2D_BODY_STATIC, center: .zero, angle: 0)
    ground = g
    return g
  }

  /// A fresh collision group id for a collision behavior.
  func makeCollisionGroup() -> UInt32 {
    defer { nextCollisionGroup += 1 }
    return nextCollisionGroup
  }

  func registerBoundaryBody(_ handle: BodyHandle, owner: CollisionBehavior?) {
    boundaryOwners[handle] = owner
  }

  // MARK: preparing the world before a step

  /// Brings Box2D in line with the behavior tree: bodies, properties, groups, joints.
  func prepare() {
    guard structureDirty else { return }
    structureDirty = false
    bodiesVersion &+= 1
    flattened = Self.flatten(behaviors)
    var wanted: [DynamicItem] = []
    var seen = Set<ObjectIdentifier>()
    for behavior in flattened {
      for item in behavior.behaviorItems where seen.insert(ObjectIdentifier(item)).inserted {
        wanted.append(item)
      }
    }
    // A member whose group is animated has no body of its own: the group's body moves it.
    let grouped = wanted.filter { $0.group.map { seen.contains(ObjectIdentifier($0)) } ?? false }
    if !grouped.isEmpty {
      for member in grouped { seen.remove(ObjectIdentifier(member)) }
      wanted.removeAll { !seen.contains(ObjectIdentifier($0)) }
    }
    for body in bodyOrder where !seen.contains(ObjectIdentifier(body.item)) {
      destroy(body)
    }
    var order: [ItemBody] = []
    for item in wanted {
      if let body = bodies[ObjectIdentifier(item)] {
        order.append(body)
      } else if let body = try? ItemBody(item: item, world: world) {
        // DynamicItem.init checked the shape with the shim, so this does not fail in practice.
        bodies[ObjectIdentifier(item)] = body
        bodiesByHandle[body.handle] = body
        order.append(body)
        body.publishMembers()  // a group places its members from its own pose
      }
    }
    bodyOrder = order
    let massChanged = resolveItemProperties()
    resolveCollisionGroups()
    for behavior in flattened where behavior.needsRebuild || (massChanged && behavior.dependsOnMass)
    {
      if behavior.physicsAttached { behavior.detachPhysics(self) }
      behavior.needsRebuild = false
      // Behaviors validate their parameters when set; a refusal here leaves them inert.
      behavior.physicsAttached = (try? behavior.attachPhysics(self)) != nil
    }
    for case let itemBehavior as DynamicItemBehavior in flattened {
      itemBehavior.applyPendingVelocities(self)
    }
    resolveMotionOwners()
  }

  /// The last spring or decay in the tree holding an item moves it, unless a finger grips it
  /// (it starts at the release) or it is anchored; a body nothing moves that way any more is
  /// dynamic again.
  private func resolveMotionOwners() {
    let movers = Self.exactMovers(flattened)
    for body in bodyOrder {
      let free = body.grips == 0 && body.isDynamic
      let mover = movers[ObjectIdentifier(body.item)]?.mover
      body.motionOwner = free ? mover.map(ObjectIdentifier.init) : nil
      if body.motionOwner == nil { body.setFollowsMotion(false) }
    }
  }

  /// Reports contacts queued outside a step (by removals) while their bodies are still known.
  func flushContacts() { report(world.takeContacts()) }

  private func destroy(_ body: ItemBody) {
    world.destroyBody(body.handle)
    flushContacts()
    bodies[ObjectIdentifier(body.item)] = nil
    bodiesByHandle[body.handle] = nil
  }

  /// The last item behavior holding an item decides its properties; returns true if a mass changed.
  private func resolveItemProperties() -> Bool {
    var winner: [ObjectIdentifier: ItemProperties] = [:]
    for case let behavior as DynamicItemBehavior in flattened {
      for item in behavior.items { winner[ObjectIdentifier(item)] = behavior.properties }
    }
    var massChanged = false
    for body in bodyOrder {
      let properties = winner[ObjectIdentifier(body.item)] ?? .defaults
      if body.apply(properties, in: world) { massChanged = true }
    }
    return massChanged
  }

  private func resolveCollisionGroups() {
    var itemGroups: [ObjectIdentifier: [UInt32]] = [:]
    var boundaryGroups: [ObjectIdentifier: [UInt32]] = [:]
    for case let collision as CollisionBehavior in flattened {
      let group = collision.group(in: self)
      for item in collision.items {
        if collision.collisionMode.includesItems {
          itemGroups[ObjectIdentifier(item), default: []].append(group)
        }
        if collision.collisionMode.includesBoundaries {
          boundaryGroups[ObjectIdentifier(item), default: []].append(group)
        }
      }
    }
    for body in bodyOrder {
      let id = ObjectIdentifier(body.item)
      body.setGroups(items: itemGroups[id] ?? [], boundaries: boundaryGroups[id] ?? [], in: world)
    }
  }

  /// The spring or decay that moves each item one of `flat` (a behavior tree in order) holds:
  /// the last in the tree.
  static func exactMovers(_ flat: [DynamicBehavior])
    -> [ObjectIdentifier: (item: DynamicItem, mover: DynamicBehavior)]
  {
    var movers: [ObjectIdentifier: (item: DynamicItem, mover: DynamicBehavior)] = [:]
    for behavior in flat where behavior.movesItemsExactly {
      for item in behavior.behaviorItems { movers[ObjectIdentifier(item)] = (item, behavior) }
    }
    return movers
  }

  /// The item named `identifier` and the spring or decay that moves it as the behaviors stand
  /// now (the last in the tree holding it; a grip holds it off until the release), or nil.
  public func exactMover(ofItemNamed identifier: String)
    -> (item: DynamicItem, mover: DynamicBehavior)?
  {
    Self.exactMovers(Self.flatten(behaviors)).values.first { $0.item.identifier == identifier }
  }

  static func flatten(_ roots: [DynamicBehavior]) -> [DynamicBehavior] {
    var out: [DynamicBehavior] = []
    func visit(_ b: DynamicBehavior) {
      out.append(b)
      for child in b.childBehaviors { visit(child) }
    }
    for root in roots { visit(root) }
    return out
  }

  // MARK: contacts

  private func report(_ raw: [RawContact]) {
    for contact in raw {
      guard let event = contacts.record(contact, resolve: participant) else { continue }
      delegate?.dynamicAnimator(self, didReport: event)
    }
  }

  private func participant(_ handle: BodyHandle, _ tag: Int32) -> ContactParticipant? {
    if let body = bodiesByHandle[handle] { return .item(body.item) }
    if let owner = boundaryOwners[handle] {
      return .boundary(
        owner: ObjectIdentifier(owner), tag: tag, identifier: owner.identifier(forTag: tag))
    }
    return nil
  }
}
