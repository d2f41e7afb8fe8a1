import ArgumentParser
import Wire

struct SendCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "send",
    abstract: "Send one raw request line; print the events it causes and its reply.",
    discussion: #"Example: dynctl send '{"op":"hello","id":1}'"# + "\n\n"
      + ExitStatus.help(ExitStatus.errorReply))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The request, one JSON object.") var line: String

  func validate() throws {
    guard !line.contains("\n") else { throw ValidationError("the request must be one line") }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      try connection.connect().send(rawLine: line)
    }
  }
}
