import ArgumentParser
import Glibc
import Wire

struct TapCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tap", abstract: "Tap a session at a point (x,y).",
    discussion: """
      Prints whether the transition took the tap ("taken"; what it causes follows in the \
      frames, e.g. lock-screen's camera grabber bounces the screen) or ignored it there.
      """ + "\n\n"
        + ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String
  @Argument(help: "Where (x,y).") var point: PairArgument

  func validate() throws { try point.checkPoint("the point") }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().request(Op(TapRequest(session: session, point: point.point)))
    }
  }
}
