import ArgumentParser
import Glibc
import Primitives
import Wire

struct SwipeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "swipe", abstract: "Swipe a session left, right, up or down.",
    discussion: """
      Prints whether the transition took the swipe ("taken") or ignored it (a direction it \
      does nothing with).
      """ + "\n\n"
        + ExitStatus.help(ExitStatus.errorReply))

  enum Direction: String, ExpressibleByArgument, CaseIterable {
    case left, right, up, down

    var direction: SwipeDirection {
      switch self {
      case .left: .left
      case .right: .right
      case .up: .up
      case .down: .down
      }
    }
  }

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The session.") var session: String
  @Argument(help: "left, right, up or down.") var direction: Direction
  @Option(help: "Where the swipe starts (x,y).") var at: PairArgument?
  @Option(parsing: .unconditional, help: "Its velocity in points per second (vx,vy).")
  var velocity: PairArgument?

  func validate() throws {
    try at?.checkPoint("--at")
    try velocity?.checkVelocity("--velocity")
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let swipe = SwipeRequest(
        session: session, direction: direction.direction, point: at?.point,
        velocity: velocity?.vector)
      try connection.connect().request(Op(swipe))
    }
  }
}
