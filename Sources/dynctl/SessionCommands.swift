import ArgumentParser
import Wire

struct HelloCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hello", abstract: "Show the daemon's version, protocol and transitions.",
    discussion: ExitStatus.help())

  @OptionGroup var connection: ConnectionOptions
  @Flag(help: "Also list each transition's parameters: default, range or choices, unit, source.")
  var parameters = false

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let client = try connection.connect()
      let reply = try client.request(.hello)
      guard parameters, case .hello(_, _, _, _, let tables) = reply else { return }
      for line in HumanFormat.parameters(tables) { client.output.note(line) }
    }
  }
}

struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the sessions: content, clock, running or at rest.",
    discussion: ExitStatus.help())

  @OptionGroup var connection: ConnectionOptions

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      // Page by page (a reply holds about a megabyte of sessions): one reply printed each.
      let client = try connection.connect()
      var from: Int? = 0
      while let start = from {
        guard case .list(let page) = try client.request(.list(ListRequest(from: start))) else {
          return
        }
        from = page.next
      }
    }
  }
}

struct GetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "get", abstract: "Show a session's time, whether it runs, and its items.",
    discussion: ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(.get(session: session))
    }
  }
}

struct BehaviorsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "behaviors",
    abstract: "Show a scene's behaviors with the current value of every settable field.",
    discussion: ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session (opened with a scene).") var session: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(.behaviors(session: session))
    }
  }
}

struct CloseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "close", abstract: "Close a session.",
    discussion: ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(.close(session: session))
    }
  }
}

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
      let reply = try client.request(.step(step), quietReply: true) { event in
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
