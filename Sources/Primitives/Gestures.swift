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
}

/// Directions of a swipe.
public enum SwipeDirection: String, Sendable, CaseIterable {
  case left
  case right
  case up
  case down
}
