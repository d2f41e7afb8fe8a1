/// The phase of a pan, as UIGestureRecognizer reports it (a `gesture` request's `phase`).
public enum GesturePhase: String, Sendable, CaseIterable {
  case began
  case changed
  case ended
  case cancelled
}

/// How a finger's velocity is estimated from the samples of a pan (a `gesture`'s `estimator`).
public enum VelocityEstimator: String, Sendable, CaseIterable {
  /// What Android's `VelocityTracker` (its default `lsq2` strategy) and Flutter's
  /// `VelocityTracker` do: a least-squares parabola through the down and move samples of the
  /// last 100 ms (at most 20), differentiated at the newest one; the lift-off is not a sample,
  /// and a pointer that stood still for more than 40 ms has no velocity.
  case platform
  /// dynd's first estimator: the least-squares slope of a straight line through every sample of
  /// the last 100 ms, the lift-off included.
  case linear

  /// How far back the `platform` estimate looks (seconds): Android's `HORIZON`, Flutter's
  /// `_horizonMilliseconds`. These constants are defined once, here: the tracker (Transitions'
  /// `GestureTracker`) runs with them, and the pages' estimator (`finger-velocity.js`), the
  /// handoff's sentences (`HandoffWords`) and the protocol's description are given them.
  public static let horizon = 0.1
  /// The most samples the `platform` estimate uses: Android's `HISTORY_SIZE`, Flutter's
  /// `_historySize`.
  public static let historySize = 20
  /// A pause longer than this (seconds) means the pointer stopped: Android's
  /// `ASSUME_POINTER_STOPPED_TIME`, Flutter's `_assumePointerMoveStoppedMilliseconds`.
  public static let stoppedAfter = 0.04
  /// The fitted polynomial's degree (Android's `lsq2`; Flutter's `solve(2)`).
  public static let degree = 2
  /// How far back the `linear` estimate looks (seconds).
  public static let window = 0.1
  /// Slack (seconds) for times compared against the constants above, so that rounding in
  /// timestamps such as `i / 60` does not move a sample across a limit: 1 ns, the platforms'
  /// time resolution.
  public static let slack = 1e-9
  /// A column of the least-squares fit whose part independent of the others is below this
  /// fraction of its length makes the fit degenerate (reason `degenerate_fit`).
  public static let dependence = 1e-9
  /// The fastest release velocity an estimate may give, pt/s (`PropertyRanges.velocity`): a
  /// faster one is scaled down to it (reason `limited`). Samples a nanosecond apart would
  /// otherwise estimate 10⁹ pt/s and more.
  public static let maxSpeed = PropertyRanges.velocity.upperBound
}

/// Directions of a swipe.
public enum SwipeDirection: String, Sendable, CaseIterable {
  case left
  case right
  case up
  case down
}

/// One sample of a pan: where the finger is, when (the client's clock, seconds), for `ended` the
/// release velocity if the client measured it, and which estimator computes the velocity
/// otherwise. The `gesture` op carries one (`GestureRequest.sample`) and a transition takes it as
/// it is (`Transition.handle`).
public struct GestureSample: Equatable, Sendable {
  public var phase: GesturePhase
  public var point: Point
  /// The sample's time on the client's clock, in seconds; nil: the daemon times it.
  public var time: Double?
  /// The finger velocity (`vx`, `vy`, sent together). On `ended` it is the release velocity; when
  /// absent there, the daemon estimates it from the recent samples.
  public var velocity: Vector?
  /// How the daemon estimates the finger's velocity (at `changed`, and the release velocity at
  /// `ended` without `velocity`).
  public var estimator: VelocityEstimator

  public init(
    phase: GesturePhase, point: Point, time: Double? = nil, velocity: Vector? = nil,
    estimator: VelocityEstimator = .platform
  ) {
    self.phase = phase
    self.point = point
    self.time = time
    self.velocity = velocity
    self.estimator = estimator
  }
}
