import ArgumentParser
import Glibc
import JSON
import Primitives
import Wire

/// `x1,y1:x2,y2` on the command line: where a pan starts and where it lifts.
struct PanArgument: ExpressibleByArgument {
  let from: PairArgument
  let to: PairArgument
  /// The argument as typed, for messages.
  let typed: String

  init?(argument: String) {
    let ends = argument.split(separator: ":", omittingEmptySubsequences: false)
    guard ends.count == 2, let from = PairArgument(argument: String(ends[0])),
      let to = PairArgument(argument: String(ends[1]))
    else { return nil }
    self.from = from
    self.to = to
    typed = argument
  }
}

/// The transition to open (`play`, `record`, `handoff`).
struct TransitionChoice: ParsableArguments {
  @Argument(help: "The transition (see `dynctl hello`).") var transition: String
  @Option(help: "The session's name (default: TRANSITION-PID).") var session: String?
  @Option(
    name: .customLong("param"),
    help: "A transition parameter NAME=VALUE (VALUE is JSON, or else a string); repeatable.")
  var params: [String] = []

  func validate() throws {
    for param in params where !param.contains("=") {
      throw ValidationError("--param '\(param)' must be NAME=VALUE")
    }
  }

  /// Opens the transition on this connection (closed with it) and returns the session name.
  func open(_ client: DaemonClient, clock: Clock) throws(Failure) -> String {
    try openTransition(transition, session: session, params: params, client, clock: clock)
  }
}

/// Opens `transition` with `NAME=VALUE` params on this connection (closed with it) as `session`
/// (default TRANSITION-PID) and returns the session name.
func openTransition(
  _ transition: String, session: String?, params: [String], _ client: DaemonClient, clock: Clock
) throws(Failure) -> String {
  let session = session ?? "\(transition)-\(getpid())"
  let open = OpenRequest(
    source: .transition(name: transition, params: try transitionParams(params)),
    session: session, clock: clock)
  try client.request(.open(open))
  return session
}

/// A pan and how it is released (`play`, `record`, `handoff`).
struct PanOptions: ParsableArguments {
  @Option(help: "A pan from x1,y1 to x2,y2, e.g. 160,500:160,380.") var pan: PanArgument?
  @Option(parsing: .unconditional, help: "Seconds the pan takes (default: 0.25).") var duration:
    Double?
  @Option(parsing: .unconditional, help: "Velocity at the pan's release (vx,vy), pt/s.")
  var releaseVelocity: PairArgument?
  @Option(
    help: "How the daemon estimates the pan's velocity: platform or linear (default: platform).")
  var estimator: GestureCommand.Estimator?

  func validate() throws {
    if let duration, !(duration.isFinite && duration >= 0 && duration <= 60) {
      throw ValidationError(
        "--duration \(JSONValue.number(duration).jsonText): must be between 0 and 60 seconds")
    }
    guard let pan else {
      for (given, option) in [
        (duration != nil, "--duration"), (releaseVelocity != nil, "--release-velocity"),
        (estimator != nil, "--estimator"),
      ] where given {
        throw ValidationError("\(option) belongs to a pan: give --pan too")
      }
      return
    }
    try pan.from.checkPoint("--pan", as: pan.typed)
    try pan.to.checkPoint("--pan", as: pan.typed)
    try releaseVelocity?.checkVelocity("--release-velocity")
  }

  /// Performs the pan; returns the events of its release.
  func perform(on session: String, _ client: DaemonClient, pacing: GestureCommand.Pace)
    throws(Failure) -> [Message]
  {
    guard let pan else { return [] }
    return try Pan(
      from: pan.from, to: pan.to, duration: duration ?? 0.25, releaseVelocity: releaseVelocity,
      estimator: estimator
    ).perform(on: session, client, pacing: pacing)
  }
}

/// A tap or a swipe instead of a pan (`play`, `record`).
struct TapSwipeOptions: ParsableArguments {
  @Option(help: "A tap at x,y.") var tap: PairArgument?
  @Option(help: "A swipe: left, right, up or down.") var swipe: SwipeCommand.Direction?
  @Option(help: "Where the swipe starts (x,y).") var at: PairArgument?
  @Option(parsing: .unconditional, help: "The swipe's velocity (vx,vy), pt/s.")
  var velocity: PairArgument?

  func validate() throws {
    if swipe == nil, at != nil || velocity != nil {
      throw ValidationError(
        "\(at != nil ? "--at" : "--velocity") belongs to a swipe: give --swipe too")
    }
    try tap?.checkPoint("--tap")
    try at?.checkPoint("--at")
    try velocity?.checkVelocity("--velocity")
  }
}

/// The transition to open and the gesture to perform on it (`play`, `record`).
struct TransitionGesture: ParsableArguments {
  @OptionGroup var choice: TransitionChoice
  @OptionGroup var drag: PanOptions
  @OptionGroup var other: TapSwipeOptions

  var transition: String { choice.transition }

  var plan: GesturePlan { GesturePlan(drag: drag, other: other) }

  func validate() throws {
    guard plan.given.count == 1 else {
      throw ValidationError("give exactly one of --pan, --tap, --swipe")
    }
  }

  func open(_ client: DaemonClient, clock: Clock) throws(Failure) -> String {
    try choice.open(client, clock: clock)
  }

  /// Performs the gesture on `session` and follows it until its `done` (`GesturePlan.follow`).
  func follow(
    _ session: String, _ client: DaemonClient, manual: Bool, maxSeconds: Double
  ) throws(Failure) -> (outcome: String?, handoffs: [HandoffReport]) {
    try plan.follow(session, client, manual: manual, maxSeconds: maxSeconds)
  }
}

/// The gesture `play` and `record` perform: a pan, a tap or a swipe.
struct GesturePlan {
  let drag: PanOptions
  let other: TapSwipeOptions

  /// The gesture options given, of --pan, --tap and --swipe.
  var given: [String] {
    [(drag.pan != nil, "--pan"), (other.tap != nil, "--tap"), (other.swipe != nil, "--swipe")]
      .filter(\.0).map(\.1)
  }

  /// Performs the gesture; every event goes to `onEvent` as well as to the output.
  func perform(
    on session: String, _ client: DaemonClient, pacing: GestureCommand.Pace,
    onEvent: (Message) -> Void
  ) throws(Failure) {
    if drag.pan != nil {
      try drag.perform(on: session, client, pacing: pacing).forEach(onEvent)
    } else if let tap = other.tap {
      try client.request(.tap(TapRequest(session: session, point: tap.point)), onEvent: onEvent)
    } else if let swipe = other.swipe {
      let request = SwipeRequest(
        session: session, direction: swipe.direction, point: other.at?.point,
        velocity: other.velocity?.vector)
      try client.request(.swipe(request), onEvent: onEvent)
    }
  }
}

struct PlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Open a transition, perform one gesture, and follow it until its outcome.",
    discussion: """
      Opens TRANSITION on this connection (it closes when play ends), performs the gesture \
      (--pan with its --duration and --release-velocity, --tap or --swipe), then follows the \
      session until its `done` event: on the manual clock (the default) by stepping, on the \
      realtime clock by watching its frames. Prints the events (frames with --frames), then \
      the outcome and the handoff velocities. Exit status 1 if no outcome came within \
      --max-seconds of animation.

      Example: dynctl play lock-screen --pan 160,500:160,380 --duration 0.2 \
      --release-velocity 0,-1400
      """ + "\n\n"
        + ExitStatus.help("1 no outcome within --max-seconds", ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var gesture: TransitionGesture
  @Option(help: "Clock: manual (stepped by play) or realtime.") var clock: String = "manual"
  @Option(parsing: .unconditional, help: "Seconds of animation to wait for the outcome.")
  var maxSeconds: Double = 10
  @Flag(help: "Print every frame.") var frames = false

  func validate() throws {
    guard clock == "manual" || clock == "realtime" else {
      throw ValidationError("--clock '\(clock)': must be manual or realtime")
    }
    guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= 600 else {
      throw ValidationError(
        "--max-seconds \(JSONValue.number(maxSeconds).jsonText): must be between 0 and 600")
    }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var client = try connection.connect()
      client.output.showFrames = frames
      let session = try gesture.open(client, clock: clock == "manual" ? .manual : .realtime)
      let cycle = try gesture.follow(
        session, client, manual: clock == "manual", maxSeconds: maxSeconds)
      for h in cycle.handoffs { client.output.note(h.summary) }
      guard let outcome = cycle.outcome else {
        throw .checkFailed("no outcome within \(maxSeconds) s of animation")
      }
      client.output.note("outcome: \(outcome)")
    }
  }
}

extension GesturePlan {
  /// Performs the gesture on `session` and follows it until its `done` (or `maxSeconds` of
  /// animation): stepping a manual-clock session, watching a realtime one.
  func follow(
    _ session: String, _ client: DaemonClient, manual: Bool, maxSeconds: Double
  ) throws(Failure) -> (outcome: String?, handoffs: [HandoffReport]) {
    var handoffs: [HandoffReport] = []
    var outcome: String?
    let notice = { (event: Message) in
      if let h = HandoffReport(event) { handoffs.append(h) }
      if case .event(.done(session, let reported, _)) = event.content, outcome == nil {
        outcome = reported
      }
    }
    try perform(on: session, client, pacing: manual ? .step : .realtime, onEvent: notice)
    let deadline = monotonicSeconds() + maxSeconds
    var animated = 0.0
    while outcome == nil {
      if manual {
        guard animated < maxSeconds else { break }
        try client.request(
          .step(StepRequest(session: session, count: 60)), quietReply: true, onEvent: notice)
        animated += 1
      } else {
        guard case .message(let event) = try client.connection.receive(deadline: deadline)
        else { break }
        client.transcript?.received(event)
        client.output.event(event)
        notice(event)
      }
    }
    return (outcome, handoffs)
  }
}
