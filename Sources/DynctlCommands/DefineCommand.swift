import ArgumentParser
import JSON
import Wire

/// `dynctl define FILE`: a transition document sent to the daemon (`define`), which offers it to
/// new sessions once it holds (`dynctl check` checks one without a daemon).
struct DefineCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "define",
    abstract: "Define a transition from a document, for new sessions (see `dynctl check`).",
    discussion: """
      Examples:
        dynctl define examples/transitions/card.json
        dynctl open card --bounds 412x915

      The daemon checks the document whole; its errors come back with their JSON pointers. \
      It stays defined until the daemon reads its directories again (SIGHUP).
      """ + "\n\n"
        + ExitStatus.help(
          ExitStatus.errorReply + " (the document's errors), or the file is not JSON",
          "66 the file cannot be read"))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The document: a JSON file, or `-` for standard input.") var file: String

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let text = try readFile(file)
      let document: JSONValue
      do throws(JSONSyntaxError) {
        document = try JSONParser().parse(text)
      } catch {
        throw .invalidInput(path: file, reason: "not JSON: \(error.message)")
      }
      guard case .object = document else {
        throw .invalidInput(path: file, reason: "a transition document is a JSON object")
      }
      try connection.connect().request(Op(DefineRequest(document: document.jsonText)))
    }
  }
}
