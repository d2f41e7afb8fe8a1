import ArgumentParser
import Wire

struct BehaviorsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "behaviors",
    abstract: "Show a scene's behaviors with the current value of every settable field.",
    discussion: ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session (opened with a scene).") var session: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(Op(BehaviorsRequest(session: session)))
    }
  }
}
