import ArgumentParser
import Glibc
import JSON
import Primitives
import Wire

/// The transition to open (`play`, `record`, `handoff`).
struct TransitionChoice: ParsableArguments {
  @Argument(help: "The transition (see `dynctl hello`).") var transition: String
  @Option(help: "The session's name (default: TRANSITION-PID).") var session: String?
  @Option(
    name: .customLong("param"),
    help: "A transition parameter NAME=VALUE (VALUE is JSON, or else a string); repeatable.")
  var params: [String] = []
  @Option(help: transitionBoundsHelp) var bounds: String?
  @Flag(
    help: """
      List every item the transition opens with (without it: each of up to \
      \(HumanFormat.listedItems), else how many there are and their first and last names).
      """)
  var items = false

  func validate() throws {
    for param in params where !param.contains("=") {
      throw ValidationError("--param '\(param)' must be NAME=VALUE")
    }
    _ = try transitionBounds(bounds)
  }

  /// Opens the transition on this connection (closed with it) and returns the session name.
  func open(_ client: DaemonClient, clock: Clock) throws(Failure) -> String {
    try openTransition(
      transition, session: session, params: params, bounds: try? transitionBounds(bounds),
      client, clock: clock, listItems: items)
  }
}

let transitionBoundsHelp = ArgumentHelp(
  "The transition's bounds in points: WxH (origin 0, 0) or X,Y,WxH (default 320x568).",
  valueName: "bounds")

/// `--bounds`: `WxH` or `X,Y,WxH`; nil when not given. The daemon checks the sides' range.
func transitionBounds(_ text: String?) throws -> Rect? {
  guard let text else { return nil }
  let parts = text.split(separator: ",", omittingEmptySubsequences: false)
  let size = parts.last.map { $0.split(separator: "x", omittingEmptySubsequences: false) }
  guard parts.count == 1 || parts.count == 3, let size, size.count == 2,
    let width = Double(size[0]), let height = Double(size[1]),
    let x = parts.count == 3 ? Double(parts[0]) : 0,
    let y = parts.count == 3 ? Double(parts[1]) : 0
  else {
    throw ValidationError("--bounds '\(text)': must be WxH or X,Y,WxH (e.g. 412x915)")
  }
  return Rect(x: x, y: y, width: width, height: height)
}

/// Opens `transition` with `NAME=VALUE` params on this connection (closed with it) as `session`
/// (default TRANSITION-PID) and returns the session name. The reply lists every item with
/// `listItems`, else each of up to `HumanFormat.listedItems` and a count beyond that.
func openTransition(
  _ transition: String, session: String?, params: [String], bounds: Rect? = nil,
  _ client: DaemonClient, clock: Clock, listItems: Bool = true
) throws(Failure) -> String {
  let session = session ?? "\(transition)-\(getpid())"
  let open = OpenRequest(
    source: .transition(name: transition, params: try transitionParams(params)),
    session: session, clock: clock, bounds: bounds)
  let reply = try client.request(Op(open), quietReply: !listItems)
  if !listItems, case .open(let name, let states) = reply {
    for line in HumanFormat.openSummary(session: name, items: states) { client.output.note(line) }
  }
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
