import ArgumentParser
import Wire

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
      try connection.connect().request(Op(SetBoundsRequest(session: session, bounds: bounds.rect)))
    }
  }
}
