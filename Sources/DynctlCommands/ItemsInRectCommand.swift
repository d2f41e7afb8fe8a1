import ArgumentParser
import Wire

/// `items_in_rect`, one of the scene ops a shell uses often enough to have a command (with
/// `set_bounds`, `add_group` and `remove_group`; the others go through `send` or `run`).
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
      try connection.connect().request(Op(ItemsInRectRequest(session: session, rect: rect.rect)))
    }
  }
}
