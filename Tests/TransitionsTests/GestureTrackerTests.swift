import Dynamics
import Primitives
import Testing

@testable import Transitions

@Suite("Gesture tracker")
struct GestureTrackerTests {
  /// Records `began` at the first sample and `changed` at the others.
  static func drag(_ samples: [(Double, Point)]) -> GestureTracker {
    var tracker = GestureTracker()
    for (i, s) in samples.enumerated() { tracker.record(i == 0 ? .began : .changed, s.1, at: s.0) }
    return tracker
  }

  /// A point moving from `p0` at `v0` with constant acceleration `a`, at `t`.
  static func motion(_ p0: Point, _ v0: Vector, _ a: Vector, at t: Double) -> Point {
    Point(x: p0.x + v0.dx * t + a.dx * t * t / 2, y: p0.y + v0.dy * t + a.dy * t * t / 2)
  }

  static func close(_ v: Vector, _ w: Vector, within tolerance: Double = 1e-6) -> Bool {
    abs(v.dx - w.dx) < tolerance && abs(v.dy - w.dy) < tolerance
  }

  /// A finger at a constant speed, sampled at 60 Hz: both estimators give that speed (to 1e-6).
  @Test(arguments: [Vector(dx: 0, dy: -800), Vector(dx: 350, dy: 120), Vector(dx: -2500, dy: 0)])
  func recoversAConstantSpeed(v: Vector) {
    let tracker = Self.drag(
      (0..<30).map { i in
        let t = Double(i) / 60
        return (t, Point(x: 100 + v.dx * t, y: 300 + v.dy * t))
      })
    #expect(Self.close(tracker.velocity, v), "platform \(tracker.velocity)")
    #expect(Self.close(tracker.velocity(.linear), v), "linear \(tracker.velocity(.linear))")
  }

  /// Constant acceleration, sampled at 60 and 120 Hz: the parabola is exact, v0 + a·t at the
  /// newest sample. The straight line gives the velocity at the middle of its 100 ms window.
  @Test(arguments: [60.0, 120.0])
  func recoversAConstantAcceleration(hz: Double) {
    // 0 → 2000 pt/s over 150 ms along x, and a second motion along y.
    let v0 = Vector(dx: 0, dy: 250)
    let a = Vector(dx: 2000 / 0.15, dy: -6000)
    let p0 = Point(x: 10, y: 400)
    let n = Int((0.15 * hz).rounded())
    let samples = (0...n).map { i in (Double(i) / hz, Self.motion(p0, v0, a, at: Double(i) / hz)) }
    var tracker = Self.drag(samples)
    let last = samples[n]
    let truth = Vector(dx: v0.dx + a.dx * last.0, dy: v0.dy + a.dy * last.0)
    #expect(Self.close(truth, Vector(dx: 2000, dy: -650)))
    #expect(Self.close(tracker.velocity, truth), "platform \(tracker.velocity)")
    // The release at the last sample changes nothing.
    tracker.record(.ended, last.1, at: last.0)
    #expect(Self.close(tracker.velocity, truth), "platform at release \(tracker.velocity)")
    let middle = last.0 - VelocityEstimator.window / 2
    let lagging = Vector(dx: v0.dx + a.dx * middle, dy: v0.dy + a.dy * middle)
    #expect(Self.close(tracker.velocity(.linear), lagging), "linear \(tracker.velocity(.linear))")
  }

  /// A 1200 pt/s drag sampled at 60 Hz, lifted one frame after its last sample at that sample's
  /// position (the touch's last known position, as Android's ACTION_UP reports it): the platform
  /// estimate ignores the repeated point and gives 1200; the straight line counts it as a sample
  /// and gives 1200 × 25/28 ≈ 1071.4.
  @Test func ignoresTheRepeatedLiftOffPoint() {
    let samples = (0...12).map { i in (Double(i) / 60, Point(x: 20 + 20 * Double(i), y: 300)) }
    var tracker = Self.drag(samples)
    tracker.record(.ended, samples[12].1, at: 13.0 / 60)
    #expect(Self.close(tracker.velocity, Vector(dx: 1200, dy: 0)), "\(tracker.velocity)")
    #expect(
      Self.close(tracker.velocity(.linear), Vector(dx: 1200.0 * 25 / 28, dy: 0)),
      "\(tracker.velocity(.linear))")
    #expect(abs(tracker.velocity(.linear).dx - 1071.4) < 0.05)
  }

  /// An `ended` at a new position is not a sample either (Flutter's engine turns it into a
  /// synthesized move, which its drag recognizer does not track); the line counts it.
  @Test func anEndedAtANewPositionIsNotASample() {
    let samples = (0...6).map { i in (Double(i) / 60, Point(x: 10 * Double(i), y: 0)) }
    var tracker = Self.drag(samples)
    tracker.record(.ended, Point(x: 200, y: 0), at: 7.0 / 60)
    #expect(Self.close(tracker.velocity, Vector(dx: 600, dy: 0)), "\(tracker.velocity)")
    #expect(tracker.velocity(.linear).dx > 1000, "\(tracker.velocity(.linear))")
    #expect(tracker.last == Point(x: 200, y: 0))
  }

  /// A finger that stood still for 50 ms before lifting: zero. 30 ms, or exactly 40 ms: not a
  /// pause (Android compares with `>`, so does Flutter).
  @Test(arguments: [(0.05, true), (0.03, false), (0.04, false)])
  func aPauseBeforeLiftOffGivesZero(pause: Double, stopped: Bool) {
    let samples = (0...12).map { i in (Double(i) / 60, Point(x: 20 * Double(i), y: 300)) }
    var tracker = Self.drag(samples)
    tracker.record(.ended, samples[12].1, at: 0.2 + pause)
    let expected = stopped ? Vector.zero : Vector(dx: 1200, dy: 0)
    #expect(Self.close(tracker.velocity, expected), "after \(pause) s: \(tracker.velocity)")
  }

  /// A gap of more than 40 ms between two moves: what came before it is forgotten, as Android
  /// clears its strategy and Flutter stops looking back there. Samples 40 ms apart (25 Hz) are
  /// not gaps.
  @Test func aGapBetweenMovesForgetsWhatCameBefore() {
    var samples = (0...6).map { i in (Double(i) / 60, Point(x: 20 * Double(i), y: 0)) }
    var tracker = Self.drag(samples)
    #expect(Self.close(tracker.velocity, Vector(dx: 1200, dy: 0)))
    // 50 ms later the finger moves again, at 300 pt/s.
    tracker.record(.changed, Point(x: 130, y: 0), at: 0.15)
    #expect(tracker.velocity == .zero, "one sample after the gap")
    tracker.record(.changed, Point(x: 135, y: 0), at: 0.15 + 1.0 / 60)
    #expect(Self.close(tracker.velocity, Vector(dx: 300, dy: 0)), "\(tracker.velocity)")

    samples = (0...5).map { i in (Double(i) * 0.04, Point(x: 0, y: -40 * Double(i))) }
    tracker = Self.drag(samples)
    #expect(Self.close(tracker.velocity, Vector(dx: 0, dy: -1000)), "25 Hz: \(tracker.velocity)")
  }

  /// Out-of-order and duplicate timestamps: a sample older than the newest is dropped (it is
  /// stale); one at the newest's time replaces it, as Android's strategy does.
  @Test func outOfOrderAndDuplicateTimestamps() {
    let samples = (0...6).map { i in (Double(i) / 60, Point(x: 10 * Double(i), y: 0)) }
    var tracker = Self.drag(samples)
    #expect(Self.close(tracker.velocity, Vector(dx: 600, dy: 0)))
    tracker.record(.changed, Point(x: 500, y: 500), at: 5.5 / 60)  // late: dropped
    #expect(Self.close(tracker.velocity, Vector(dx: 600, dy: 0)), "\(tracker.velocity)")
    tracker.record(.changed, Point(x: 500, y: 500), at: 1.0 / 60)  // much later: dropped
    #expect(Self.close(tracker.velocity, Vector(dx: 600, dy: 0)), "\(tracker.velocity)")
    // The newest sample (x 60 at 6/60) is replaced by x 66 at the same time: the parabola
    // through 0, 10, …, 50, 66 at 1/60 s steps.
    tracker.record(.changed, Point(x: 66, y: 0), at: 6.0 / 60)
    let v = tracker.velocity
    #expect(abs(v.dx - 767.142_857) < 1e-5 && abs(v.dy) < 1e-9, "\(v)")
    let replaced = Self.drag(Array(samples.dropLast()) + [(6.0 / 60, Point(x: 66, y: 0))])
    #expect(Self.close(v, replaced.velocity), "\(v) vs \(replaced.velocity)")
  }

  /// The straight line's rules are unchanged: a sample at or before the newest replaces it.
  @Test func linearKeepsItsRules() {
    var tracker = GestureTracker()
    tracker.record(.began, Point(x: 0, y: 0), at: 1)
    #expect(tracker.velocity(.linear) == .zero && tracker.velocity == .zero)
    tracker.record(.changed, Point(x: 10, y: 0), at: 1)  // same time: replaces
    #expect(tracker.velocity(.linear) == .zero && tracker.velocity == .zero)
    tracker.record(.changed, Point(x: 20, y: 0), at: 1.02)
    #expect(Self.close(tracker.velocity(.linear), Vector(dx: 500, dy: 0)))
    #expect(Self.close(tracker.velocity, Vector(dx: 500, dy: 0)))
    tracker.record(.changed, Point(x: 40, y: 0), at: 1.01)  // earlier: replaces the newest
    #expect(Self.close(tracker.velocity(.linear), Vector(dx: 3000, dy: 0)))
    #expect(Self.close(tracker.velocity, Vector(dx: 500, dy: 0)), "platform drops it")
    tracker.reset()
    #expect(!tracker.isActive)
    #expect(tracker.velocity == .zero && tracker.velocity(.linear) == .zero)
  }

  /// Samples without the client's `t` carry the caller's stand-in (the daemon's arrival time on a
  /// realtime session); they fit like any others. A lift-off is checked against them only when
  /// it is on the same clock.
  @Test func samplesTimedByArrival() {
    let arrivals = [5.000, 5.017, 5.034, 5.049, 5.066]  // seconds, uneven as arrivals are
    var tracker = GestureTracker()
    for (i, t) in arrivals.enumerated() {
      tracker.record(
        i == 0 ? .began : .changed, Point(x: 100, y: 500 - 900 * (t - 5)), at: t,
        timedByClient: false)
    }
    #expect(Self.close(tracker.velocity, Vector(dx: 0, dy: -900)), "\(tracker.velocity)")
    // Lifted 60 ms after the last arrival, both without `t`: the finger had stopped.
    var late = tracker
    late.record(.ended, Point(x: 100, y: 440.6), at: 5.126, timedByClient: false)
    #expect(late.velocity == .zero)
    // An `ended` with the client's `t` is on another clock: no pause can be measured.
    var other = tracker
    other.record(.ended, Point(x: 100, y: 440.6), at: 0.3)
    #expect(Self.close(other.velocity, Vector(dx: 0, dy: -900)), "\(other.velocity)")
  }

  /// Through a transition: events without `time` take `now`, and each event's estimator gives
  /// the velocity passed on for it, at `changed` and at `ended`.
  @Test(arguments: VelocityEstimator.allCases)
  func aTransitionTimesEventsWithoutTByNow(estimator: VelocityEstimator) throws {
    let d = try Driver(Probe.self)
    let probe = d.t
    d.send(GestureSample(phase: .began, point: Point(x: 0, y: 0), estimator: estimator), now: 2)
    for i in 1...8 {
      let p = Point(x: 15 * Double(i), y: 0)
      d.send(
        GestureSample(phase: .changed, point: p, estimator: estimator), now: 2 + 0.01 * Double(i))
    }
    d.send(
      GestureSample(phase: .ended, point: Point(x: 120, y: 0), estimator: estimator), now: 2.09)
    // 15 pt every 10 ms, lifted 10 ms after the last move where it was. The line through the
    // ten events, the lift-off included, has the slope 1500 × (1 − 4.5 / 82.5).
    let expected = estimator == .platform ? 1500 : 1500 * (1 - 4.5 / 82.5)
    #expect(abs((probe.released?.dx ?? 0) - expected) < 1e-6, "\(estimator): \(probe.released!)")
    #expect(probe.changed.count == 8)
    #expect(probe.changed.allSatisfy { abs($0.dx - 1500) < 1e-6 }, "\(probe.changed)")
  }

  /// Two samples: a straight line through them (degree 1, as Android's `min(2, n − 1)`); one
  /// sample: zero; three: the parabola.
  @Test func degreeFollowsTheSampleCount() {
    let a = Vector(dx: 12_000, dy: 0)
    let p = { (t: Double) in Self.motion(Point(x: 0, y: 0), .zero, a, at: t) }
    var tracker = GestureTracker()
    tracker.record(.began, p(0), at: 0)
    #expect(tracker.velocity == .zero)
    tracker.record(.changed, p(0.01), at: 0.01)
    #expect(Self.close(tracker.velocity, Vector(dx: (p(0.01).x - p(0).x) / 0.01, dy: 0)))
    #expect(Self.close(tracker.velocity, Vector(dx: 60, dy: 0)))
    tracker.record(.changed, p(0.02), at: 0.02)
    #expect(Self.close(tracker.velocity, Vector(dx: 240, dy: 0)), "\(tracker.velocity)")
  }

  /// More than 20 samples within 100 ms (1 kHz): only the newest 20 count. They lie on a line
  /// (1000 pt/s) that the 21st does not (100 pt/s before it), so any more would bend the fit.
  @Test func keepsOnlyTheNewestTwenty() {
    let samples = (0..<100).map { i in
      let x = i <= 80 ? 0.1 * Double(i) : 8 + Double(i - 80)
      return (Double(i) / 1000, Point(x: x, y: 0))
    }
    let tracker = Self.drag(samples)
    #expect(Self.close(tracker.velocity, Vector(dx: 1000, dy: 0)), "\(tracker.velocity)")
    let moreThanTwenty = Self.drag(Array(samples.suffix(21)))
    #expect(abs(moreThanTwenty.velocity.dx - 1000) < 1e-6, "the 21st is already kept out")
  }

  /// Only the last 100 ms count: a finger that sped up reads its new speed, one that stopped
  /// reads zero.
  @Test(arguments: VelocityEstimator.allCases)
  func looksBackOneHundredMilliseconds(estimator: VelocityEstimator) {
    var tracker = GestureTracker()
    var x = 0.0
    for i in 0..<60 {
      x += (i < 30 ? 100.0 : 1000.0) / 60
      tracker.record(i == 0 ? .began : .changed, Point(x: x, y: 0), at: Double(i) / 60)
    }
    #expect(abs(tracker.velocity(estimator).dx - 1000) < 1e-6)
    for i in 60..<80 { tracker.record(.changed, Point(x: x, y: 0), at: Double(i) / 60) }
    #expect(abs(tracker.velocity(estimator).dx) < 1e-9)
  }

  /// A realistic flick: 120 Hz touch samples with ±1 ms of timestamp jitter and ±0.5 pt of
  /// position noise, accelerating from 200 to about 2500 pt/s over 150 ms, lifted a frame after
  /// the last sample. The parabola lands within 5% of the finger's true final speed; the line,
  /// which also counts the lift-off, trails it by about a quarter.
  @Test(arguments: 1...8)
  func aNoisyAcceleratingFlick(seed: UInt64) {
    var noise = Noise(state: seed)
    let v0 = 200.0
    let a = (2500 - v0) / 0.15
    var samples: [(Double, Point)] = []
    for i in 0...18 {
      let t = i == 0 ? 0 : Double(i) / 120 + (noise.next() - 0.5) * 0.002
      let x = v0 * t + a * t * t / 2 + (noise.next() - 0.5)
      samples.append((t, Point(x: 40 + x, y: 300)))
    }
    var tracker = Self.drag(samples)
    let last = samples[samples.count - 1]
    tracker.record(.ended, last.1, at: last.0 + 1.0 / 120)
    let truth = v0 + a * last.0
    let platform = tracker.velocity.dx
    let linear = tracker.velocity(.linear).dx
    #expect(abs(platform - truth) < 0.05 * truth, "platform \(platform), truth \(truth)")
    #expect(linear < 0.8 * truth, "linear \(linear), truth \(truth)")
    #expect(abs(tracker.velocity.dy) < 1e-9)
  }

  /// The table of PROTOCOL.md (gesture, the release-velocity estimator): each stroke's true final
  /// velocity, and what `platform` and `linear` give, to 0.05 pt/s.
  @Test(
    arguments: [
      Stroke(hz: 60, accelerating: false, liftOffDelay: 1.0 / 60, platform: 1200, linear: 1071.4),
      Stroke(hz: 60, accelerating: true, liftOffDelay: 0, platform: 2000, linear: 1333.3),
      Stroke(hz: 120, accelerating: true, liftOffDelay: 0, platform: 2000, linear: 1333.3),
      Stroke(hz: 60, accelerating: true, liftOffDelay: 1.0 / 60, platform: 2000, linear: 1329.4),
      Stroke(hz: 120, accelerating: true, liftOffDelay: 1.0 / 120, platform: 2000, linear: 1376.7),
      Stroke(hz: 60, accelerating: false, liftOffDelay: 0.05, platform: 0, linear: 588.7),
    ])
  func theProtocolTable(stroke: Stroke) {
    // 1200 pt/s for 200 ms, or 0 → 2000 pt/s in 150 ms.
    let duration = stroke.accelerating ? 0.15 : 0.2
    let n = Int((duration * stroke.hz).rounded())
    let x = { (t: Double) in stroke.accelerating ? 2000 / 0.15 * t * t / 2 : 1200 * t }
    var tracker = Self.drag(
      (0...n).map { i in (Double(i) / stroke.hz, Point(x: x(Double(i) / stroke.hz), y: 0)) })
    tracker.record(
      .ended, Point(x: x(Double(n) / stroke.hz), y: 0),
      at: Double(n) / stroke.hz + stroke.liftOffDelay)
    #expect(abs(tracker.velocity.dx - stroke.platform) < 0.05, "platform \(tracker.velocity.dx)")
    #expect(
      abs(tracker.velocity(.linear).dx - stroke.linear) < 0.05,
      "linear \(tracker.velocity(.linear).dx)")
  }

  // MARK: why the release velocity is what it is (the handoff's `estimate`)

  /// A fast flick: 300 pt up in 100 ms (−3000 pt/s, 60 Hz samples), every sample kept.
  static let flick = (0...6).map { i in (Double(i) / 60, Point(x: 160, y: 500 - 50 * Double(i))) }

  /// The ordinary case: the fit through the samples of the last 100 ms, and how many.
  @Test func anEstimateSaysHowManySamplesItFitted() {
    var tracker = Self.drag(Self.flick)
    tracker.record(.ended, Self.flick[6].1, at: 0.1 + 1.0 / 120)
    let (velocity, estimate) = tracker.estimate(.platform)
    #expect(Self.close(velocity, Vector(dx: 0, dy: -3000)), "\(velocity)")
    #expect(estimate == ReleaseEstimate(.estimated, samples: 7))
    // The line counts the lift-off and, 100 ms back from it, the moves after the first.
    #expect(tracker.estimate(.linear).estimate == ReleaseEstimate(.estimated, samples: 7))
  }

  /// The issue's flick: lifted 55 ms after its last move, the velocity is 0 by the 40 ms rule,
  /// and the estimate says so, with how long the pointer was still.
  @Test func aFlickLiftedFiftyFiveMillisecondsLaterStopped() throws {
    var tracker = Self.drag(Self.flick)
    tracker.record(.ended, Self.flick[6].1, at: 0.1 + 0.055)
    let (velocity, estimate) = tracker.estimate(.platform)
    #expect(velocity == .zero)
    #expect(estimate.reason == .pointerStopped)
    #expect(estimate.samples == 7)
    let still = try #require(estimate.stillMilliseconds)
    #expect(abs(still - 55) < 1e-9, "\(still)")
  }

  /// A pan without a move has one sample: too few. A move after a pause of more than 40 ms
  /// forgets the samples before it, and the estimate says the samples were too sparse, with the
  /// gap.
  @Test func fewerThanTwoSamples() {
    var tapped = GestureTracker()
    tapped.record(.began, Point(x: 10, y: 10), at: 0)
    tapped.record(.ended, Point(x: 10, y: 10), at: 0.02)
    #expect(tapped.estimate(.platform).estimate == ReleaseEstimate(.tooFewSamples, samples: 1))
    var paused = Self.drag(Self.flick)
    paused.record(.changed, Point(x: 160, y: 150), at: 0.2)
    paused.record(.ended, Point(x: 160, y: 150), at: 0.21)
    let forgotten = paused.estimate(.platform)
    #expect(forgotten.velocity == .zero)
    #expect(forgotten.estimate.reason == .sparseSamples)
    #expect(abs((forgotten.estimate.gapMilliseconds ?? 0) - 100) < 1e-9)
    #expect(GestureTracker().estimate(.platform).estimate.samples == 0)
  }

  /// Issue 38's flick: samples 50 ms apart. Lifted at once, the samples were too sparse; held
  /// 100 ms before lifting, the pointer was still, which is said first.
  @Test func samplesFiftyMillisecondsApart() {
    func drag() -> GestureTracker {
      var tracker = GestureTracker()
      tracker.record(.began, Point(x: 160, y: 500), at: 0)
      for i in 1...4 {
        tracker.record(.changed, Point(x: 160, y: 500 - 60 * Double(i)), at: 0.05 * Double(i))
      }
      return tracker
    }
    var atOnce = drag()
    atOnce.record(.ended, Point(x: 160, y: 260), at: 0.21)
    let sparse = atOnce.estimate(.platform).estimate
    #expect(sparse.reason == .sparseSamples && sparse.samples == 1)
    #expect(abs((sparse.gapMilliseconds ?? 0) - 50) < 1e-9)
    var held = drag()
    held.record(.ended, Point(x: 160, y: 260), at: 0.3)
    let still = held.estimate(.platform).estimate
    #expect(still.reason == .pointerStopped && still.samples == 1)
    #expect(abs((still.stillMilliseconds ?? 0) - 100) < 1e-9)
  }

  /// A pan upward whose last samples come back down: the fit points down, and says why.
  @Test func aReversalAtTheEndIsSaid() {
    var tracker = GestureTracker()
    let ys: [Double] = [500, 450, 400, 350, 300, 310, 330]
    for (i, y) in ys.enumerated() {
      tracker.record(i == 0 ? .began : .changed, Point(x: 160, y: y), at: Double(i) / 60)
    }
    tracker.record(.ended, Point(x: 160, y: 330), at: 6.0 / 60)
    let (velocity, estimate) = tracker.estimate(.platform)
    #expect(velocity.dy > 0, "the fit follows the last samples down")
    #expect(estimate.reason == .reversed)
  }

  /// `linear` counts the lift-off as a sample: lifted 150 ms after the last move, it is the
  /// only one left within the horizon.
  @Test func liftedAfterTheHorizonTheSamplesAreStale() {
    var tracker = Self.drag(Self.flick)
    tracker.record(.ended, Self.flick[6].1, at: 0.25)
    let stale = tracker.estimate(.linear)
    #expect(stale.velocity == .zero)
    #expect(stale.estimate == ReleaseEstimate(.staleSamples, samples: 1))
    // Lifted within the horizon, the same drag has a velocity.
    var sooner = Self.drag(Self.flick)
    sooner.record(.ended, Self.flick[6].1, at: 0.15)
    #expect(sooner.estimate(.linear).estimate.reason == .estimated)
  }

  /// Three samples of which two are 1 ps apart: the parabola's columns are dependent.
  @Test func samplesTooCloseInTimeGiveADegenerateFit() {
    let tracker = Self.drag([
      (0, Point(x: 0, y: 0)), (0.03, Point(x: 30, y: 0)), (0.03 + 1e-12, Point(x: 30, y: 0)),
    ])
    let degenerate = tracker.estimate(.platform)
    #expect(degenerate.velocity == .zero)
    #expect(degenerate.estimate == ReleaseEstimate(.degenerateFit, samples: 3))
    // 1 ns apart, the fit holds.
    let apart = Self.drag([
      (0, Point(x: 0, y: 0)), (0.03, Point(x: 30, y: 0)), (0.03 + 1e-9, Point(x: 30, y: 0)),
    ])
    // (The parabola through them turns back at the end: a fit, said to be reversed.)
    #expect(apart.estimate(.platform).estimate.reason == .reversed)
  }

  /// Through a transition: an estimate faster than 10⁶ pt/s is scaled down in its direction
  /// and the handoff says `limited`; a velocity the client gave has no estimate.
  @Test func aTransitionsHandoffCarriesTheEstimate() throws {
    let d = try Driver(LockScreen.self)
    d.began(at: Point(x: 160, y: 500), time: 0)
    d.moved(to: Point(x: 160, y: 490), time: 1e-6)
    let events = d.send(GestureSample(phase: .ended, point: Point(x: 160, y: 490), time: 2e-6))
    guard case .handoff(let fast)? = events.first else {
      Issue.record("no handoff: \(events)")
      return
    }
    #expect(fast.estimate == ReleaseEstimate(.limited, samples: 2))
    #expect(abs(fast.gestureVelocity.dy + VelocityEstimator.maxSpeed) < 1e-6)
    #expect(abs(fast.gestureVelocity.dx) < 1e-9)
    d.began(at: Point(x: 160, y: 500), time: 1)
    d.moved(to: Point(x: 160, y: 480), time: 1.02)
    let given = d.send(
      GestureSample(
        phase: .ended, point: Point(x: 160, y: 480), time: 1.03, velocity: Vector(dx: 0, dy: -900)
      ))
    guard case .handoff(let told)? = given.first else {
      Issue.record("no handoff: \(given)")
      return
    }
    #expect(told.estimate == nil)
  }

  /// The solver on its own: exact on a parabola, `nil` for dependent columns.
  @Test func polynomialFit() {
    let times = [-0.05, -0.03, -0.01, 0]
    let values = times.map { 3 + 7 * $0 - 11 * $0 * $0 }
    let slopes = PolynomialFit.slopesAtZero(times: times, series: [values], degree: 2)
    #expect(abs((slopes?.first ?? 0) - 7) < 1e-9)
    #expect(PolynomialFit.slopesAtZero(times: [0, 0, 0], series: [[1, 2, 3]], degree: 2) == nil)
    #expect(PolynomialFit.slopesAtZero(times: [-0.1, 0], series: [[1, 2]], degree: 2) == nil)
  }
}

/// A small deterministic generator (a 64-bit LCG), uniform in [0, 1).
struct Noise {
  var state: UInt64

  mutating func next() -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return Double(state >> 11) / Double(UInt64(1) << 53)
  }
}

/// A transition that only records the velocities it is given.
final class Probe: Transition {
  override class var name: String { "probe" }
  var changed: [Vector] = []
  var released: Vector?

  override func panChanged(at point: Point, velocity: Vector) { changed.append(velocity) }
  override func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    released = velocity
    return []
  }
}

/// A stroke of the protocol's table and the velocities the estimators give for it.
struct Stroke: Sendable, CustomStringConvertible {
  var hz: Double
  var accelerating: Bool
  var liftOffDelay: Double
  var platform: Double
  var linear: Double

  var description: String {
    "\(accelerating ? "0 → 2000" : "1200") pt/s at \(hz) Hz, lifted \(liftOffDelay) s later"
  }
}
