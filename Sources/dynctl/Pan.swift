import Primitives
import Wire

/// A straight pan sampled at 60 Hz: began at `from` (t 0), changed along the line, ended (or
/// cancelled) at `to` at t = `duration`, with the release velocity when given, and with
/// `estimator` on every sample when given.
struct Pan {
  let from: PairArgument
  let to: PairArgument
  let duration: Double
  let releaseVelocity: PairArgument?
  var cancel = false
  var estimator: GestureCommand.Estimator?

  /// Sends the samples to `session`, spread as `pacing` says; every request's events and reply
  /// go through `client`'s output. Returns the `ended` request's events (its handoff).
  @discardableResult
  func perform(
    on session: String, _ client: DaemonClient, pacing: GestureCommand.Pace
  ) throws(Failure) -> [Message] {
    let samples = max(1, Int((duration * 60).rounded()))
    let interval = duration / Double(samples)
    let start = monotonicSeconds()
    var lastEvents: [Message] = []
    for index in 0...samples {
      let fraction = Double(index) / Double(samples)
      let t = duration * fraction
      let x = from.x + (to.x - from.x) * fraction
      let y = from.y + (to.y - from.y) * fraction
      let last: GesturePhase = cancel ? .cancelled : .ended
      let phase: GesturePhase = index == 0 ? .began : index == samples ? last : .changed
      if index > 0 {
        switch pacing {
        case .realtime: sleepUntil(start + t)
        case .step where interval > 0:
          try client.request(
            .step(StepRequest(session: session, dt: interval.asSent)), quietReply: true)
        case .auto, .step, .none: break
        }
      }
      let gesture = GestureRequest(
        session: session, phase: phase, point: Point(x: x.asSent, y: y.asSent), t: t.asSent,
        velocity: phase == .ended ? releaseVelocity?.vector : nil,
        estimator: estimator?.estimator ?? .platform)
      lastEvents = []
      try client.request(.gesture(gesture)) { lastEvents.append($0) }
    }
    return lastEvents
  }
}
