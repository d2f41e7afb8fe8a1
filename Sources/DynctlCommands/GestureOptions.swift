import ArgumentParser
import Glibc
import JSON
import Primitives
import Strokes
import Wire

extension StrokeFormat: ExpressibleByArgument {}

/// A recorded stroke to send instead of a synthetic pan (`gesture`, `play`, `record`,
/// `handoff`), and how its device units become points (docs/STROKES.md).
struct SamplesOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "A recorded stroke to send with its own timestamps (docs/STROKES.md).", valueName: "file"))
  var samples: String?
  @Option(help: "The samples' format: csv, jsonl, libinput or getevent (default: the extension's).")
  var format: StrokeFormat?
  @Option(
    parsing: .unconditional,
    help: "Points per inch, for device units (default: 160, Android's baseline density).")
  var pointsPerInch: Double?
  @Option(
    help: ArgumentHelp(
      "getevent, or libinput record without a resolution: the screen's size in pixels (adb "
        + "shell wm size; the output the touchscreen maps onto).", valueName: "width,height"))
  var screenSize: PairArgument?
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "getevent, or libinput record without a resolution: the screen's density (adb shell wm "
        + "density; the output's dots per inch).", valueName: "dpi"))
  var screenDensity: Double?
  @Option(
    help: ArgumentHelp(
      "getevent: the `getevent -lp` output, when the samples file does not start with it.",
      valueName: "file"))
  var deviceInfo: String?

  func validate() throws {
    guard let samples else {
      for (given, option) in [
        (format != nil, "--format"), (pointsPerInch != nil, "--points-per-inch"),
        (screenSize != nil, "--screen-size"), (screenDensity != nil, "--screen-density"),
        (deviceInfo != nil, "--device-info"),
      ] where given {
        throw ValidationError("\(option) belongs to a recorded stroke: give --samples too")
      }
      return
    }
    guard format != nil || StrokeFormat(path: samples) != nil else {
      throw ValidationError(
        "--samples \(samples): no format for its extension: give --format (csv, jsonl, "
          + "libinput or getevent)")
    }
    for (value, option) in [
      (pointsPerInch, "--points-per-inch"), (screenDensity, "--screen-density"),
    ] {
      if let value, !(value.isFinite && value > 0) {
        throw ValidationError("\(option) \(JSONValue.number(value).jsonText): must be above 0")
      }
    }
    if let size = screenSize, !(size.x > 0 && size.y > 0) {
      throw ValidationError("--screen-size \(size.typed.x),\(size.typed.y): must be above 0")
    }
    if (screenSize == nil) != (screenDensity == nil) {
      throw ValidationError("--screen-size and --screen-density go together")
    }
  }

  /// Reads the stroke of --samples (nil without it), in points.
  func read() throws(Failure) -> (stroke: Stroke, summary: String)? {
    guard let samples else { return nil }
    let format = format ?? StrokeFormat(path: samples) ?? .csv
    var units = StrokeUnits(pointsPerInch: pointsPerInch ?? 160)
    if let screenSize, let screenDensity {
      units.screen = MappedScreen(
        width: screenSize.x, height: screenSize.y, density: screenDensity)
    }
    if let deviceInfo { units.deviceInfo = try readFile(deviceInfo) }
    let text = try readFile(samples)
    do throws(StrokeReadError) {
      let stroke = try StrokeReader.read(text, format: format, units: units)
      return (stroke, stroke.summary(of: samples, as: format))
    } catch {
      throw .invalidInput(path: samples, reason: error.description)
    }
  }
}

/// A pan, or a recorded stroke, and how it is released (`play`, `record`, `handoff`).
struct PanOptions: ParsableArguments {
  @Option(help: "A pan from x1,y1 to x2,y2, e.g. 160,500:160,380.") var pan: PanArgument?
  @OptionGroup var recorded: SamplesOptions
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
    if recorded.samples != nil {
      guard pan == nil, duration == nil else {
        throw ValidationError(
          "--samples is the stroke: give no \(pan != nil ? "--pan" : "--duration") with it")
      }
      try releaseVelocity?.checkVelocity("--release-velocity")
      return
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

  /// Whether a drag is given: --pan or --samples.
  var given: Bool { pan != nil || recorded.samples != nil }

  /// Performs the pan, or sends the recorded stroke (after a line saying what was read);
  /// returns the events of its release.
  func perform(on session: String, _ client: DaemonClient, pacing: GestureCommand.Pace)
    throws(Failure) -> [Message]
  {
    if let (stroke, summary) = try recorded.read() {
      client.output.note(summary)
      return try SentGesture(
        samples: SentGesture.recorded(stroke), releaseVelocity: releaseVelocity,
        estimator: estimator
      ).perform(on: session, client, pacing: pacing)
    }
    guard let pan else { return [] }
    return try SentGesture(
      samples: SentGesture.straight(from: pan.from, to: pan.to, duration: duration ?? 0.25),
      releaseVelocity: releaseVelocity, estimator: estimator
    ).perform(on: session, client, pacing: pacing)
  }

  /// Where the drag began and ended: the --pan's points, or the recorded stroke's first and
  /// last samples (nil when there is neither, or the file cannot be read again).
  var endpoints: (from: Point, to: Point)? {
    if let pan { return (Point(x: pan.from.x, y: pan.from.y), Point(x: pan.to.x, y: pan.to.y)) }
    guard let (stroke, _) = try? recorded.read(), let first = stroke.samples.first,
      let last = stroke.samples.last
    else { return nil }
    return (first.point, last.point)
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
      throw ValidationError("give exactly one of --pan, --samples, --tap, --swipe")
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
