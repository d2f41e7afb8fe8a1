import Primitives
import Strokes
import Wire

/// A pan as dynctl sends it, whatever made it — a straight `--pan` (`straight`) or a recorded
/// stroke (`--samples`, `recorded`): `began` at the first sample, `changed` at each one after,
/// `ended` (or `cancelled`) at the last, each with its `t`; the release velocity on `ended` and
/// the estimator on every sample, when given.
struct SentGesture {
  /// A sample: where the finger is, its `t`, and the time from the sample before it, which
  /// the pacing waits or steps (0 for the first).
  struct Sample {
    let point: Point
    let t: Double
    let interval: Double
  }

  let samples: [Sample]
  var releaseVelocity: PairArgument?
  var cancel = false
  var estimator: GestureCommand.Estimator?

  /// A straight pan sampled at 60 Hz: `from` at t 0 to `to` at t = `duration`.
  static func straight(from: PairArgument, to: PairArgument, duration: Double) -> [Sample] {
    let count = max(1, Int((duration * 60).rounded()))
    let interval = duration / Double(count)
    return (0...count).map { index in
      let fraction = Double(index) / Double(count)
      return Sample(
        point: Point(
          x: from.x + (to.x - from.x) * fraction, y: from.y + (to.y - from.y) * fraction),
        t: duration * fraction, interval: index == 0 ? 0 : interval)
    }
  }

  /// A recorded stroke with its own timestamps. Times that repeat or go backwards are sent as
  /// recorded (their interval is neither waited nor stepped): the daemon's estimator applies its
  /// one rule to them (PROTOCOL.md, *The release-velocity estimator*, rule 2).
  static func recorded(_ stroke: Stroke) -> [Sample] {
    stroke.samples.enumerated().map { index, sample in
      Sample(
        point: sample.point, t: sample.t,
        interval: index == 0 ? 0 : sample.t - stroke.samples[index - 1].t)
    }
  }

  /// Sends the samples to `session`, spread as `pacing` says: `realtime` sleeps until each
  /// sample's time from the first; `step` steps each interval first (in steps of at most 10 s,
  /// the longest `dt`); an interval that is not positive is neither. Every request's events
  /// and reply go through `client`'s output. Returns the `ended` request's events (its handoff).
  @discardableResult
  func perform(
    on session: String, _ client: DaemonClient, pacing: GestureCommand.Pace
  ) throws(Failure) -> [Message] {
    let start = monotonicSeconds()
    var lastEvents: [Message] = []
    for (index, sample) in samples.enumerated() {
      let last: GesturePhase = cancel ? .cancelled : .ended
      let phase: GesturePhase =
        index == 0 ? .began : index == samples.count - 1 ? last : .changed
      switch pacing {
      case .realtime where index > 0: sleepUntil(start + sample.t - samples[0].t)
      case .step:
        var left = sample.interval
        while left > 0 {
          let dt = min(left, Limits.stepDuration.upperBound)
          try client.request(
            Op(StepRequest(session: session, dt: dt.asSent)), quietReply: true)
          left -= dt
        }
      case .realtime, .auto, .none: break
      }
      let gesture = GestureRequest(
        session: session, phase: phase,
        point: Point(x: sample.point.x.asSent, y: sample.point.y.asSent), t: sample.t.asSent,
        velocity: phase == .ended ? releaseVelocity?.vector : nil,
        estimator: estimator?.estimator ?? .platform)
      lastEvents = []
      try client.request(Op(gesture)) { lastEvents.append($0) }
    }
    return lastEvents
  }
}
