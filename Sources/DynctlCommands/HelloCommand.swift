import ArgumentParser
import Wire

struct HelloCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "hello", abstract: "Show the daemon's version, protocol and transitions.",
    discussion: ExitStatus.help())

  @OptionGroup var connection: ConnectionOptions
  @Flag(help: "Also list each transition's parameters: default, range or choices, unit, source.")
  var parameters = false

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let client = try connection.connect()
      let reply = try client.request(Op(HelloRequest()))
      guard parameters, case .hello(_, _, _, _, let tables) = reply else { return }
      for line in HumanFormat.parameters(tables) { client.output.note(line) }
    }
  }
}
