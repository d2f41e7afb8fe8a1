import ArgumentParser
import Wire

struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Send a JSON-lines script, one request per line, over one connection.",
    discussion: """
      Blank lines and lines starting with # are skipped. Each request's events (frames only \
      with --frames) and reply are printed before the next is sent; each reply starts with the \
      line it answers and its op (`line 5 (step): t 2 s, running`, `line 2 (add_item): ok`). The script stops at the first error reply (exit 65) \
      unless --keep-going, which sends every line and exits 65 if any reply was an error. \
      Sessions the script opens without keep close when it ends. FILE - reads standard input.
      """ + "\n\n"
        + ExitStatus.help(
          ExitStatus.errorReply + " (the script stops at the first unless --keep-going)",
          "66 the script cannot be read"))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The script (- for standard input).") var file: String
  @Flag(help: "Carry on after an error reply.") var keepGoing = false
  @Flag(help: "Print every frame (with --json every line is printed anyway).") var frames = false

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let script = try readFile(file)
      var client = try connection.connect()
      client.output.showFrames = frames
      var failures = 0
      for (offset, rawLine) in script.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let line = String(rawLine.drop { $0 == " " || $0 == "\t" })
        if line.isEmpty || line.hasPrefix("#") || line.allSatisfy({ $0 == "\r" }) { continue }
        // Read once: the label names the op, and the reply is read as the reply to it.
        let awaited = AwaitedReply(rawLine: line)
        client.output.replyLabel = "line \(offset + 1) (\(awaited.op?.name ?? "?"))"
        do throws(Failure) {
          try client.send(line: line, awaiting: awaited)
        } catch .errorReply(let code, let message) {
          failures += 1
          complain("\(file):\(offset + 1): \(code): \(message)")
          if !keepGoing {
            throw .scriptFailed("stopped at line \(offset + 1) (--keep-going sends the rest)")
          }
        }
      }
      if failures > 0 {
        throw .scriptFailed("\(failures) request\(failures == 1 ? "" : "s") failed")
      }
    }
  }
}
