import ArgumentParser
import Glibc
import JSON
import Primitives
import Wire

struct GestureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gesture",
    abstract:
      "Send a pan from one point to another, sampled at 60 Hz, or a recorded stroke; release it.",
    discussion: """
      Sends began at --from (t 0), changed every 1/60 s along the straight line, and ended at \
      --to (t = --duration), with vx, vy = --release-velocity when given (else the daemon \
      estimates the release velocity from the samples). The daemon's handoff event shows the \
      velocity the dynamics took over.

      --samples FILE sends a recorded stroke instead, with its own timestamps: began at its \
      first sample, changed at each one after, ended at its last. The file is CSV (t,x,y under \
      a header), JSON lines ({"t":…,"x":…,"y":…}, or a `dynctl record` trace: its gesture), \
      `libinput record` YAML or Android's `getevent -lt` output, by its extension (.csv; \
      .jsonl, .ndjson, .json; .yml, .yaml; .getevent) or --format. Device units become points \
      at --points-per-inch (default 160, Android's baseline density): libinput by the axes' \
      resolution, getevent by the axes' ranges (its `getevent -lp` lines, first in the file or \
      in --device-info FILE) mapped onto --screen-size at --screen-density. dynctl prints what \
      it read (samples, duration, span) before sending it. Details: docs/STROKES.md.

      --estimator picks how the daemon estimates the velocity, sent with every sample: \
      platform (Android's and Flutter's VelocityTracker: a least-squares parabola through the \
      moves of the last 100 ms; the lift-off is not a sample) or linear (a straight line \
      through every sample of the last 100 ms, the lift-off included). Without it the daemon's \
      default applies (platform).

      --pace decides how the samples are spread: realtime sleeps 1/60 s between them (a \
      recorded stroke: its own intervals; the session's own clock animates meanwhile); step \
      sends a step of that interval between them, so a manual-clock session follows the \
      finger; none sends them back to back; auto (the default) is step for manual-clock \
      sessions and realtime otherwise.

      Example: dynctl gesture L --from 160,500 --to 160,380 --duration 0.2 \
      --release-velocity 0,-1400

      Recorded strokes: dynctl gesture L --samples flick.csv; dynctl gesture L \
      --samples swipe.getevent --screen-size 1080,2400 --screen-density 420
      """ + "\n\n"
        + ExitStatus.help(
          ExitStatus.errorReply + ", or the samples file is not valid",
          "66 the samples file cannot be read"))

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
  @Option(help: "Where the finger goes down (x,y).") var from: PairArgument?
  @Option(help: "Where it lifts (x,y).") var to: PairArgument?
  @Option(parsing: .unconditional, help: "Seconds from down to up (default: 0.25).")
  var duration: Double?
  @OptionGroup var recorded: SamplesOptions
  @Option(
    parsing: .unconditional, help: "Velocity at release in points per second (vx,vy).")
  var releaseVelocity: PairArgument?
  @Option(help: "auto, realtime, step or none.") var pace: Pace = .auto
  @Option(help: "How the daemon estimates the velocity: platform or linear (default: platform).")
  var estimator: Estimator?
  @Flag(help: "End with phase cancelled instead of ended.") var cancel = false
  @Flag(help: "Print the frames of step pacing.") var frames = false

  func validate() throws {
    try releaseVelocity?.checkVelocity("--release-velocity")
    if recorded.samples != nil {
      for (given, option) in [
        (from != nil, "--from"), (to != nil, "--to"), (duration != nil, "--duration"),
      ]
      where given {
        throw ValidationError("--samples is the stroke: give no \(option) with it")
      }
      return
    }
    guard let from, let to else {
      throw ValidationError("give --from and --to (a straight pan), or --samples FILE")
    }
    if let duration, !(duration.isFinite && duration >= 0 && duration <= 60) {
      throw ValidationError(
        "--duration \(JSONValue.number(duration).jsonText): must be between 0 and 60 seconds")
    }
    try from.checkPoint("--from")
    try to.checkPoint("--to")
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let read = try recorded.read()  // a file that does not read fails before connecting
      var client = try connection.connect()
      client.output.showFrames = frames
      let pacing = pace == .auto ? try Self.pace(of: session, client) : pace
      if let (stroke, summary) = read {
        client.output.note(summary)
        try SentGesture(
          samples: SentGesture.recorded(stroke), releaseVelocity: releaseVelocity, cancel: cancel,
          estimator: estimator
        ).perform(on: session, client, pacing: pacing)
      } else if let from, let to {
        try SentGesture(
          samples: SentGesture.straight(from: from, to: to, duration: duration ?? 0.25),
          releaseVelocity: releaseVelocity, cancel: cancel, estimator: estimator
        ).perform(on: session, client, pacing: pacing)
      }
    }
  }

  /// `step` for a manual-clock session, `realtime` for any other (or an unknown one: the
  /// first gesture request then reports it).
  static func pace(of session: String, _ client: DaemonClient) throws(Failure) -> Pace {
    try client.summary(of: session)?.clock == .manual ? .step : .realtime
  }
}
