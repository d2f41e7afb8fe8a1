import Dynamics
import Primitives

/// Follows one pan: its first point, its samples, and the finger's velocity.
///
/// Samples carry the client's timestamps when it sends them; otherwise the caller's clock stands
/// in. The tracker keeps what both estimators need, so each request may choose its own.
///
/// **platform** (the default) — Android's `VelocityTracker` with its default `lsq2` strategy
/// (frameworks/native `libs/input/VelocityTracker.cpp`) and Flutter's `VelocityTracker`
/// (`packages/flutter/lib/src/gestures/velocity_tracker.dart`, `lsq_solver.dart`):
/// - the samples are the `began` and `changed` positions; `ended` adds none, whatever its
///   position (Android never adds `ACTION_UP`, whose position is the last move's; Flutter adds
///   only non-synthesized down and move events, and the engine synthesizes the move to an up
///   event's new position);
/// - a sample older than the newest kept one is dropped; one at the same time replaces it (as
///   Android's accumulating strategy does); a gap of more than 40 ms since the newest one means
///   the pointer had stopped, and the samples before the gap are forgotten (Android clears its
///   strategy; Flutter stops its walk back at such a gap);
/// - kept: the samples at most 100 ms older than the newest, at most the newest 20;
/// - the fit: per axis, a least-squares polynomial of position over time measured in seconds
///   from the newest sample, of degree 2, or 1 with only two samples (Android's
///   `min(2, count − 1)`); the velocity is its slope at the newest sample. Fewer than two
///   samples, or a fit whose columns are numerically dependent, give zero (both platforms);
/// - at `ended`: if the newest sample is more than 40 ms older than the lift-off, zero (Android's
///   `ASSUME_POINTER_STOPPED_TIME` at `ACTION_UP`; Flutter's 40 ms since the last sample).
///
/// **linear** — dynd's first estimator, unchanged: every event is a sample (`ended` included;
/// a sample at or before the newest replaces it), those at most 100 ms older than the newest are
/// kept, and the velocity is the least-squares slope of a straight line through them; zero with
/// fewer than two.
///
/// `estimate(_:)` also says which of these rules decided the velocity (`ReleaseEstimate`): each
/// way out of an estimator is exactly one reason.
public struct GestureTracker: Sendable {
  public private(set) var start: Point?
  public private(set) var last: Point?
  /// The `platform` estimate's samples (down and moves), oldest first.
  private var moves: [Sample] = []
  /// Whether the newest of `moves` had the client's timestamp.
  private var movesTimedByClient = true
  /// When the finger lifted, if it did, on the same clock as `moves`.
  private var liftOff: Double?
  /// The last gap between two moves that was long enough to empty `moves` (seconds).
  private var lastGap: Double?
  /// The `linear` estimate's samples, oldest first.
  private var stroke: [Sample] = []
  /// Whether the `linear` window has let samples of this pan go (they were too old).
  private var strokeLostOldSamples = false

  private struct Sample: Sendable {
    var t: Double
    var p: Point
  }

  public init() {}

  public var isActive: Bool { start != nil }

  /// Records an event at time `t`; `began` starts over. `timedByClient` says whether `t` is the
  /// client's timestamp or the caller's stand-in: a lift-off is checked against the samples only
  /// when both are on the same clock.
  public mutating func record(
    _ phase: GesturePhase, _ point: Point, at t: Double, timedByClient: Bool = true
  ) {
    if phase == .began || start == nil {
      start = point
      moves = []
      stroke = []
      strokeLostOldSamples = false
      liftOff = nil
      lastGap = nil
    }
    last = point
    recordStroke(point, at: t)
    switch phase {
    case .began, .changed:
      recordMove(point, at: t, timedByClient: timedByClient)
    case .ended:
      liftOff = timedByClient == movesTimedByClient ? t : nil
    case .cancelled:
      break
    }
  }

  /// The `linear` samples: today's rules, kept as they were.
  private mutating func recordStroke(_ point: Point, at t: Double) {
    // Out-of-order or repeated timestamps would make the fit meaningless: keep the newest.
    if let previous = stroke.last, t <= previous.t { stroke.removeLast() }
    stroke.append(Sample(t: t, p: point))
    let before = stroke.count
    stroke.removeAll { $0.t < t - VelocityEstimator.window - VelocityEstimator.slack }
    if stroke.count < before { strokeLostOldSamples = true }
  }

  /// The `platform` samples.
  private mutating func recordMove(_ point: Point, at t: Double, timedByClient: Bool) {
    liftOff = nil
    if let newest = moves.last {
      if t < newest.t { return }  // older than what the finger already reported: stale
      if t == newest.t {
        moves.removeLast()
      } else if t - newest.t > VelocityEstimator.stoppedAfter + VelocityEstimator.slack {
        moves = []  // the pointer had stopped: what came before says nothing about now
        lastGap = t - newest.t
      }
    }
    moves.append(Sample(t: t, p: point))
    movesTimedByClient = timedByClient
    if let first = moves.firstIndex(where: {
      $0.t >= t - VelocityEstimator.horizon - VelocityEstimator.slack
    }), first > 0 {
      moves.removeFirst(first)
    }
    if moves.count > VelocityEstimator.historySize {
      moves.removeFirst(moves.count - VelocityEstimator.historySize)
    }
  }

  /// The finger's velocity (pt/s) by the default estimator, `platform`.
  public var velocity: Vector { velocity(.platform) }

  /// The finger's velocity (pt/s) by `estimator`.
  public func velocity(_ estimator: VelocityEstimator) -> Vector {
    estimate(estimator).velocity
  }

  /// The finger's velocity (pt/s) by `estimator`, and which of its rules decided it.
  public func estimate(_ estimator: VelocityEstimator) -> (
    velocity: Vector, estimate: ReleaseEstimate
  ) {
    var (velocity, estimate) = estimator == .platform ? platformEstimate : linearEstimate
    // A fit against the pan's travel is kept, and said to be one.
    if estimate.reason == .estimated, let start, let last {
      let travel = last - start
      if travel.length >= 1, velocity.dx * travel.dx + velocity.dy * travel.dy < 0 {
        estimate.reason = .reversed
      }
    }
    return (velocity, estimate)
  }

  private var platformEstimate: (velocity: Vector, estimate: ReleaseEstimate) {
    let held = moves.count
    // The pointer still before lift-off comes first: then no sample says anything about now.
    if let newest = moves.last, let liftOff,
      liftOff - newest.t > VelocityEstimator.stoppedAfter + VelocityEstimator.slack
    {
      let still = (liftOff - newest.t) * 1000
      return (.zero, ReleaseEstimate(.pointerStopped, samples: held, stillMilliseconds: still))
    }
    guard let newest = moves.last, held >= 2 else {
      if let lastGap {
        return (
          .zero, ReleaseEstimate(.sparseSamples, samples: held, gapMilliseconds: lastGap * 1000)
        )
      }
      return (.zero, ReleaseEstimate(.tooFewSamples, samples: held))
    }
    // Time in seconds from the newest sample, positions from the newest one: the slope at 0 is
    // the velocity there, and neither a large clock reading nor a far position costs precision.
    let times = moves.map { $0.t - newest.t }
    let xs = moves.map { $0.p.x - newest.p.x }
    let ys = moves.map { $0.p.y - newest.p.y }
    let degree = min(VelocityEstimator.degree, moves.count - 1)
    guard let slopes = PolynomialFit.slopesAtZero(times: times, series: [xs, ys], degree: degree)
    else { return (.zero, ReleaseEstimate(.degenerateFit, samples: held)) }
    return (Vector(dx: slopes[0], dy: slopes[1]), ReleaseEstimate(.estimated, samples: held))
  }

  private var linearEstimate: (velocity: Vector, estimate: ReleaseEstimate) {
    let held = stroke.count
    guard held >= 2 else {
      let reason: ReleaseEstimate.Reason = strokeLostOldSamples ? .staleSamples : .tooFewSamples
      return (.zero, ReleaseEstimate(reason, samples: held))
    }
    let n = Double(stroke.count)
    let mt = stroke.reduce(0) { $0 + $1.t } / n
    let mx = stroke.reduce(0) { $0 + $1.p.x } / n
    let my = stroke.reduce(0) { $0 + $1.p.y } / n
    var stt = 0.0
    var stx = 0.0
    var sty = 0.0
    for s in stroke {
      let dt = s.t - mt
      stt += dt * dt
      stx += dt * (s.p.x - mx)
      sty += dt * (s.p.y - my)
    }
    guard stt > 0 else { return (.zero, ReleaseEstimate(.degenerateFit, samples: held)) }
    return (Vector(dx: stx / stt, dy: sty / stt), ReleaseEstimate(.estimated, samples: held))
  }

  /// Forgets the pan.
  public mutating func reset() {
    start = nil
    last = nil
    moves = []
    movesTimedByClient = true
    liftOff = nil
    lastGap = nil
    stroke = []
    strokeLostOldSamples = false
  }
}

/// Least-squares polynomials through a few points, by a QR factorization.
enum PolynomialFit {
  /// Fits, for each of `series`, the polynomial c₀ + c₁·τ + … + c_d·τ^d (d = `degree`) that
  /// minimizes the squared residuals at `times`, and returns each c₁: the slope at τ = 0.
  /// `nil` when the columns 1, τ, …, τ^d are numerically dependent (too few distinct times).
  ///
  /// The design matrix is factored as Q·R by modified Gram–Schmidt (columns orthonormalized one
  /// by one, each against the finished ones), then R·c = Qᵀ·y is solved from the bottom up. A
  /// column is dependent when what is left of it after the projections is below 1e-9 of its
  /// length. With τ in seconds (|τ| ≤ 0.1) the columns differ in scale by at most 10⁴, well
  /// within double precision.
  static func slopesAtZero(times: [Double], series: [[Double]], degree: Int) -> [Double]? {
    let m = times.count
    let n = degree + 1
    guard degree >= 1, m >= n, series.allSatisfy({ $0.count == m }) else { return nil }
    // a[j] = column j of the design matrix: τ^j.
    var a: [[Double]] = [Array(repeating: 1, count: m)]
    for j in 1..<n { a.append(zip(a[j - 1], times).map { $0 * $1 }) }
    var q: [[Double]] = []
    var r = Array(repeating: Array(repeating: 0.0, count: n), count: n)
    for j in 0..<n {
      var v = a[j]
      for i in 0..<j {
        let projection = dot(q[i], v)
        r[i][j] = projection
        for h in 0..<m { v[h] -= projection * q[i][h] }
      }
      let length = dot(v, v).squareRoot()
      guard length > VelocityEstimator.dependence * dot(a[j], a[j]).squareRoot(), length.isFinite
      else { return nil }
      r[j][j] = length
      q.append(v.map { $0 / length })
    }
    return series.map { y in
      var c = Array(repeating: 0.0, count: n)
      for i in stride(from: n - 1, through: 0, by: -1) {
        var sum = dot(q[i], y)
        for k in (i + 1)..<n { sum -= r[i][k] * c[k] }
        c[i] = sum / r[i][i]
      }
      return c[1]
    }
  }

  private static func dot(_ u: [Double], _ v: [Double]) -> Double {
    zip(u, v).reduce(0) { $0 + $1.0 * $1.1 }
  }
}
