import Primitives

/// A motion an item follows exactly, evaluated at the animator's time (`SpringMotion`,
/// `DecayMotion`).
public protocol ExactMotion {
  /// The state `t` seconds after the motion started. What every motion of the same constants
  /// shares at that time is taken from `terms` when it is there, and left there.
  func state(at t: Double, sharing terms: inout SharedMotionTerms) -> (
    position: Point, velocity: Vector
  )
  /// Whether the motion has ended at `t`, where its state is `position`, `velocity`; it then
  /// rests at `endPoint`.
  func hasEnded(at t: Double, position: Point, velocity: Vector) -> Bool
  var endPoint: Point { get }
}

/// What the exact motions of an animator share within an internal step: items started
/// together under springs of the same constants (one spring's items, or a spring per item)
/// have the same exponential and trigonometric terms, and under decays of the same rate the
/// same exponentials, worked out once.
public struct SharedMotionTerms {
  var spring: (solution: SpringSolution, t: Double, coefficients: (c: Double, s: Double))?
  var decay: DecayTerms?
}

extension SpringMotion: ExactMotion {
  public func state(at t: Double, sharing terms: inout SharedMotionTerms) -> (
    position: Point, velocity: Vector
  ) {
    if let last = terms.spring, last.t == t, last.solution == solution {
      return state(coefficients: last.coefficients)
    }
    let coefficients = solution.coefficients(at: t)
    terms.spring = (solution, t, coefficients)
    return state(coefficients: coefficients)
  }
  public func hasEnded(at t: Double, position: Point, velocity: Vector) -> Bool {
    Self.isAtRest(position, velocity: velocity, on: target)
  }
  public var endPoint: Point { target }
}

extension DecayMotion: ExactMotion {
  public func state(at t: Double, sharing terms: inout SharedMotionTerms) -> (
    position: Point, velocity: Vector
  ) {
    if let last = terms.decay, last.t == t, last.rate == decayRate {
      return state(at: t, terms: last)
    }
    let decay = DecayTerms(rate: decayRate, t: t)
    terms.decay = decay
    return state(at: t, terms: decay)
  }
  public func hasEnded(at t: Double, position: Point, velocity: Vector) -> Bool { isStopped(at: t) }
  public var endPoint: Point { restingPoint }
}

/// The items of a spring or decay behavior and where each is along its motion.
///
/// An item's motion starts the first internal step the behavior moves it (the animator makes
/// the behavior its `motionOwner`: not while a finger grips it), from its position and velocity
/// then, and starts afresh whenever the item comes back to the behavior (a release) or its
/// state is changed from outside (a moved item, an added velocity), or on `restartAll()`. Before
/// each internal step the item's body, kinematic, gets the velocity that carries it onto the
/// closed form at the step's end (`DynamicAnimator.follow`); after it, the animator reads back
/// the closed form's exact position and velocity (`ItemBody.followedState`) rather than Box2D's
/// 32-bit ones. The item stops turning. Once the motion ends the item rests exactly at its end
/// point, held there.
struct ExactMotionTracks<Motion: ExactMotion> {
  private struct Track {
    let item: DynamicItem
    var motion: Motion?
    var startStep = 0
    /// How long after the internal step `startStep` the motion started: 0, or a frame's lead
    /// when it started between two steps, from the state shown then.
    var startOffset = 0.0
    var ended = false
    var hasStarted = false
    /// The item's body, looked up again only when the animator's bodies change.
    var body: ItemBody?
    var bodiesVersion = -1
    /// The exact state given to the item at its last step, to notice a change from outside.
    var published: (center: Point, velocity: Vector)?

    /// The motion's time at internal step `step`, or `lead` seconds after it.
    func time(afterStep step: Int, lead: Double = 0) -> Double {
      Double(step - startStep) * DynamicAnimator.stepInterval + lead - startOffset
    }
  }

  private var tracks: [Track] = []

  init(_ items: [DynamicItem]) {
    for item in ItemList(items).items { tracks.append(Track(item: item)) }
  }

  var items: [DynamicItem] { tracks.map { $0.item } }

  /// Appends the item; false if it was already there.
  mutating func add(_ item: DynamicItem) -> Bool {
    guard index(of: item) == nil else { return false }
    tracks.append(Track(item: item))
    return true
  }

  /// Removes the item; false if it was not there.
  mutating func remove(_ item: DynamicItem) -> Bool {
    guard let i = index(of: item) else { return false }
    tracks.remove(at: i)
    return true
  }

  /// The motion `item` follows now: nil before it starts and while it is held elsewhere.
  func motion(of item: DynamicItem) -> Motion? { index(of: item).flatMap { tracks[$0].motion } }

  /// Whether `item`'s motion has ended (it rests at the motion's end point).
  func hasEnded(_ item: DynamicItem) -> Bool {
    index(of: item).map { tracks[$0].motion != nil && tracks[$0].ended } ?? false
  }

  /// Whether every item's motion has ended (`hasEnded` of each; true when there is none).
  var allEnded: Bool { tracks.allSatisfy { $0.motion != nil && $0.ended } }

  /// Whether `item` is one of the items.
  func contains(_ item: DynamicItem) -> Bool { index(of: item) != nil }

  /// Whether the behavior has started `item`'s motion before (its first start is over).
  func hasStarted(_ item: DynamicItem) -> Bool {
    index(of: item).map { tracks[$0].hasStarted } ?? false
  }

  /// Every item starts afresh from its state at the next step (a retarget; a new model).
  mutating func restartAll() {
    for i in tracks.indices { tracks[i].motion = nil }
  }

  /// Forgets every motion, first starts included (the behavior leaves or joins an animator).
  mutating func reset() {
    for i in tracks.indices { tracks[i] = Track(item: tracks[i].item) }
  }

  /// Moves every item this behavior owns for the coming internal step. `start` makes an item's
  /// motion from its position and velocity (`isFirst`: the behavior's first start of it).
  /// Specialized for each motion: the behaviors call it through their generic base class, and
  /// unspecialized it would look up generic metadata for every item at every step (twice the
  /// cost of a gravity behavior; `dynbench motion-cost`).
  @_specialize(where Motion == SpringMotion)
  @_specialize(where Motion == DecayMotion)
  mutating func drive(
    _ animator: DynamicAnimator, owner: DynamicBehavior,
    start: (_ position: Point, _ velocity: Vector, _ isFirst: Bool) -> Motion
  ) {
    for i in tracks.indices { Self.advance(&tracks[i], animator, owner, start) }
  }

  private static func advance(
    _ track: inout Track, _ animator: DynamicAnimator, _ owner: DynamicBehavior,
    _ start: (Point, Vector, Bool) -> Motion
  ) {
    guard let body = body(of: &track, animator, owner) else {
      track.motion = nil
      return
    }
    let motion = begin(&track, body, animator, start)
    var next = (center: motion.endPoint, velocity: Vector.zero)
    if !track.ended {
      let t = track.time(afterStep: animator.stepCount + 1)
      let state = motion.state(at: t, sharing: &animator.sharedMotionTerms)
      track.ended = motion.hasEnded(at: t, position: state.position, velocity: state.velocity)
      if !track.ended { next = (state.position, state.velocity) }
    }
    // Beyond the engine's limits the item goes no further than they let it, and its motion
    // starts afresh from there at the step's end (`ExactMotionLimits`).
    if let limited = ExactMotionLimits.bounded(
      next.center, next.velocity, from: body.state.center, over: DynamicAnimator.stepInterval)
    {
      next = (limited.position, limited.velocity)
      track.motion = start(next.center, next.velocity, false)
      track.startStep = animator.stepCount + 1
      track.startOffset = 0
      track.ended = false
    }
    body.setFollowsMotion(true)
    body.motionInFlight = !track.ended
    animator.follow(body, to: next.center)
    // The animator's read-back after the step takes this state instead of Box2D's.
    body.followedState = next
    track.published = next
  }

  /// The body of the track's item if `owner` moves it now, looked up again only when the
  /// animator's bodies changed.
  private static func body(
    of track: inout Track, _ animator: DynamicAnimator, _ owner: DynamicBehavior
  ) -> ItemBody? {
    if track.bodiesVersion != animator.bodiesVersion {
      track.body = animator.body(for: track.item)
      track.bodiesVersion = animator.bodiesVersion
    }
    guard let body = track.body, body.isDynamic, body.motionOwner == ObjectIdentifier(owner)
    else { return nil }
    return body
  }

  /// The track's motion, started now if it has none yet or its state was changed from outside
  /// since its last step: from the body's state at the last step, or from the state its item
  /// shows at a frame's time between two steps (`FrameState.swift`).
  private static func begin(
    _ track: inout Track, _ body: ItemBody, _ animator: DynamicAnimator,
    _ start: (Point, Vector, Bool) -> Motion
  ) -> Motion {
    let now = (center: body.state.center, velocity: body.state.velocity)
    if let motion = track.motion, track.published.map({ $0 == now }) ?? true { return motion }
    let shown = body.shownBetweenSteps
    let from = shown.map { ($0.center, $0.velocity) } ?? now
    let motion = start(from.0, from.1, !track.hasStarted)
    track.motion = motion
    track.startStep = animator.stepCount
    track.startOffset = shown == nil ? 0 : body.shownLead
    track.ended = false
    track.hasStarted = true
    track.published = now
    return motion
  }

  /// Shows every item this behavior moves, its motion not ended, at its closed form `lead`
  /// seconds after the last internal step (a frame's time between two steps); a motion that
  /// starts (or starts afresh) at the coming step starts now.
  @_specialize(where Motion == SpringMotion)
  @_specialize(where Motion == DecayMotion)
  mutating func show(
    _ animator: DynamicAnimator, owner: DynamicBehavior, lead: Double,
    start: (_ position: Point, _ velocity: Vector, _ isFirst: Bool) -> Motion
  ) {
    for i in tracks.indices {
      guard let body = Self.body(of: &tracks[i], animator, owner) else { continue }
      let motion = Self.begin(&tracks[i], body, animator, start)
      guard !tracks[i].ended else { continue }
      let t = tracks[i].time(afterStep: animator.stepCount, lead: lead)
      var state = motion.state(at: t, sharing: &animator.sharedMotionTerms)
      if let limited = ExactMotionLimits.bounded(
        state.position, state.velocity, from: body.state.center, over: lead)
      {
        state = limited
      }
      var shown = body.state
      shown.center = state.position
      shown.velocity = state.velocity
      shown.angularVelocity = 0
      body.showBetweenSteps(shown, lead: lead)
    }
  }

  /// Specialized for each motion: the behaviors' questions about an item (`holds`, `isAtRest`,
  /// `motion(of:)`) reach it through their generic base class, which would otherwise search
  /// with the standard library's unspecialized `firstIndex(where:)`.
  @_specialize(where Motion == SpringMotion)
  @_specialize(where Motion == DecayMotion)
  private func index(of item: DynamicItem) -> Int? { tracks.firstIndex { $0.item === item } }
}

extension DynamicAnimator {
  /// Box2D moves a body at most 2 m (200 pt) per step (b2_maxTranslation): a kinematic body
  /// further than this from where it must be is put there instead.
  static let largestFollowStep = 150.0

  /// Gives `body`, kinematic, the velocity that carries it from where Box2D holds it (its
  /// 32-bit pose, not its exact state) onto `position` in one internal step, without turning:
  /// Box2D's rounding never accumulates.
  func follow(_ body: ItemBody, to position: Point) {
    let held = Point(
      x: Double(body.state.pose.x) * Units.pointsPerMeter,
      y: Double(body.state.pose.y) * Units.pointsPerMeter)
    var gap = position - held
    if gap.dx * gap.dx + gap.dy * gap.dy > Self.largestFollowStep * Self.largestFollowStep {
      world.setTransform(body.handle, center: position, angle: body.state.angle)
      gap = .zero
    }
    // Box2D wakes a body given a non-zero velocity; one at rest on its point may sleep.
    world.setVelocity(body.handle, gap * (1 / Self.stepInterval), angular: 0)
  }
}

extension DynamicAnimator {
  /// The item's center as Box2D holds it (32-bit floats, in metres, scaled back to points),
  /// for measuring what the engine's storage alone would report; nil if it has no body.
  public func storedCenter(of item: DynamicItem) -> Point? {
    guard let body = body(for: item) else { return nil }
    let pose = world.state(body.handle).pose
    return Point(
      x: Double(pose.x) * Units.pointsPerMeter, y: Double(pose.y) * Units.pointsPerMeter)
  }
}
