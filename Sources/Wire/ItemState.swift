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
