import JSON
import Primitives
import Strokes
import Wire

/// A recorded stroke (`--samples`) sent with its own timestamps: `began` at its first sample,
/// `changed` at each one after, `ended` (or `cancelled`) at its last, each with the recorded `t`.
/// Times that repeat or go backwards are sent as recorded: the daemon's estimator applies its
/// one rule to them (PROTOCOL.md, *The release-velocity estimator*, rule 2).
struct StrokeReplay {
  let stroke: Stroke
  var releaseVelocity: PairArgument?
  var cancel = false
  var estimator: GestureCommand.Estimator?

  /// Sends the samples to `session`, spread as `pacing` says by the recorded intervals
  /// (`realtime`: slept; `step`: stepped, in steps of at most 10 s, the longest `dt`; an interval
  /// that is not positive is neither). Returns the `ended` request's events (its handoff).
  @discardableResult
  func perform(
    on session: String, _ client: DaemonClient, pacing: GestureCommand.Pace
  ) throws(Failure) -> [Message] {
    let samples = stroke.samples
    let start = monotonicSeconds()
    var lastEvents: [Message] = []
    for (index, sample) in samples.enumerated() {
      let last: GesturePhase = cancel ? .cancelled : .ended
      let phase: GesturePhase =
        index == 0 ? .began : index == samples.count - 1 ? last : .changed
      if index > 0 {
        switch pacing {
        case .realtime: sleepUntil(start + sample.t - samples[0].t)
        case .step:
          var left = sample.t - samples[index - 1].t
          while left > 0 {
            let dt = min(left, Limits.stepDuration.upperBound)
            try client.request(
              .step(StepRequest(session: session, dt: dt.asSent)), quietReply: true)
            left -= dt
          }
        case .auto, .none: break
        }
      }
      let gesture = GestureRequest(
        session: session, phase: phase,
        point: Point(x: sample.point.x.asSent, y: sample.point.y.asSent), t: sample.t.asSent,
        velocity: phase == .ended ? releaseVelocity?.vector : nil,
        estimator: estimator?.estimator ?? .platform)
      lastEvents = []
      try client.request(.gesture(gesture)) { lastEvents.append($0) }
    }
    return lastEvents
  }
}

extension Stroke {
  /// What `--samples` read, in a line: sample count, duration, start and end, span, and the
  /// times that repeat or go backwards with what the estimator does with them.
  func summary(of file: String, as format: StrokeFormat) -> String {
    func n(_ value: Double) -> String { JSONValue.number((value * 1000).rounded() / 1000).jsonText }
    let first = samples[0].point
    let last = samples[samples.count - 1].point
    var line =
      "read \(samples.count) samples (\(format.rawValue)) from \(file): \(n(duration)) s, "
      + "(\(n(first.x)), \(n(first.y))) to (\(n(last.x)), \(n(last.y))), "
      + "span \(n(span.size.width)) × \(n(span.size.height)) pt"
    if repeatedTimes + backwardTimes > 0 {
      line +=
        "; times: \(repeatedTimes) repeated, \(backwardTimes) going back (sent as recorded: the "
        + "platform estimator keeps the later of two equal times and drops a sample older than "
        + "the newest)"
    }
    return line
  }
}
