/// The arithmetic of a timer that fires on a grid of absolute deadlines, as a display link does:
/// point n is due `n · period` after the timer started. A firing is for the latest point that has
/// passed, so a timer woken late fires once, covering every period since its previous firing,
/// instead of a burst. Shared by the daemon's libevent timer and the embedded test environment.
public struct TickGrid: Sendable {
  /// Nanoseconds between points (a period is rounded to whole nanoseconds).
  public let periodNanoseconds: Int64
  /// The point of the latest firing; 0 before the first.
  public private(set) var point: Int64 = 0

  public init(period: Duration) {
    periodNanoseconds = max(1, period.wholeNanoseconds)
  }

  /// Records a firing `elapsed` after the start and returns the periods it covers (1 when on
  /// time). A timer that wakes a hair early still fires the next point, never one twice.
  public mutating func fire(after elapsed: Duration) -> Int {
    let latest = max(point + 1, max(0, elapsed.wholeNanoseconds) / periodNanoseconds)
    defer { point = latest }
    return Int(latest - point)
  }

  /// When the next point is due, after the start.
  public var nextDeadline: Duration { .nanoseconds((point + 1) * periodNanoseconds) }
}

extension Duration {
  /// The duration in whole nanoseconds, rounded toward zero (exact, unlike `Duration / Duration`).
  public var wholeNanoseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}
