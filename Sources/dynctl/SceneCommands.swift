import ArgumentParser
import Wire

/// The scene ops a shell uses often enough to have a command: `items_in_rect`, `set_bounds`,
/// `add_group` and `remove_group` (the others go through `send` or `run`).
struct ItemsInRectCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "items-in-rect",
    abstract: "List the items of a scene whose frames meet a rectangle (x,y,w,h).",
    discussion: "Example: dynctl items-in-rect S 0,0,160,284" + "\n\n"
      + ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session (opened with a scene).") var session: String
  @Argument(help: "The rectangle, x,y,w,h (w and h may be 0).") var rect: RectArgument

  func validate() throws {
    try rect.check("the rectangle", sides: Limits.selectionSide, allowsSizeOnly: false)
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(.itemsInRect(session: session, rect: rect.rect))
    }
  }
}

struct SetBoundsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "set-bounds",
    abstract: "Change a scene's reference bounds: w,h (origin 0,0) or x,y,w,h.",
    discussion: """
      Collision behaviors that make the reference bounds a boundary collide with the new \
      bounds from the next step. Example: dynctl set-bounds S 320,480
      """ + "\n\n" + ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session (opened with a scene).") var session: String
  @Argument(help: "The bounds, w,h or x,y,w,h.") var bounds: RectArgument

  func validate() throws {
    try bounds.check("the bounds", sides: Limits.side, allowsSizeOnly: true)
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(.setBounds(session: session, bounds: bounds.rect))
    }
  }
}

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
        .addGroup(session: session, group: GroupSpec(id: id, items: items)))
    }
  }
}

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
      try connection.connect().request(.removeGroup(session: session, group: id))
    }
  }
}
