// Plain geometry values as they appear on the wire. They carry a `Wire` prefix because the
// `Dynamics` module has its own `Point`, `Vector`, … and the daemon imports both.

/// A point `[x, y]` in reference coordinates (points, origin top-left, y down).
public struct WirePoint: Equatable, Sendable {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A vector `[dx, dy]`: a direction, an offset or a velocity (pt/s).
public struct WireVector: Equatable, Sendable {
  public var dx: Double
  public var dy: Double

  public init(dx: Double, dy: Double) {
    self.dx = dx
    self.dy = dy
  }
}

/// A size `[w, h]` in points.
public struct WireSize: Equatable, Sendable {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// A rectangle `[x, y, w, h]`: origin (top-left) and size.
public struct WireRect: Equatable, Sendable {
  public var origin: WirePoint
  public var size: WireSize

  public init(x: Double, y: Double, width: Double, height: Double) {
    origin = WirePoint(x: x, y: y)
    size = WireSize(width: width, height: height)
  }
}

/// Insets `[top, left, bottom, right]` from the reference bounds (negative insets extend them).
public struct WireInsets: Equatable, Sendable {
  public var top: Double
  public var left: Double
  public var bottom: Double
  public var right: Double

  public init(top: Double, left: Double, bottom: Double, right: Double) {
    self.top = top
    self.left = left
    self.bottom = bottom
    self.right = right
  }
}

/// A closed interval `[min, max]` (UIFloatRange); an omitted range means unlimited.
public struct WireRange: Equatable, Sendable {
  public var minimum: Double
  public var maximum: Double

  public init(minimum: Double, maximum: Double) {
    self.minimum = minimum
    self.maximum = maximum
  }
}

/// What made a `handoff`'s item velocity differ from the finger's (its `constraints`).
public enum HandoffConstraint: Equatable, Sendable {
  /// A rail: only motion along `axis` (a unit vector) remains.
  case rail(axis: WireVector)
  /// The item is anchored and does not move.
  case anchored
  /// The engine's speed limit, pt/s.
  case speedLimit(Double)

  /// The `kind` written on the wire.
  public var kind: String {
    switch self {
    case .rail: return "rail"
    case .anchored: return "anchored"
    case .speedLimit: return "speed_limit"
    }
  }
}
