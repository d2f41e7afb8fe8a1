import ArgumentParser
import Glibc
import JSON
import Wire

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
