/// How a release velocity was estimated from a pan's samples, and why it is zero or smaller
/// than the fit when it is (a `handoff`'s `estimate`). Only for a velocity dynd estimated: a
/// velocity the client gave (`vx`, `vy`) has none.
public struct ReleaseEstimate: Equatable, Sendable {
  /// What the estimator did. Each of its ways out is exactly one of these.
  public enum Reason: String, Sendable, CaseIterable {
    /// The velocity is the fit through `samples` samples of the horizon (it may be zero: a
    /// finger that stood still within the horizon without lifting).
    case estimated
    /// Zero: the pointer had not moved for more than 40 ms when it lifted (`platform` only).
    case pointerStopped = "pointer_stopped"
    /// Zero: fewer than two usable samples (a pan without moves).
    case tooFewSamples = "too_few_samples"
    /// Zero: the moves came further apart than the 40 ms after which the estimator takes the
    /// pointer to have stopped, so each began the estimate afresh and it never held two
    /// (`platform` only; `gapMilliseconds` is the last gap).
    case sparseSamples = "sparse_samples"
    /// Zero: the samples before the newest were older than the horizon (`linear`: the lift-off
    /// came more than 100 ms after the last move).
    case staleSamples = "stale_samples"
    /// Zero: the samples' times are too close together for the fit (its columns are
    /// numerically dependent).
    case degenerateFit = "degenerate_fit"
    /// The fit was faster than the protocol's bound and was scaled down to it, in its
    /// direction.
    case limited
    /// The fit, which points back against the pan's travel: its last samples reversed the
    /// motion, and a least-squares fit follows them. The velocity is kept.
    case reversed
  }

  public var reason: Reason
  /// How many samples the estimator held within its horizon at the release: those it fitted,
  /// or would have fitted but for `reason` (0 when none).
  public var samples: Int
  /// For `pointerStopped`: how long the pointer stood still before lifting, in milliseconds.
  public var stillMilliseconds: Double?
  /// For `sparseSamples`: the gap between the last two moves, in milliseconds.
  public var gapMilliseconds: Double?

  public init(
    _ reason: Reason, samples: Int, stillMilliseconds: Double? = nil,
    gapMilliseconds: Double? = nil
  ) {
    self.reason = reason
    self.samples = samples
    self.stillMilliseconds = stillMilliseconds
    self.gapMilliseconds = gapMilliseconds
  }
}
