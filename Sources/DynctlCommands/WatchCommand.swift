import ArgumentParser
import JSON
import Primitives
import Wire

struct WatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "watch",
    abstract: "Print a session's events as they happen.",
    discussion: """
      Prints the session's state (time, running or at rest, the outcome already reported) and \
      items, then its frames and events until --until sees the named event, --frames-max \
      frames have arrived, --for seconds have passed, the session is closed, or the daemon \
      shuts down; else until interrupted.

      --until pause ends at once when the session is already at rest, and --until done when \
      the transition already reported the outcome of its current gesture; otherwise the \
      event must come: if the watch ends first (--for, --frames-max, the session closed), \
      the exit status is 1.
      """ + "\n\n"
        + ExitStatus.help("1 --until's event did not come", ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String
  @Option(
    help: "Stop after the first event of this kind (pause, done, contact, …); else exit 1.")
  var until: String?
  @Option(parsing: .unconditional, help: "Stop after this many frames.") var framesMax: Int?
  @Option(name: .customLong("for"), parsing: .unconditional, help: "Stop after this many seconds.")
  var duration: Double?
  @Flag(help: "Do not print frames (events only).") var noFrames = false

  func validate() throws {
    if let framesMax, framesMax < 1 {
      throw ValidationError("--frames-max \(framesMax): must be at least 1")
    }
    if let duration, !(duration > 0 && duration.isFinite) {
      throw ValidationError(
        "--for \(JSONValue.number(duration).jsonText): must be a positive number of seconds")
    }
    if let until, EventName(rawValue: until) == nil {
      let names = EventName.allCases.map(\.rawValue)
      let suggestion = closestName(to: until, among: names).map { "did you mean '\($0)'? " }
      throw ValidationError(
        "--until '\(until)' is no event; \(suggestion ?? "")the events are "
          + names.joined(separator: ", "))
    }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var client = try connection.connect()
      client.output.showFrames = !noFrames
      let reply = try client.request(Op(WatchRequest(session: session)))
      if case .watch(_, let running, let outcome, _) = reply {
        if until == "pause", !running {
          client.output.note("\(session) is already at rest")
          return
        }
        if until == "done", let outcome {
          client.output.note("\(session) already reported its outcome: \(outcome)")
          return
        }
      }
      let deadline = duration.map { monotonicSeconds() + $0 }
      var frames = 0
      while true {
        let message: Message
        switch try client.connection.receive(deadline: deadline) {
        case .message(let received): message = received
        case .timedOut:
          return try unmet("\(duration.map { JSONValue.number($0).jsonText } ?? "?") s passed")
        case .endOfInput: throw .protocolFailure("the daemon closed the connection")
        }
        client.output.event(message)
        if let until, message.event == until, message.session == session || until == "shutdown" {
          return
        }
        if message.eventKind == .shutdown { return try unmet("the daemon shut down") }
        if message.eventKind == .closed, message.session == session {
          return try unmet("the session was closed")
        }
        if message.eventKind == .frame { frames += 1 }
        if let framesMax, frames >= framesMax { return try unmet("\(framesMax) frames came") }
      }
    }
  }

  /// Ends a watch that stopped for `reason`: fine without --until, a failed check with it.
  func unmet(_ reason: String) throws(Failure) {
    guard let until else { return }
    throw .checkFailed("no '\(until)' event from \(session): the watch ended when \(reason)")
  }
}
