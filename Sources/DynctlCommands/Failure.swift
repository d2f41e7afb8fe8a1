import ArgumentParser

/// Why dynctl stops, and the exit status each reason gets (sysexits.h values, so scripts can
/// tell a typo from a missing daemon from a refusal).
///
/// | status | meaning |
/// |---:|---|
/// | 0 | every request was answered `ok` |
/// | 1 | a check failed: `handoff` velocities differ, `play` saw no outcome in time |
/// | 64 | usage: bad arguments (ArgumentParser's validation failure) |
/// | 65 | the daemon answered a request with an error reply, or a scene or trace (a file, or `--scene`'s inline JSON) is not valid: what the daemon would have refused |
/// | 66 | a script, scene or trace file could not be read (missing, not permitted) |
/// | 73 | an output file could not be written |
/// | 69 | no daemon: the socket could not be reached |
/// | 76 | the daemon broke the protocol, closed the connection or did not answer in time |
/// | 77 | `EX_NOPERM`: a socket directory not private to the user, or a daemon of another user |
enum Failure: Error, CustomStringConvertible {
  case unreachable(path: String, reason: String)
  case errorReply(code: String, message: String)
  /// A `run` script met error replies (already reported line by line).
  case scriptFailed(String)
  /// What `handoff` or `play` checks did not hold.
  case checkFailed(String)
  /// A FAIL line that a check already wrote where its verdicts go (`handoff`): exit status 1,
  /// not written again.
  case verdictWritten(String)
  case unreadableFile(path: String, reason: String)
  /// A scene or trace that could be read but is not valid (`EX_DATAERR`, as an error reply).
  case invalidInput(path: String, reason: String)
  case unwritableFile(path: String, reason: String)
  case protocolFailure(String)
  /// The socket directory or the daemon failed `SocketTrust`; the sentence says what and what to
  /// do.
  case untrusted(String)

  var exitCode: ExitCode {
    switch self {
    case .checkFailed, .verdictWritten: ExitCode(1)
    case .errorReply, .scriptFailed, .invalidInput: ExitCode(65)
    case .unreadableFile: ExitCode(66)
    case .unreachable: ExitCode(69)
    case .unwritableFile: ExitCode(73)
    case .protocolFailure: ExitCode(76)
    case .untrusted: ExitCode(77)
    }
  }

  var description: String {
    switch self {
    case .unreachable(let path, let reason):
      "no daemon at \(path): \(reason) (start one with `dynd`, or pass --socket)"
    case .errorReply(let code, let message): "\(code): \(message)"
    case .scriptFailed(let what), .checkFailed(let what), .verdictWritten(let what): what
    case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
    case .invalidInput(let path, let reason): "\(path): \(reason)"
    case .unwritableFile(let path, let reason): "cannot write \(path): \(reason)"
    case .protocolFailure(let what), .untrusted(let what): what
    }
  }
}

/// The "Exit status" paragraph of each command's help: `specific` are the statuses of its own
/// (e.g. `1 FAIL`), then those of every command that talks to the daemon, in numeric order.
enum ExitStatus {
  static let daemon = [
    "64 usage", "69 no daemon at the socket",
    "76 the daemon broke the protocol, closed the connection or did not answer within --timeout",
    "77 refused before sending anything: an untrusted socket directory or a daemon of another "
      + "user (see dynctl --help)",
  ]

  /// The status of an error reply, shared by most commands.
  static let errorReply = "65 the daemon answered with an error"

  static func help(_ specific: String..., talksToDaemon: Bool = true) -> String {
    var statuses: [Int: String] = [:]
    for status in specific + (talksToDaemon ? daemon : []) {
      let number = Int(status.prefix { $0.isNumber }) ?? 0
      if statuses[number] == nil { statuses[number] = status }
    }
    return "Exit status: 0 success; "
      + statuses.keys.sorted().compactMap { statuses[$0] }.joined(separator: "; ") + "."
  }
}

/// Runs a command body, turning a `Failure` into its message on standard error and its exit
/// status.
func runReportingFailure(_ body: () throws(Failure) -> Void) throws {
  do {
    try body()
  } catch {
    if case .verdictWritten = error {} else { complain(error.description) }
    throw error.exitCode
  }
}
