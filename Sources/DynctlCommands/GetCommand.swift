import ArgumentParser
import Wire

struct GetCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "get", abstract: "Show a session's time, whether it runs, and its items.",
    discussion: ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(Op(GetRequest(session: session)))
    }
  }
}
