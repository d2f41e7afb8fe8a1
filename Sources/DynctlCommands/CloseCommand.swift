import ArgumentParser
import Wire

struct CloseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "close", abstract: "Close a session.",
    discussion: ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(Op(CloseRequest(session: session)))
    }
  }
}
