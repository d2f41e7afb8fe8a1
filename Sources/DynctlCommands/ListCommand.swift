import ArgumentParser
import Wire

struct ListCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "list", abstract: "List the sessions: content, clock, running or at rest.",
    discussion: ExitStatus.help())

  @OptionGroup var connection: ConnectionOptions

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      // Page by page (a reply holds about a megabyte of sessions): one reply printed each.
      let client = try connection.connect()
      var from: Int? = 0
      while let start = from {
        guard case .list(let page) = try client.request(Op(ListRequest(from: start))) else {
          return
        }
        from = page.next
      }
    }
  }
}
