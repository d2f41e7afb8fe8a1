import ArgumentParser
import Wire

struct WatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Print a session's events as they happen.",
    discussion: """
      Prints the session's items, then its frames and events until --until sees the named \
      event (for example pause or done), --frames-max frames have arrived, --for seconds have \
      passed, the session is closed, or the daemon shuts down; else until interrupted.
      """)

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String
  @Option(help: "Stop after the first event of this kind (pause, done, contact, …).")
  var until: String?
  @Option(help: "Stop after this many frames.") var framesMax: Int?
  @Option(name: .customLong("for"), help: "Stop after this many seconds.") var duration: Double?
  @Flag(help: "Do not print frames (events only).") var noFrames = false

  func validate() throws {
    if let framesMax, framesMax < 1 { throw ValidationError("--frames-max must be at least 1") }
    if let duration, !(duration > 0 && duration.isFinite) {
      throw ValidationError("--for must be a positive number of seconds")
    }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var client = try connection.connect()
      client.output.showFrames = !noFrames
      try client.request(.watch(session: session))
      let deadline = duration.map { monotonicSeconds() + $0 }
      var frames = 0
      while true {
        let message: Message
        switch try client.connection.receive(deadline: deadline) {
        case .message(let received): message = received
        case .timedOut: return
        case .endOfInput: throw .protocolFailure("the daemon closed the connection")
        }
        client.output.event(message)
        if message.eventKind == .shutdown { return }
        if message.eventKind == .closed, message.session == session { return }
        if message.eventKind == .frame { frames += 1 }
        if let until, message.event == until, message.session == session || until == "shutdown" {
          return
        }
        if let framesMax, frames >= framesMax { return }
      }
    }
  }
}
