import ArgumentParser
import Glibc
import JSON
import Wire

struct PlayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "play",
    abstract: "Open a transition, perform one gesture, and follow it until its outcome.",
    discussion: """
      Opens TRANSITION on this connection (it closes when play ends), performs the gesture \
      (--pan with its --duration and --release-velocity, --samples FILE, a recorded stroke \
      sent with its own timestamps (docs/STROKES.md), --tap or --swipe), then follows the \
      session until its `done` event: on the manual clock (the default) by stepping, on the \
      realtime clock by watching its frames. Prints the events (frames with --frames), then \
      the outcome and the handoff velocities. Exit status 1 if no outcome came within \
      --max-seconds of animation.

      Example: dynctl play lock-screen --pan 160,500:160,380 --duration 0.2 \
      --release-velocity 0,-1400
      """ + "\n\n"
        + ExitStatus.help(
          "1 no outcome within --max-seconds",
          ExitStatus.errorReply + ", or the samples file is not valid",
          "66 the samples file cannot be read"))

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
