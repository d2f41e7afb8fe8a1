import ArgumentParser
import Wire

struct RemoveGroupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "remove-group",
    abstract: "Remove an item group; its members move on their own again.",
    discussion: ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session (opened with a scene).") var session: String
  @Argument(help: "The group's id.") var id: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(Op(RemoveGroupRequest(session: session, group: id)))
    }
  }
}
