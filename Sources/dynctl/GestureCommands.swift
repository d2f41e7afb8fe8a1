import ArgumentParser
import Glibc
import JSON
import Primitives
import Wire

struct GestureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gesture",
    abstract: "Send a pan from one point to another, sampled at 60 Hz, then release it.",
    discussion: """
      Sends began at --from (t 0), changed every 1/60 s along the straight line, and ended at \
      --to (t = --duration), with vx, vy = --release-velocity when given (else the daemon \
      estimates the release velocity from the samples). The daemon's handoff event shows the \
      velocity the dynamics took over.

      --estimator picks how the daemon estimates the velocity, sent with every sample: \
      platform (Android's and Flutter's VelocityTracker: a least-squares parabola through the \
      moves of the last 100 ms; the lift-off is not a sample) or linear (a straight line \
      through every sample of the last 100 ms, the lift-off included). Without it the daemon's \
      default applies (platform).

      --pace decides how the samples are spread: realtime sleeps 1/60 s between them (the \
      session's own clock animates meanwhile); step sends a one-frame step between them, so a \
      manual-clock session follows the finger; none sends them back to back; auto (the \
      default) is step for manual-clock sessions and realtime otherwise.

      Example: dynctl gesture L --from 160,500 --to 160,380 --duration 0.2 \
      --release-velocity 0,-1400
      """ + "\n\n"
        + ExitStatus.help(ExitStatus.errorReply))

  enum Pace: String, ExpressibleByArgument, CaseIterable {
    case auto, realtime, step, none
  }

  /// The `estimator` field of the gesture requests.
  enum Estimator: String, ExpressibleByArgument, CaseIterable {
    case platform, linear

    var estimator: VelocityEstimator {
      switch self {
      case .platform: .platform
      case .linear: .linear
      }
    }
  }

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String
  @Option(help: "Where the finger goes down (x,y).") var from: PairArgument
  @Option(help: "Where it lifts (x,y).") var to: PairArgument
  @Option(parsing: .unconditional, help: "Seconds from down to up.") var duration: Double = 0.25
  @Option(
    parsing: .unconditional, help: "Velocity at release in points per second (vx,vy).")
  var releaseVelocity: PairArgument?
  @Option(help: "auto, realtime, step or none.") var pace: Pace = .auto
  @Option(help: "How the daemon estimates the velocity: platform or linear (default: platform).")
  var estimator: Estimator?
  @Flag(help: "End with phase cancelled instead of ended.") var cancel = false
  @Flag(help: "Print the frames of step pacing.") var frames = false

  func validate() throws {
    guard duration.isFinite, duration >= 0, duration <= 60 else {
      throw ValidationError(
        "--duration \(JSONValue.number(duration).jsonText): must be between 0 and 60 seconds")
    }
    try from.checkPoint("--from")
    try to.checkPoint("--to")
    try releaseVelocity?.checkVelocity("--release-velocity")
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var client = try connection.connect()
      client.output.showFrames = frames
      let pacing = pace == .auto ? try Self.pace(of: session, client) : pace
      let pan = Pan(
        from: from, to: to, duration: duration, releaseVelocity: releaseVelocity, cancel: cancel,
        estimator: estimator)
      try pan.perform(on: session, client, pacing: pacing)
    }
  }

  /// `step` for a manual-clock session, `realtime` for any other (or an unknown one: the
  /// first gesture request then reports it).
  static func pace(of session: String, _ client: DaemonClient) throws(Failure) -> Pace {
    var from = 0
    while true {
      let id = client.connection.nextID()
      let op = Op.list(ListRequest(from: from))
      let reply = try client.connection.exchange(
        Request(id: id, op: op).encodedLine, awaiting: AwaitedReply(id: id, op: .list),
        timeout: client.timeout
      ) { _ in }
      guard case .list(let page)? = reply.content.replyBody else { return .realtime }
      if let found = page.sessions.first(where: { $0.session == session }) {
        return found.clock == .manual ? .step : .realtime
      }
      guard let next = page.next else { return .realtime }
      from = next
    }
  }
}

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

/// Sleeps until the monotonic clock reaches `deadline` (seconds).
func sleepUntil(_ deadline: Double) {
  while true {
    let left = deadline - monotonicSeconds()
    guard left > 0 else { return }
    var request = timespec(tv_sec: Int(left), tv_nsec: Int((left - Double(Int(left))) * 1e9))
    _ = nanosleep(&request, nil)
  }
}

struct TapCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tap", abstract: "Tap a session at a point (x,y).",
    discussion: """
      Prints whether the transition took the tap ("taken"; what it causes follows in the \
      frames, e.g. lock-screen's camera grabber bounces the screen) or ignored it there.
      """ + "\n\n"
        + ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String
  @Argument(help: "Where (x,y).") var point: PairArgument

  func validate() throws { try point.checkPoint("the point") }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(.tap(TapRequest(session: session, point: point.point)))
    }
  }
}

struct SwipeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "swipe", abstract: "Swipe a session left, right, up or down.",
    discussion: """
      Prints whether the transition took the swipe ("taken") or ignored it (a direction it \
      does nothing with).
      """ + "\n\n"
        + ExitStatus.help(ExitStatus.errorReply))

  enum Direction: String, ExpressibleByArgument, CaseIterable {
    case left, right, up, down

    var direction: SwipeDirection {
      switch self {
      case .left: .left
      case .right: .right
      case .up: .up
      case .down: .down
      }
    }
  }

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String
  @Argument(help: "left, right, up or down.") var direction: Direction
  @Option(help: "Where the swipe starts (x,y).") var at: PairArgument?
  @Option(parsing: .unconditional, help: "Its velocity in points per second (vx,vy).")
  var velocity: PairArgument?

  func validate() throws {
    try at?.checkPoint("--at")
    try velocity?.checkVelocity("--velocity")
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let swipe = SwipeRequest(
        session: session, direction: direction.direction, point: at?.point,
        velocity: velocity?.vector)
      try connection.connect().request(.swipe(swipe))
    }
  }
}
