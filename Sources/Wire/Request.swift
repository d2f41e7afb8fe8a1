import Primitives

/// One decoded request line: the client's `id` and the operation it asks for.
public struct Request: Equatable, Sendable {
  /// The request's `id`, echoed in the reply; `nil` when the request has none.
  public var id: RequestID?
  /// The operation and its fields.
  public var op: Op

  public init(id: RequestID?, op: Op) {
    self.id = id
    self.op = op
  }
}

/// A request `id` as sent: a string, or a number kept as its JSON text so that the reply echoes
/// it unchanged (`1e2` stays `1e2`; the one exception is an integer `-0`, echoed as `0`).
public enum RequestID: Hashable, Sendable {
  case string(String)
  /// The number's JSON text, e.g. `7`, `1e2`, `2.50`.
  case number(String)
}

/// A request that could not be decoded: the error to reply with, and the id to echo if the line
/// got far enough to have a valid one.
public struct RejectedRequest: Error, Equatable, Sendable {
  public var id: RequestID?
  public var error: ProtocolError

  public init(id: RequestID?, error: ProtocolError) {
    self.id = id
    self.error = error
  }
}

/// The operations of protocol version 1, one case per `op`.
public enum Op: Equatable, Sendable {
  /// `hello`: the daemon describes itself.
  case hello
  /// `open`: start a session from a transition or a scene.
  case open(OpenRequest)
  /// `gesture`: one sample of a pan.
  case gesture(GestureRequest)
  /// `tap`: a tap at a point.
  case tap(TapRequest)
  /// `swipe`: a swipe in a direction.
  case swipe(SwipeRequest)
  /// `step`: advance a manual-clock session.
  case step(StepRequest)
  /// `get`: the session's time, running state and items.
  case get(session: String)
  /// `watch`: also send this session's events to this connection.
  case watch(session: String)
  /// `debug`: with each frame of the session this connection receives, also send the behaviors
  /// as geometry (or stop, with `enable` false).
  case debug(session: String, enable: Bool)
  /// `close`: end the session.
  case close(session: String)
  /// `list`: the open sessions, a page at a time.
  case list(ListRequest)
  /// `add_item`: add an item to a scene session.
  case addItem(session: String, item: ItemSpec)
  /// `remove_item`: remove an item by id.
  case removeItem(session: String, item: String)
  /// `add_behavior`: add a behavior; the reply carries its id.
  case addBehavior(session: String, behavior: BehaviorSpec)
  /// `remove_behavior`: remove a behavior by id.
  case removeBehavior(session: String, behavior: String)
  /// `remove_all_behaviors`: remove every behavior.
  case removeAllBehaviors(session: String)
  /// `set_behavior`: change settable fields of a behavior.
  case setBehavior(SetBehaviorRequest)
  /// `set_item`: move or turn an item (the animator re-reads its state).
  case setItem(SetItemRequest)
  /// `add_velocity`: add linear and angular velocity to an item.
  case addVelocity(AddVelocityRequest)
  /// `behaviors` (extension): a scene's behaviors, each with the current value of every field
  /// `set_behavior` can set.
  case behaviors(session: String)
  /// `add_group` (extension): add an item group; its members move as one rigid body from then on.
  case addGroup(session: String, group: GroupSpec)
  /// `remove_group` (extension): remove an item group by id; its members move on their own.
  case removeGroup(session: String, group: String)
  /// `items_in_rect` (extension): the ids of the items whose frames meet `rect` `[x, y, w, h]`
  /// (UIDynamicAnimator itemsInRect:; `w`, `h` in `Limits.selectionSide`).
  case itemsInRect(session: String, rect: Rect)
  /// `set_bounds` (extension): new reference bounds, `[w, h]` or `[x, y, w, h]` as a scene's.
  /// `null` removes them (an animator without reference bounds).
  case setBounds(session: String, bounds: Rect?)

  /// The `op` word on the wire (`OpName` is the one list of them).
  public var name: String { kind.rawValue }

  /// Which operation this is, without its fields.
  public var kind: OpName {
    switch self {
    case .hello: return .hello
    case .open: return .open
    case .gesture: return .gesture
    case .tap: return .tap
    case .swipe: return .swipe
    case .step: return .step
    case .get: return .get
    case .watch: return .watch
    case .debug: return .debug
    case .close: return .close
    case .list: return .list
    case .addItem: return .addItem
    case .removeItem: return .removeItem
    case .addBehavior: return .addBehavior
    case .removeBehavior: return .removeBehavior
    case .removeAllBehaviors: return .removeAllBehaviors
    case .setBehavior: return .setBehavior
    case .setItem: return .setItem
    case .addVelocity: return .addVelocity
    case .behaviors: return .behaviors
    case .addGroup: return .addGroup
    case .removeGroup: return .removeGroup
    case .itemsInRect: return .itemsInRect
    case .setBounds: return .setBounds
    }
  }

  /// The session the operation addresses (`nil` for `hello`, `list`, and `open`, whose session
  /// may be assigned by the daemon).
  public var session: String? {
    switch self {
    case .hello, .list, .open: return nil
    case .gesture(let request): return request.session
    case .tap(let request): return request.session
    case .swipe(let request): return request.session
    case .step(let request): return request.session
    case .debug(let session, _): return session
    case .get(let session), .watch(let session), .close(let session),
      .removeAllBehaviors(let session), .behaviors(let session):
      return session
    case .addItem(let session, _), .removeItem(let session, _), .addBehavior(let session, _),
      .removeBehavior(let session, _), .addGroup(let session, _), .removeGroup(let session, _),
      .itemsInRect(let session, _), .setBounds(let session, _):
      return session
    case .setBehavior(let request): return request.session
    case .setItem(let request): return request.session
    case .addVelocity(let request): return request.session
    }
  }
}

/// `open`: a named transition with its params, or a scene.
public struct OpenRequest: Equatable, Sendable {
  /// What the session animates.
  public enum Source: Equatable, Sendable {
    /// A named transition (`unknown_transition` is the daemon's to check) and its parameters.
    case transition(name: String, params: TransitionParams)
    /// A scene built from items and behaviors.
    case scene(SceneSpec)
  }

  public var source: Source
  /// The requested session name; `nil` lets the daemon assign one.
  public var session: String?
  public var clock: Clock
  /// Frames per second, in `Limits.fps` (default `Limits.defaultFPS`).
  public var fps: Double
  /// Whether the session outlives the connection that opened it.
  public var keep: Bool

  public init(
    source: Source, session: String? = nil, clock: Clock = .realtime,
    fps: Double = Limits.defaultFPS, keep: Bool = false
  ) {
    self.source = source
    self.session = session
    self.clock = clock
    self.fps = fps
    self.keep = keep
  }
}

/// How a session's time advances.
public enum Clock: String, CaseIterable, Sendable {
  /// The daemon steps on its own timer and streams frames while the animator runs.
  case realtime
  /// Nothing moves until `step`; output is byte-identical for the same requests.
  case manual
}

/// `gesture`: one sample of a pan.
public struct GestureRequest: Equatable, Sendable {
  public var session: String
  public var phase: GesturePhase
  /// The finger position.
  public var point: Point
  /// The sample time on the client's clock, in seconds.
  public var t: Double?
  /// The finger velocity (`vx`, `vy`, sent together). On `ended` it is the release velocity; when
  /// absent there, the daemon estimates it from the recent samples.
  public var velocity: Vector?
  /// `estimator`: how the daemon estimates the finger's velocity for this request (at `changed`,
  /// and the release velocity at `ended` without `vx`, `vy`); `.platform` when absent.
  public var estimator: VelocityEstimator

  public init(
    session: String, phase: GesturePhase, point: Point, t: Double? = nil,
    velocity: Vector? = nil, estimator: VelocityEstimator = .platform
  ) {
    self.session = session
    self.phase = phase
    self.point = point
    self.t = t
    self.velocity = velocity
    self.estimator = estimator
  }
}

/// `tap`: a tap at a point.
public struct TapRequest: Equatable, Sendable {
  public var session: String
  public var point: Point

  public init(session: String, point: Point) {
    self.session = session
    self.point = point
  }
}

/// `swipe`: a swipe, optionally with where it started and how fast it went.
public struct SwipeRequest: Equatable, Sendable {
  public var session: String
  public var direction: SwipeDirection
  /// `x`, `y` (sent together).
  public var point: Point?
  /// `vx`, `vy` (sent together).
  public var velocity: Vector?

  public init(
    session: String, direction: SwipeDirection, point: Point? = nil,
    velocity: Vector? = nil
  ) {
    self.session = session
    self.direction = direction
    self.point = point
    self.velocity = velocity
  }
}

/// `step`: advance a manual session by `count` frames of `dt` seconds.
public struct StepRequest: Equatable, Sendable {
  public var session: String
  /// Seconds per frame, in `Limits.stepDuration`; `nil` means 1/fps of the session.
  public var dt: Double?
  /// Frames to run, in `Limits.stepCount` (default 1).
  public var count: Int

  public init(session: String, dt: Double? = nil, count: Int = 1) {
    self.session = session
    self.dt = dt
    self.count = count
  }

  /// Seconds of animator time the request covers in a session running at `fps`.
  public func span(fps: Double) -> Double {
    (dt ?? 1 / fps) * Double(count)
  }

  /// Throws `out_of_range` when the request covers more than `Limits.maxStepSpan` seconds. The
  /// decoder checks this when `dt` is given; without `dt` only the session knows its fps, so the
  /// daemon calls this before stepping.
  public func check(fps: Double) throws(ProtocolError) {
    let span = span(fps: fps)
    guard span <= Limits.maxStepSpan else {
      throw ProtocolError(
        .outOfRange,
        "a step of count × dt = \(plainNumber(span)) s is longer than the limit of "
          + "\(plainNumber(Limits.maxStepSpan)) s per request")
    }
  }
}

/// `set_behavior`: new values for settable fields of one behavior.
public struct SetBehaviorRequest: Equatable, Sendable {
  public var session: String
  /// The behavior's id.
  public var behavior: String
  /// The fields to set; call `update.check(for:)` once the behavior's type is known.
  public var update: BehaviorUpdate

  public init(session: String, behavior: String, update: BehaviorUpdate) {
    self.session = session
    self.behavior = behavior
    self.update = update
  }
}

/// `set_item`: move and/or turn an item; with neither it only re-reads the item's state.
public struct SetItemRequest: Equatable, Sendable {
  public var session: String
  public var item: String
  public var center: Point?
  public var angle: Double?

  public init(session: String, item: String, center: Point? = nil, angle: Double? = nil) {
    self.session = session
    self.item = item
    self.center = center
    self.angle = angle
  }
}

/// `add_velocity`: add to an item's velocity (UIDynamicItemBehavior addLinearVelocity and
/// addAngularVelocity).
public struct AddVelocityRequest: Equatable, Sendable {
  public var session: String
  public var item: String
  /// Linear velocity to add, pt/s.
  public var velocity: Vector?
  /// Angular velocity to add, rad/s.
  public var angular: Double?

  public init(session: String, item: String, velocity: Vector? = nil, angular: Double? = nil) {
    self.session = session
    self.item = item
    self.velocity = velocity
    self.angular = angular
  }
}

/// `list`'s fields (extension): where the page starts and how long it may be.
public struct ListRequest: Equatable, Sendable {
  /// The first session listed is the first opened at or after this opening number (the `next`
  /// of an earlier reply; 0, the default, is the beginning).
  public var from: Int
  /// Sessions in the reply at most (nil: as many as `Limits.maxListBytes` holds).
  public var limit: Int?

  public init(from: Int = 0, limit: Int? = nil) {
    self.from = from
    self.limit = limit
  }
}
