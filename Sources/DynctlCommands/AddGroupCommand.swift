import ArgumentParser
import Wire

struct AddGroupCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "add-group",
    abstract: "Group items of a scene into one rigid body (UIDynamicItemGroup).",
    discussion: """
      Behaviors may then name the group's ID where they take items; the members still report \
      their own states. Example: dynctl add-group S pair left right
      """ + "\n\n" + ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session (opened with a scene).") var session: String
  @Argument(help: "The group's id.") var id: String
  @Argument(help: "Its items (at least one).") var items: [String] = []

  func validate() throws {
    guard !items.isEmpty else { throw ValidationError("a group needs at least one ITEM") }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(
        Op(AddGroupRequest(session: session, group: GroupSpec(id: id, items: items))))
    }
  }
}
