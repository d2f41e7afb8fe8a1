import ArgumentParser
import Glibc
import JSON
import Wire

/// The transition to open (`play`, `record`, `handoff`).
struct TransitionChoice: ParsableArguments {
  @Argument(help: "The transition (see `dynctl hello`).") var transition: String
  @Option(help: "The session's name (default: TRANSITION-PID).") var session: String?
  @Option(
    name: .customLong("param"),
    help: "A transition parameter NAME=VALUE (VALUE is JSON, or else a string); repeatable.")
  var params: [String] = []

  func validate() throws {
    for param in params where !param.contains("=") {
      throw ValidationError("--param '\(param)' must be NAME=VALUE")
    }
  }

  /// Opens the transition on this connection (closed with it) and returns the session name.
  func open(_ client: DaemonClient, clock: Clock) throws(Failure) -> String {
    try openTransition(transition, session: session, params: params, client, clock: clock)
  }
}

/// Opens `transition` with `NAME=VALUE` params on this connection (closed with it) as `session`
/// (default TRANSITION-PID) and returns the session name.
func openTransition(
  _ transition: String, session: String?, params: [String], _ client: DaemonClient, clock: Clock
) throws(Failure) -> String {
  let session = session ?? "\(transition)-\(getpid())"
  let open = OpenRequest(
    source: .transition(name: transition, params: try transitionParams(params)),
    session: session, clock: clock)
  try client.request(Op(open))
  return session
}

/// Transition parameters from `NAME=VALUE` arguments, VALUE read as JSON if it parses, else as
/// a string; checked as the daemon checks `params` (a failure is reported as the daemon's
/// error reply would have been).
func transitionParams(_ arguments: [String]) throws(Failure) -> TransitionParams {
  guard !arguments.isEmpty else { return TransitionParams() }
  let members = arguments.map { text in
    let name = String(text.prefix { $0 != "=" })
    let raw = String(text.drop { $0 != "=" }.dropFirst())
    let value = (try? JSONParser().parse(raw)) ?? .string(raw)
    return JSONMember(name: name, value: value)
  }
  do throws(ProtocolError) {
    return try TransitionParams(json: .object(members))
  } catch {
    throw .errorReply(code: error.code.rawValue, message: error.message)
  }
}
