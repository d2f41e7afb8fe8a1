import Dynamics
import Transitions
import Wire

/// One animator served by the daemon: a scripted scene or a named transition, its clock, and
/// the connections watching it.
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

  let name: String
  let content: Content
  let clock: Clock
  let fps: Double
  let keep: Bool
  /// The connection that opened it; a session without `keep` closes with it.
  let ownerID: UInt64
  /// When a request last addressed it (for reaping idle kept sessions).
  var lastActivity: ContinuousClock.Instant = .now
  private(set) var watchers: [Client] = []
  /// The connection whose request is being handled, when it is not a watcher: the events its
  /// request causes go to it as well (PROTOCOL-CORE: a request's events precede its reply).
  private var requester: Client?
  /// Connections that asked for the `debug` stream; each gets it with the frames it receives.
  private var debugClients: [Client] = []
  /// The touching pairs now, from the contact events (for the debug stream).
  private var activeContacts: [ActiveContact] = []
  /// Sequence number of the last frame emitted.
  private(set) var seq: UInt64 = 0
  /// The shared timer of realtime sessions at this rate; nil on the manual clock.
  private let frameClock: FrameClock?
  /// Events the animator reported during the current steps, sent after them.
  private var stepEvents: [Event] = []
  private var stepping = false

  private enum Event {
    case contact(ContactEvent)
    case pause(Double)
    case resume(Double)
  }

  init(
    name: String, content: Content, clock: Clock, fps: Double, keep: Bool, ownerID: UInt64,
    frameClock: FrameClock?
  ) {
    self.name = name
    self.content = content
    self.clock = clock
    self.fps = fps
    self.keep = keep
    self.ownerID = ownerID
    self.frameClock = clock == .realtime ? frameClock : nil
    animator.delegate = self
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

  func states() -> [ItemState] {
    items.map { item in
      ItemState(
        id: item.identifier, center: WirePoint(item.center), angle: item.angle,
        velocity: WireVector(item.velocity), angularVelocity: item.angularVelocity,
        size: WireSize(width: item.size.width, height: item.size.height))
    }
  }

  var summary: SessionSummary {
    SessionSummary(
      session: name, transition: transitionName, clock: clock, running: animator.isRunning)
  }

  // MARK: watchers

  func addWatcher(_ client: Client) {
    if !watchers.contains(where: { $0 === client }) { watchers.append(client) }
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
  var debugFields: [ReplyField] { DebugGeometry.fields(of: animator, contacts: activeContacts) }

  /// Runs `body` (the handling of `client`'s request) with `client` receiving the events it
  /// causes, watcher or not.
  func handling<E: Error>(_ client: Client, _ body: () throws(E) -> Void) throws(E) {
    let previous = requester
    requester = watchers.contains { $0 === client } ? nil : client
    defer { requester = previous }
    try body()
  }

  /// Everyone this session's events go to now.
  private var recipients: [Client] {
    guard let requester else { return watchers }
    return watchers + [requester]
  }

  /// Stops the clock and lets go of the watchers; the session is over.
  func close() {
    frameClock?.remove(self)
    animator.delegate = nil
    watchers = []
    debugClients = []
  }

  // MARK: time

  /// One realtime frame (called by the frame clock): simulation time advances by exactly 1/fps.
  func tick() {
    advance(by: 1 / fps, flowControlled: nil)
    if !animator.isRunning { frameClock?.remove(self) }
  }

  /// Steps the animator by `dt` and sends the frame's events to every watcher. Returns false
  /// when nothing moved (the animator was at rest). `flowControlled` is the client of a manual
  /// `step`, whose frames are never coalesced.
  @discardableResult
  func advance(by dt: Double, flowControlled: Client?) -> Bool {
    stepping = true
    let taken = animator.step(dt)
    if case .transition(let t) = content { t.afterStep() }
    stepping = false
    guard taken > 0 || !stepEvents.isEmpty else {
      sendTransitionEvents()
      return false
    }
    let events = stepEvents
    stepEvents = []
    for event in events {
      if case .contact(let contact) = event { send { $0.contact(contact, session: self.name) } }
    }
    if taken > 0 {
      seq += 1
      let states = self.states()
      let values = self.values
      var debug: [ReplyField]?
      for watcher in recipients {
        let sent = watcher.sendFrame(
          session: self, seq: seq, t: animator.elapsedTime, items: states, values: values,
          coalescible: watcher !== flowControlled)
        // The geometry goes with the frames a debugging client receives, never alone, so it
        // is coalesced with them.
        if sent, debugClients.contains(where: { $0 === watcher }) {
          let fields = debug ?? debugFields
          debug = fields
          let (seq, t) = (self.seq, animator.elapsedTime)
          watcher.sendEvent { $0.debug(session: self.name, seq: seq, t: t, fields) }
        }
      }
    }
    for event in events {
      switch event {
      case .contact: break
      case .pause(let t): send { $0.pause(session: self.name, t: t) }
      case .resume(let t): send { $0.resume(session: self.name, t: t) }
      }
    }
    sendTransitionEvents()
    return taken > 0
  }

  /// Sends what the transition queued (handoff after a gesture, done after a step).
  func sendTransitionEvents() {
    guard case .transition(let t) = content else { return }
    for event in t.takeEvents() {
      switch event {
      case .handoff(let h):
        let constraints = h.constraints.map { (c: MotionConstraint) -> HandoffConstraint in
          switch c {
          case .rail(let axis): return .rail(axis: WireVector(axis))
          case .anchored: return .anchored
          case .speedLimit(let speed): return .speedLimit(speed)
          }
        }
        send {
          $0.handoff(
            session: self.name, item: h.item, gestureVelocity: WireVector(h.gestureVelocity),
            itemVelocity: WireVector(h.itemVelocity), constraints: constraints,
            velocityError: h.velocityError)
        }
      case .done(let outcome):
        let values = self.values
        send { $0.done(session: self.name, outcome: outcome, values: values) }
      }
    }
  }

  /// Encodes one event and queues it on every watcher; events are never coalesced.
  private func send(_ encode: (inout MessageEncoder) -> Void) {
    for watcher in recipients { watcher.sendEvent(encode) }
  }

  // MARK: DynamicAnimatorDelegate

  func dynamicAnimatorWillResume(_ animator: DynamicAnimator) {
    frameClock?.add(self)
    if stepping {
      stepEvents.append(.resume(animator.elapsedTime))
    } else {
      let t = animator.elapsedTime
      send { $0.resume(session: self.name, t: t) }
    }
  }

  func dynamicAnimatorDidPause(_ animator: DynamicAnimator) {
    if stepping {
      stepEvents.append(.pause(animator.elapsedTime))
    } else {
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
      partner: partner, point: c.point.map(WirePoint.init))
  }
}

extension Session {
  /// Keeps `activeContacts` up to date: began adds the pair, ended removes it.
  fileprivate func trackContact(_ c: ContactEvent) {
    let partner: ContactPartner
    switch c.other {
    case .item(let other): partner = .item(other.identifier)
    case .boundary(let id): partner = .boundary(id)
    }
    let contact = ActiveContact(item: c.item.identifier, partner: partner, point: c.point)
    activeContacts.removeAll { $0.samePair(contact) }
    if c.phase == .began { activeContacts.append(contact) }
  }
}
