import ArgumentParser
import Wire

struct StepCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "step",
    abstract: "Advance a manual-clock session by COUNT frames of DT seconds.",
    discussion: """
      Prints the events of the steps (contacts, pause, done), then the time reached, whether \
      the animator still runs, and how many frames moved; --frames prints every frame too. With --json every line the daemon wrote is printed.
      """ + "\n\n"
        + ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session (manual clock).") var session: String
  @Option(parsing: .unconditional, help: "Frames to step.") var count: Int?
  @Option(parsing: .unconditional, help: "Seconds per frame (default 1/fps of the session).")
  var dt: Double?
  @Flag(help: "Print every frame.") var frames = false

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var client = try connection.connect()
      client.output.showFrames = frames
      var frameCount = 0
      let step = StepRequest(session: session, dt: dt?.asSent, count: count ?? 1)
      let reply = try client.request(Op(step), quietReply: true) { event in
        if event.eventKind == .frame { frameCount += 1 }
      }
      guard case .step(let t, let running) = reply else {
        throw .protocolFailure("the daemon's reply to step has no t and running")
      }
      client.output.note(
        "stepped to \(HumanFormat.time(t, running: running)) "
          + "(\(frameCount) frame\(frameCount == 1 ? "" : "s"))")
    }
  }
}
