import Dynamics
import Primitives
import Transitions
import Wire

/// One animator served by the daemon: a scripted scene or a named transition, its clock, and
/// the connections watching it.
///
/// **Where its physics runs.** Frames are computed on a `StepWorkers` thread, never on the
/// loop: `tick` (realtime) and `runFrames` (a manual `step`) hand the engine to a worker and
/// publish the result when it comes back (`SessionFrames.swift`). While that job runs the
/// session `isBusy`: the loop touches nothing of the engine, requests naming the session wait
/// for it (`waitUntilIdle`), and what the loop needs meanwhile (`list`, a coalesced frame) comes
/// from `published`, the state of the last frame sent.
///
/// Events of a frame go out in this order: the contacts of its steps, the frame, then `pause`
/// if it came to rest, then what the transition reports (`done`). A `resume` goes out when the
/// change that caused it is made, before that request's reply; a change the transition makes
/// after a step (such as removing a spent push) is reported in order with that step's `pause`.
final class Session: DynamicAnimatorDelegate {
  enum Content {
    case scene(SceneModel)
    case transition(Transition)
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
  let clock: Clock
  let fps: Double
  let keep: Bool
  /// The connection that opened it; a session without `keep` closes with it.
  let ownerID: UInt64
  /// The process of that connection (`SO_PEERCRED`), for the per-client session quota.
  let ownerPID: Int32
  /// Counts sessions in the order they were opened (for `list`).
  let openingNumber: UInt64
  /// When a request last addressed it (for reaping idle kept sessions).
  var lastActivity: ContinuousClock.Instant = .now
  private(set) var watchers: [Client] = []
  /// The connection whose request is being handled, when it is not a watcher: the events its
  /// request causes go to it as well (PROTOCOL-CORE: a request's events precede its reply).
  private var requester: Client?
  /// Connections that asked for the `debug` stream; each gets it with the frames it receives.
  private(set) var debugClients: [Client] = []
  /// The touching pairs now, from the contact events (for the debug stream), with the order
  /// they began in.
  private var activeContacts: [ContactKey: (order: UInt64, contact: ActiveContact)] = [:]
  private var contactOrder: UInt64 = 0
  /// Sequence number of the last frame emitted.
  var seq: UInt64 = 0
  /// The shared timer of realtime sessions at this rate; nil on the manual clock.
  let frameClock: FrameClock?
  /// Where workers send this session's computed frames: the daemon's loop.
  let inbox: LoopInbox
  /// Events the animator reported during the current steps, sent after them.
  var stepEvents: [Event] = []
  var stepping = false
  /// Box2D shapes counted against the daemon's total (`Limits.maxShapesTotal`).
  var countedShapes = 0

  // MARK: work on a worker

  /// A job of this session is running on a worker: nothing on the loop may touch the engine.
  var isBusy = false
  /// The session was closed; if a job was running, the rest of closing waits for it.
  private(set) var isClosed = false
  /// What runs once the job in flight is done, in the order it was asked for.
  var idleWaiters: [() -> Void] = []
  var published: Published
  /// Realtime frames are late: the frame clock ticked while a frame was still being computed.
  var isSlow = false
  var onTimeTicks = 0
  var jobStarted: ContinuousClock.Instant = .now
  var contactLimitReported = false

  enum Event {
    case contact(ContactEvent)
    case pause(Double)
    case resume(Double)
  }

  init(
    name: String, content: Content, clock: Clock, fps: Double, keep: Bool, ownerID: UInt64,
    ownerPID: Int32, openingNumber: UInt64, frameClock: FrameClock?, inbox: LoopInbox
  ) {
    self.inbox = inbox
    self.name = name
    self.content = content
    self.clock = clock
    self.fps = fps
    self.keep = keep
    self.ownerID = ownerID
    self.ownerPID = ownerPID
    self.openingNumber = openingNumber
    self.frameClock = clock == .realtime ? frameClock : nil
    published = Published(t: 0, states: [], values: [], running: false)
    animator.contactLimit = Limits.maxContactsPerSession
    animator.delegate = self
    published = currentState()
    if animator.isRunning { self.frameClock?.add(self) }
  }

  var animator: DynamicAnimator {
    switch content {
    case .scene(let scene): return scene.animator
    case .transition(let transition): return transition.animator
    }
  }

  var transitionName: String? {
    if case .transition(let t) = content { return type(of: t).name }
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
        id: item.identifier, center: item.center, angle: item.angle,
        velocity: item.velocity, angularVelocity: item.angularVelocity,
        size: item.size)
    }
  }

  /// The engine's state now; only when not busy.
  func currentState() -> Published {
    Published(
      t: animator.elapsedTime, states: states(), values: values, running: animator.isRunning)
  }

  /// For `list`: from what was last published, so it never waits for a job.
  var summary: SessionSummary {
    SessionSummary(
      session: name, transition: transitionName, clock: clock, running: published.running)
  }

  // MARK: watchers

  func addWatcher(_ client: Client) {
    if !watchers.contains(where: { $0 === client }) {
      watchers.append(client)
      client.didStartWatching(self)
    }
  }

  func removeWatcher(_ client: Client) {
    watchers.removeAll { $0 === client }
    debugClients.removeAll { $0 === client }
  }

  /// Starts or stops the debug stream to `client`.
  func setDebug(_ client: Client, enabled: Bool) {
    debugClients.removeAll { $0 === client }
    if enabled { debugClients.append(client) }
  }

  /// The behaviors as geometry now (`debug` reply and events).
  var debugFields: [ReplyField] {
    let contacts = activeContacts.values.sorted { $0.order < $1.order }.map(\.contact)
    return DebugGeometry.fields(of: animator, contacts: contacts)
  }

  /// Runs `body` (the handling of `client`'s request) with `client` receiving the events it
  /// causes, watcher or not.
  func handling<E: Error>(_ client: Client, _ body: () throws(E) -> Void) throws(E) {
    let previous = requester
    requester = watchers.contains { $0 === client } ? nil : client
    defer { requester = previous }
    try body()
  }

  /// Everyone this session's events go to now, with `extra` (a stepping client) as well.
  func recipients(adding extra: Client? = nil) -> [Client] {
    var all = watchers
    for client in [requester, extra] {
      if let client, !all.contains(where: { $0 === client }) { all.append(client) }
    }
    return all
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
    frameClock?.remove(self)
    watchers = []
    debugClients = []
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

  func send(_ events: [TransitionEvent], adding extra: Client? = nil) {
    for event in events {
      switch event {
      case .handoff(let h):
        let constraints = h.constraints.map { (c: MotionConstraint) -> HandoffConstraint in
          switch c {
          case .rail(let axis): return .rail(axis: axis)
          case .anchored: return .anchored
          case .speedLimit(let speed): return .speedLimit(speed)
          }
        }
        send(adding: extra) {
          $0.handoff(
            session: self.name, item: h.item, gestureVelocity: h.gestureVelocity,
            itemVelocity: h.itemVelocity, constraints: constraints,
            velocityError: h.velocityError)
        }
      case .done(let outcome):
        let values = self.values
        send(adding: extra) { $0.done(session: self.name, outcome: outcome, values: values) }
      }
    }
  }

  /// Encodes one event and queues it on every recipient; such events are never coalesced.
  func send(adding extra: Client? = nil, _ encode: (inout MessageEncoder) -> Void) {
    for watcher in recipients(adding: extra) { watcher.sendEvent(encode) }
  }

  // MARK: DynamicAnimatorDelegate

  func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
    if stepping {
      stepEvents.append(.resume(animator.elapsedTime))
    } else {
      frameClock?.add(self)
      published.running = true
      let t = animator.elapsedTime
      send { $0.resume(session: self.name, t: t) }
    }
  }

  func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
    if stepping {
      stepEvents.append(.pause(animator.elapsedTime))
    } else {
      published.running = false
      let t = animator.elapsedTime
      send { $0.pause(session: self.name, t: t) }
    }
  }

  func dynamicAnimator(_ animator: DynamicAnimator, didReport contact: ContactEvent) {
    trackContact(contact)
    if stepping {
      stepEvents.append(.contact(contact))
    } else {
      send { $0.contact(contact, session: self.name) }
    }
  }
}

extension MessageEncoder {
  mutating func contact(_ c: ContactEvent, session: String) {
    let partner: ContactPartner
    switch c.other {
    case .item(let other): partner = .item(other.identifier)
    case .boundary(let id): partner = .boundary(id)
    }
    contact(
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
    let partner: ContactPartner
    switch c.other {
    case .item(let other): partner = .item(other.identifier)
    case .boundary(let id): partner = .boundary(id)
    }
    let key = ContactKey(item: c.item.identifier, partner: partner)
    if c.phase == .began {
      contactOrder += 1
      activeContacts[key] = (
        contactOrder, ActiveContact(item: key.item, partner: partner, point: c.point)
      )
    } else {
      activeContacts[key] = nil
    }
  }
}
