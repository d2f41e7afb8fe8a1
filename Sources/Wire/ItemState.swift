import Primitives

/// The state of one item as frames and replies report it:
/// `{"id","center":[x,y],"angle","velocity":[vx,vy],"angular_velocity"}`, plus `"size":[w,h]` in
/// `open` and `get` replies, and in `get` replies the item's `shape` (and `path`) unless it is
/// a rectangle.
public struct ItemState: Equatable, Sendable {
  public var id: String
  public var center: Point
  /// Radians, positive clockwise on screen.
  public var angle: Double
  /// pt/s.
  public var velocity: Vector
  /// rad/s.
  public var angularVelocity: Double
  /// Written only when a reply asks for sizes; sizes never change.
  public var size: Size
  /// Written only when a reply asks for shapes (`get`), and then only when not a rectangle;
  /// shapes never change.
  public var shape: ItemShape

  public init(
    id: String, center: Point, angle: Double = 0,
    velocity: Vector = Vector(dx: 0, dy: 0),
    angularVelocity: Double = 0, size: Size = Size(width: 0, height: 0),
    shape: ItemShape = .rectangle
  ) {
    self.id = id
    self.center = center
    self.angle = angle
    self.velocity = velocity
    self.angularVelocity = angularVelocity
    self.size = size
    self.shape = shape
  }
}

/// One entry of a `list` reply: `{"session","transition","clock","running"}`, and
/// `missed_ticks` for a realtime session.
/// A `list` reply: sessions in the order they were opened, and where the next page starts when
/// some were left for it.
public struct SessionPage: Equatable, Sendable {
  public var sessions: [SessionSummary]
  /// The `from` that lists the sessions after these (nil: none is left).
  public var next: Int?

  public init(_ sessions: [SessionSummary], next: Int? = nil) {
    self.sessions = sessions
    self.next = next
  }

  /// Bytes `summary` takes in a reply at most (a name's every byte may need escaping).
  public static func bytes(of summary: SessionSummary) -> Int {
    2 * (summary.session.utf8.count + (summary.transition?.utf8.count ?? 0)) + 100
  }
}

public struct SessionSummary: Equatable, Sendable {
  public var session: String
  /// The transition's name; `nil` (written `null`) for a session opened from a scene.
  public var transition: String?
  public var clock: Clock
  public var running: Bool
  /// Realtime only: ticks of the session's frame clock that gave it no frame (the clock woke
  /// late, or its previous frame was still being computed) since it opened.
  public var missedTicks: Int?

  public init(
    session: String, transition: String?, clock: Clock, running: Bool, missedTicks: Int? = nil
  ) {
    self.session = session
    self.transition = transition
    self.clock = clock
    self.running = running
    self.missedTicks = missedTicks
  }
}

/// A named number of a transition, such as `background_alpha`, carried by `frame` and `done`
/// in `"values":{…}`.
public struct NamedValue: Equatable, Sendable {
  public var name: String
  public var value: Double

  public init(_ name: String, _ value: Double) {
    self.name = name
    self.value = value
  }
}

/// The other side of a contact: an item, or a boundary (`nil` id for the reference bounds).
public enum ContactPartner: Hashable, Sendable {
  case item(String)
  case boundary(String?)
}

/// The phase of a contact event.
public enum ContactPhase: String, CaseIterable, Sendable {
  case began, ended
}
