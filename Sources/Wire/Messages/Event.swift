import Primitives

/// An event as dynd sends it (protocol/PROTOCOL.md, “7. Events”): unprompted, to the connections
/// that watch its session (and, for the events a request causes, to the requester).
public enum Event: Equatable, Sendable {
  case frame(Frame)
  case contact(Contact)
  /// The animator came to rest at `t`.
  case pause(session: String, t: Double)
  /// The animator started running again at `t`.
  case resume(session: String, t: Double)
  case handoff(Handoff)
  /// The transition finished with `outcome` (its `values` when it has any).
  case done(session: String, outcome: String, values: [NamedValue])
  /// The behaviors as geometry after frame `seq`.
  case debug(session: String, seq: UInt64, t: Double, geometry: DebugGeometry)
  /// The session is gone: `closed` by a request, `owner_left`, `idle`.
  case closed(session: String, reason: String)
  /// The daemon is stopping.
  case shutdown(reason: String?)
  /// The session's frames cost more than its frame period.
  case slow(session: String, t: Double, frameMilliseconds: Double, budgetMilliseconds: Double)
  /// A `slow` session keeps up again.
  case onTime(session: String, t: Double)
  /// The session's world holds `limit` contacts; further overlapping pairs pass through.
  case contactLimit(session: String, t: Double, limit: Int)
  /// A behavior's action rule emitted a name (extension).
  case action(ActionEvent)

  /// The event's `ev` word.
  public var name: String { kind.rawValue }

  /// Which event this is, without its fields.
  public var kind: EventName {
    switch self {
    case .frame: return .frame
    case .contact: return .contact
    case .pause: return .pause
    case .resume: return .resume
    case .handoff: return .handoff
    case .done: return .done
    case .debug: return .debug
    case .closed: return .closed
    case .shutdown: return .shutdown
    case .slow: return .slow
    case .onTime: return .onTime
    case .contactLimit: return .contactLimit
    case .action: return .action
    }
  }

  /// The session the event is about (`nil` for `shutdown`).
  public var session: String? {
    switch self {
    case .frame(let f): return f.session
    case .contact(let c): return c.session
    case .handoff(let h): return h.session
    case .action(let a): return a.session
    case .pause(let s, _), .resume(let s, _), .done(let s, _, _), .debug(let s, _, _, _),
      .closed(let s, _), .slow(let s, _, _, _), .onTime(let s, _), .contactLimit(let s, _, _):
      return s
    case .shutdown: return nil
    }
  }
}

/// The `ev` words of the events this version defines.
public enum EventName: String, CaseIterable, Sendable {
  case frame, contact, pause, resume, handoff, done, debug, closed, shutdown, slow
  case onTime = "on_time"
  case contactLimit = "contact_limit"
  case action
}

/// `action` (extension): an `emit` effect of a behavior's action rule fired after the step
/// that ended at simulated time `t`. Sent to the session's watchers with frame `seq` (the frame
/// of that step, or the next frame written), never coalesced away.
public struct ActionEvent: Equatable, Sendable {
  public var session: String
  public var seq: UInt64
  public var t: Double
  /// The id of the behavior whose rule fired.
  public var behavior: String
  /// The name the `emit` effect gives.
  public var name: String
  /// The item the rule's condition watches; nil for `always`.
  public var item: String?

  public init(
    session: String, seq: UInt64, t: Double, behavior: String, name: String, item: String?
  ) {
    self.session = session
    self.seq = seq
    self.t = t
    self.behavior = behavior
    self.name = name
    self.item = item
  }
}

/// `frame`: the items after frame `seq` at animator time `t`.
public struct Frame: Equatable, Sendable {
  public var session: String
  public var seq: UInt64
  public var t: Double
  public var items: [ItemState]
  /// Frames coalesced away before this one for a slow reader.
  public var dropped: Int
  /// Contact events left out with them.
  public var droppedContacts: Int
  /// The transition's named values (`values`), if it has any.
  public var values: [NamedValue]

  public init(
    session: String, seq: UInt64, t: Double, items: [ItemState], dropped: Int = 0,
    droppedContacts: Int = 0, values: [NamedValue] = []
  ) {
    self.session = session
    self.seq = seq
    self.t = t
    self.items = items
    self.dropped = dropped
    self.droppedContacts = droppedContacts
    self.values = values
  }
}

/// `contact`: two things began or ended touching.
public struct Contact: Equatable, Sendable {
  public var session: String
  public var phase: ContactPhase
  public var item: String
  public var partner: ContactPartner
  /// Where they touch (on `began`).
  public var point: Point?

  public init(
    session: String, phase: ContactPhase, item: String, partner: ContactPartner,
    point: Point? = nil
  ) {
    self.session = session
    self.phase = phase
    self.item = item
    self.partner = partner
    self.point = point
  }
}

extension MessageEncoder {
  /// Writes `event` as one line.
  public mutating func encode(_ event: Event) {
    switch event {
    case .frame(let f):
      frame(
        session: f.session, seq: f.seq, t: f.t, items: f.items, dropped: f.dropped,
        droppedContacts: f.droppedContacts, values: f.values)
    case .contact(let c):
      contact(session: c.session, phase: c.phase, item: c.item, partner: c.partner, point: c.point)
    case .pause(let session, let t): pause(session: session, t: t)
    case .resume(let session, let t): resume(session: session, t: t)
    case .handoff(let h):
      handoff(
        session: h.session, item: h.item, gestureVelocity: h.gestureVelocity,
        itemVelocity: h.itemVelocity, constraints: h.constraints, velocityError: h.velocityError,
        estimate: h.estimate, projection: h.projection, decay: h.decay, detent: h.detent,
        spring: h.spring)
    case .done(let session, let outcome, let values):
      done(session: session, outcome: outcome, values: values)
    case .debug(let session, let seq, let t, let geometry):
      debug(session: session, seq: seq, t: t, geometry.replyFields)
    case .closed(let session, let reason): closed(session: session, reason: reason)
    case .shutdown(let reason): shutdown(reason: reason)
    case .slow(let session, let t, let frame, let budget):
      slow(session: session, t: t, frameMilliseconds: frame, budgetMilliseconds: budget)
    case .onTime(let session, let t): onTime(session: session, t: t)
    case .contactLimit(let session, let t, let limit):
      contactLimit(session: session, t: t, limit: limit)
    case .action(let a):
      action(
        session: a.session, seq: a.seq, t: a.t, behavior: a.behavior, name: a.name, item: a.item)
    }
  }
}
