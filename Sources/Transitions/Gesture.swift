import Dynamics

/// The phase of a pan, as UIGestureRecognizer reports it.
public enum GesturePhase: String, Sendable, CaseIterable {
  case began
  case changed
  case ended
  case cancelled
}

/// One pan event: where the finger is, when (client clock, seconds), and for `ended` the release
/// velocity if the client measured it.
public struct GestureEvent: Sendable {
  public var phase: GesturePhase
  public var point: Point
  public var time: Double?
  public var velocity: Vector?
  public init(phase: GesturePhase, point: Point, time: Double? = nil, velocity: Vector? = nil) {
    self.phase = phase
    self.point = point
    self.time = time
    self.velocity = velocity
  }
}

/// Follows one pan: its first point, its samples, and the finger's velocity.
///
/// Samples carry the client's timestamps when it sends them; otherwise the caller's clock (the
/// animator's time) stands in. The velocity is the least-squares slope of position over time of
/// the samples in the last `window` seconds: exact for a finger moving at constant speed, and
/// less jumpy than the last two samples for a real one.
public struct GestureTracker: Sendable {
  /// How far back the velocity estimate looks (seconds).
  public static let window = 0.1
  public private(set) var start: Point?
  public private(set) var last: Point?
  private var samples: [(t: Double, p: Point)] = []

  public init() {}

  public var isActive: Bool { start != nil }

  /// Records an event at time `t`; `began` starts over.
  public mutating func record(_ phase: GesturePhase, _ point: Point, at t: Double) {
    if phase == .began || start == nil {
      start = point
      samples = []
    }
    last = point
    // Out-of-order or repeated timestamps would make the fit meaningless: keep the newest.
    if let previous = samples.last, t <= previous.t { samples.removeLast() }
    samples.append((t, point))
    samples.removeAll { $0.t < t - Self.window - 1e-9 }
  }

  /// The finger's velocity (pt/s) from the recent samples; zero with fewer than two.
  public var velocity: Vector {
    guard samples.count >= 2 else { return .zero }
    let n = Double(samples.count)
    let mt = samples.reduce(0) { $0 + $1.t } / n
    let mx = samples.reduce(0) { $0 + $1.p.x } / n
    let my = samples.reduce(0) { $0 + $1.p.y } / n
    var stt = 0.0
    var stx = 0.0
    var sty = 0.0
    for s in samples {
      let dt = s.t - mt
      stt += dt * dt
      stx += dt * (s.p.x - mx)
      sty += dt * (s.p.y - my)
    }
    guard stt > 0 else { return .zero }
    return Vector(dx: stx / stt, dy: sty / stt)
  }

  /// Forgets the pan.
  public mutating func reset() {
    start = nil
    last = nil
    samples = []
  }
}
