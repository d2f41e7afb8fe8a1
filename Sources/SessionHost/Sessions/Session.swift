import Dynamics
import Primitives
import SceneBuilding
import Transitions
import Wire

/// One animator served by the host: a scripted scene or a named transition, its clock, and the
/// peers watching it.
///
/// **Where its physics runs.** Frames are computed on a worker (or, for a cheap manual step, at
/// once on the host's thread): the host turns a tick (`beginTick`) or a `step` (`frameJob`) into
/// a job, hands the engine to a worker in slices of at most a few milliseconds, and has the
/// session publish the result into its outbox when it comes back (`SessionFrames.swift`,
/// `SessionHost/FrameScheduling.swift`). The session never schedules work, starts or stops its
/// clock, or sends anything itself. While that job runs the
/// session `isBusy`: the host touches nothing of the engine, requests naming the session wait
/// for it (`waitUntilIdle`), and what is needed meanwhile (`list`) comes from `published`, the
/// state of the last frame sent.
///
/// Events of a frame go out in this order: the contacts of its steps, the frame, then `pause`
/// if it came to rest, then what the transition reports (`done`). What a request causes
/// (`resume`, `handoff`) is queued while the request runs and sent before its reply, to the
/// watchers and the requester (`takeRequestEvents`, which the host sends).
final class Session: DynamicAnimatorDelegate {
  enum Content {
    case scene(SceneModel)
    case transition(Transition)

    var animator: DynamicAnimator {
      switch self {
      case .scene(let scene): return scene.animator
      case .transition(let transition): return transition.animator
      }
    }
  }

  /// What the last published frame showed (or the opening state).
  struct Published {
    var t: Double
    var states: [ItemState]
    var values: [NamedValue]
    var running: Bool
  }

  let name: String
  let content: Content
  /// A transition session's parameters, every one (defaults filled in) in declaration order,
  /// as `get` reports them; nil for a scene.
  var params: TransitionParams?
  let clock: Clock
  let fps: Double
  let keep: Bool
  /// Reduced motion: after a release, a cancel, or a taken tap or swipe, the frames that
  /// follow are computed but not shown, up to the one where the motion ends (`skipping`).
  var reduceMotion = false
  /// Whether the frames being computed are skipped (reduced motion), and what the skipped ones
  /// reported so far (`SessionFrames.skipped`).
  var skipping = false
  var skipped: FrameResult?
  var skippedFrames = 0
  /// The animator's time when the skip began.
  var skipStart = 0.0
  /// The peer that opened it; a session without `keep` closes when it leaves.
  let ownerID: PeerID
  /// The process of that peer, for the per-client session quota.
  let ownerPID: Int32
  /// Counts sessions in the order they were opened (for `list`).
  let openingNumber: UInt64
  /// When a request last addressed it (for reaping idle kept sessions).
  var lastActivity: Duration
  private(set) var watchers: [Peer] = [] {
    didSet {
      watcherRecipients = watchers.map { Outgoing.Recipient($0.id) }
      streamRecipients = watchers.map { Outgoing.Recipient($0.id, .coalescible) }
    }
  }
  /// The watchers as recipients, kept with them so that a frame allocates no list of its own:
  /// of events never coalesced, and of frames and contacts.
  private(set) var watcherRecipients: [Outgoing.Recipient] = []
  private(set) var streamRecipients: [Outgoing.Recipient] = []
  /// Watchers that asked for the `debug` stream.
  private(set) var debugWatchers: [Peer] = []
  /// The touching pairs now, from the contact events (for the debug stream), with the order
  /// they began in.
  private var activeContacts: [ContactKey: (order: UInt64, touch: DebugGeometry.Touch)] = [:]
  private var contactOrder: UInt64 = 0
  /// Sequence number of the last frame emitted.
  var seq: UInt64 = 0
  /// The shared timer of realtime sessions at this rate; nil on the manual clock.
  let frameClock: FrameClock?
  /// The host's clock (`now`, for the time of a gesture sample on the realtime clock).
  let environment: any HostEnvironment
  /// The host's `Configuration.sliceTime`, kept here for the workers.
  let sliceDuration: Duration
  /// Events the animator reported during the current frame's steps (on a worker), sent after
  /// them: at most `Limits.maxContactEventsPerFrame` contact events, the rest counted.
  var stepEvents: [StepEvent] = []
  var stepping = false
  /// The animator's time when the frame in progress began.
  var frameStart = 0.0
  var frameContactEvents = 0
  var frameDroppedContacts = 0
  /// Seconds of worker time an internal step of this session recently cost (nil: not known
  /// yet, or its scene changed since), for deciding where a manual step runs.
  var stepCost: Double?
  /// Events a request caused, sent before its reply (`takeRequestEvents`).
  private var requestEvents: [Event] = []
  /// Box2D shapes counted against the daemon's total (`Limits.maxShapesTotal`).
  var countedShapes = 0

  // MARK: work on a worker

  /// A job of this session is running on a worker: nothing on the host's thread may touch the
  /// engine.
  var isBusy = false
  /// The session was closed; if a job was running, the rest of closing waits for it.
  private(set) var isClosed = false
  /// What runs once the job in flight is done, in the order it was asked for.
  var idleWaiters: [() -> Void] = []
  var published: Published
  /// Realtime frames are late: the frame clock ticked while a frame was still being computed.
  var isSlow = false
  var onTimeTicks = 0
  /// Periods of its frame clock that passed since its last realtime frame began.
  var owedPeriods = 0
  /// Ticks of its frame clock that gave it no frame of its own (the clock woke late, or its
  /// previous frame was still being computed), since it opened; `list` reports them.
  var missedTicks = 0
  var jobStarted: ContinuousClock.Instant = .now
  /// The job of every realtime tick, made once (a tick allocates nothing of its own); the host
  /// takes the session off its clock when a tick leaves it at rest.
  let tickJob = FrameJob(frames: 0, dt: 0, requester: nil, debug: false) { _ in }
  /// The outcome of the transition's current gesture cycle once its `done` went out; a gesture
  /// that begins, or a tap or swipe the transition takes, starts a new cycle (`watch` reports it).
  var outcome: String?
  var contactLimitReported = false

  /// What the animator reports while it steps.
  enum StepEvent {
    case contact(ContactEvent)
    case pause(Double)
    case resume(Double)
  }

  init(
    name: String, content: Content, clock: Clock, fps: Double, keep: Bool, ownerID: PeerID,
    ownerPID: Int32, openingNumber: UInt64, frameClock: FrameClock?,
    environment: any HostEnvironment, sliceDuration: Duration
  ) {
    self.environment = environment
    self.sliceDuration = sliceDuration
    self.name = name
    self.content = content
    self.clock = clock
    self.fps = fps
    self.keep = keep
    self.ownerID = ownerID
    self.ownerPID = ownerPID
    self.openingNumber = openingNumber
    lastActivity = environment.now
    self.frameClock = clock == .realtime ? frameClock : nil
    published = Published(t: 0, states: [], values: [], running: false)
    SceneBuilder.applyStepBounds(animator)
    animator.delegate = self
    published = currentState()
  }

  var animator: DynamicAnimator { content.animator }

  /// Reduced motion: the motion an input just started is shown where it ends (on the host's
  /// thread, between frames).
  func startSkipping() {
    guard reduceMotion else { return }
    skipping = true
    skipStart = animator.time
  }

  /// A finger takes the items again: frames show again. The way skipped so far is not shown,
  /// but what the transition reported on it (a `done`) is sent, before the reply.
  func endSkipping() {
    if let events = skipped?.transitionEvents { queue(events) }
    skipping = false
    skipped = nil
    skippedFrames = 0
  }

  var transitionName: String? {
    if case .transition(let t) = content { return t.openedName }
    return nil
  }

  var items: [DynamicItem] {
    switch content {
    case .scene(let scene): return scene.items
    case .transition(let transition): return transition.items
    }
  }

  var values: [NamedValue] {
    if case .transition(let t) = content { return t.values.map { NamedValue($0.name, $0.value) } }
    return []
  }

  /// Box2D shapes the session holds (a scene counts its items whether animated or not).
  var shapeCount: Int {
    switch content {
    case .scene(let scene): return scene.shapeCount
    case .transition(let transition): return transition.animator.shapeCount
    }
  }

  func states() -> [ItemState] {
    items.map { item in
      ItemState(
        id: item.identifier, center: item.center, angle: item.angle, velocity: item.velocity,
        angularVelocity: item.angularVelocity, size: item.size)
    }
  }

  /// The engine's state now; only when not busy.
  func currentState() -> Published {
    Published(
      t: animator.time, states: states(), values: values, running: animator.isRunning)
  }

  /// For `list`: from what was last published, so it never waits for a job.
  var summary: SessionSummary {
    SessionSummary(
      session: name, transition: transitionName, clock: clock, running: published.running,
      missedTicks: clock == .realtime ? missedTicks : nil)
  }

  // MARK: watchers

  func addWatcher(_ peer: Peer) {
    if !watchers.contains(where: { $0 === peer }) {
      watchers.append(peer)
      peer.didStartWatching(self)
    }
  }

  func removeWatcher(_ peer: Peer) {
    watchers.removeAll { $0 === peer }
    debugWatchers.removeAll { $0 === peer }
  }

  /// Starts or stops the debug stream to `peer`.
  func setDebug(_ peer: Peer, enabled: Bool) {
    debugWatchers.removeAll { $0 === peer }
    if enabled { debugWatchers.append(peer) }
  }

  /// The behaviors as geometry now (`debug` reply and events).
  var debugGeometry: DebugGeometry {
    let touches = activeContacts.values.sorted { $0.order < $1.order }.map(\.touch)
    var ids: [ObjectIdentifier: String] = [:]
    if case .scene(let scene) = content {
      for entry in scene.behaviorsByID.values { ids[ObjectIdentifier(entry.behavior)] = entry.id }
    }
    return DebugGeometry(of: animator, contacts: touches, behaviorIDs: ids)
  }

  /// The watchers, and `requester` too if it does not watch, as recipients of events that are
  /// never coalesced.
  func recipients(adding requester: Peer? = nil) -> [Outgoing.Recipient] {
    guard let requester, !watchers.contains(where: { $0 === requester }) else {
      return watcherRecipients
    }
    return watcherRecipients + [Outgoing.Recipient(requester.id)]
  }

  /// Runs `body` once no job is running: at once if none is.
  func waitUntilIdle(_ body: @escaping () -> Void) {
    if isBusy { idleWaiters.append(body) } else { body() }
  }

  /// Stops the clock and lets go of the watchers; the session is over. A job still running
  /// finishes first (the engine is its until then); its frames are not sent.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    watchers = []
    debugWatchers = []
    requestEvents = []
    if !isBusy { animator.delegate = nil }
    runIdleWaiters()
  }

  /// Lets what waited for the job run (requests naming this session, a step's next frames).
  func runIdleWaiters() {
    while !isBusy, !idleWaiters.isEmpty {
      let waiting = idleWaiters.removeFirst()
      waiting()
    }
  }

  // MARK: events

  /// Queues what the transition reported, to go out before the request's reply.
  func queue(_ events: [TransitionEvent]) {
    requestEvents += events.map(event)
  }

  /// The events the request of `requester` caused, for its watchers and for it; the host sends
  /// them before the reply.
  func takeRequestEvents(requester: Peer) -> (events: [Event], to: [Outgoing.Recipient]) {
    guard !requestEvents.isEmpty else { return ([], []) }
    defer { requestEvents = [] }
    return (requestEvents, recipients(adding: requester))
  }

  /// Whether the session's frame clock should tick it: a realtime session whose animator runs
  /// (the host adds it after each request; a tick that finds it at rest removes it).
  var wantsTicks: Bool { frameClock != nil && !isClosed && published.running }

  /// A transition's event as the wire has it.
  func event(_ event: TransitionEvent) -> Event {
    switch event {
    case .handoff(var handoff):
      handoff.session = name
      return .handoff(handoff)
    case .done(let outcome):
      self.outcome = outcome
      return .done(session: name, outcome: outcome, values: values)
    }
  }

  // MARK: DynamicAnimatorDelegate

  func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
    if stepping {
      stepEvents.append(.resume(animator.elapsedTime))
    } else {
      published.running = true
      requestEvents.append(.resume(session: name, t: animator.elapsedTime))
    }
  }

  func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
    if stepping {
      stepEvents.append(.pause(animator.elapsedTime))
    } else {
      published.running = false
      requestEvents.append(.pause(session: name, t: animator.elapsedTime))
    }
  }

  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {
    trackContact(contact)
    if stepping {
      guard frameContactEvents < Limits.maxContactEventsPerFrame else {
        frameDroppedContacts += 1
        return
      }
      frameContactEvents += 1
      stepEvents.append(.contact(contact))
    } else {
      requestEvents.append(.contact(Contact(contact, session: name)))
    }
  }
}

extension Contact {
  /// The engine's contact event as the wire reports it.
  init(_ c: ContactEvent, session: String) {
    let partner: ContactPartner
    switch c.other {
    case .item(let other): partner = .item(other.identifier)
    case .boundary(let id): partner = .boundary(id)
    }
    self.init(
      session: session, phase: c.phase == .began ? .began : .ended, item: c.item.identifier,
      partner: partner, point: c.point)
  }
}

/// A touching pair, as the debug stream names it.
struct ContactKey: Hashable {
  let item: String
  let partner: ContactPartner
}

extension Session {
  /// Keeps `activeContacts` up to date: began adds the pair, ended removes it. O(1) per event.
  fileprivate func trackContact(_ c: ContactEvent) {
    let contact = Contact(c, session: name)
    let key = ContactKey(item: contact.item, partner: contact.partner)
    if c.phase == .began {
      contactOrder += 1
      activeContacts[key] = (
        contactOrder,
        DebugGeometry.Touch(item: key.item, partner: key.partner, point: c.point)
      )
    } else {
      activeContacts[key] = nil
    }
  }
}

extension Session {
  /// The time standing in for a gesture's missing client timestamp. On the manual clock, the
  /// animator's time, so that the same requests give the same output. On the realtime clock, the
  /// sample's arrival: seconds on the host's monotonic clock (`HostEnvironment.now`), since the
  /// animator's time stands still between frame ticks and would give several samples one time.
  var inputTime: Double {
    switch clock {
    case .manual:
      return animator.time
    case .realtime:
      let elapsed = environment.now.components
      return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
    }
  }
}
