import ArgumentParser
import TransitionDocuments

/// `dynctl check FILE…`: transition documents checked offline, as `define` and
/// `dynd --transitions` would check them, every error at once with its JSON pointer.
struct CheckCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "check",
    abstract: "Check transition documents offline: every error at once, with its JSON pointer.",
    discussion: """
      Examples:
        dynctl check examples/transitions/swipe-card.json
        dynctl check - < drawer.json

      Needs no daemon. Prints `FILE: ok: …` for a good document, else one line per error, \
      `FILE: /pointer: what is wrong` (docs/TRANSITION-DOCUMENTS.md).
      """ + "\n\n"
        + ExitStatus.help(
          "65 a document has errors", "66 a file cannot be read", talksToDaemon: false))

  @Argument(help: "Documents to check: paths, or `-` for standard input.") var files: [String]

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var failed = 0
      for file in files {
        let text = try readFile(file)
        do throws(DocumentErrors) {
          let document = try TransitionDocument.read(text: Array(text.utf8))
          Console.current.write(
            .standardOutput,
            "\(file): ok: transition '\(document.name)', \(document.parameters.count) "
              + "parameter\(document.parameters.count == 1 ? "" : "s")\n")
        } catch {
          failed += 1
          for problem in error.errors {
            Console.current.write(.standardOutput, "\(file): \(problem)\n")
          }
          if error.total > error.errors.count {
            Console.current.write(
              .standardOutput, "\(file): and \(error.total - error.errors.count) more errors\n")
          }
        }
      }
      if failed > 0 {
        throw .invalidInput(
          path: failed == 1 ? "1 document" : "\(failed) documents", reason: "has errors (above)")
      }
    }
  }
}
