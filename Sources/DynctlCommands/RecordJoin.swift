import JSON
import Wire

/// `dynctl record --session NAME` alone: joins a session someone else opened and records what
/// happens to it without sending it anything but `get`, `list`, `hello` and `debug` (which
/// watches it).
struct RecordJoin {
  let session: String
  /// Seconds of waiting, on the wall clock: a joined session runs on its own clock, or is
  /// stepped by someone else.
  let maxSeconds: Double

  func record(_ client: DaemonClient) throws(Failure) -> Recording {
    // The items with their sizes and the state now (the trace's first frame), the reference
    // bounds and a transition's parameters as it was opened (get's extension).
    let state = try client.request(Op(GetRequest(session: session)), quietReply: true)
    var bounds: [Double] = [0, 0, 320, 568]
    if case .get(_, _, _, let details) = state, let rect = details.bounds {
      bounds = [rect.minX, rect.minY, rect.size.width, rect.size.height]
    }
    // Whether it is a transition (it ends with `done`) or a scene (it ends at rest).
    let transition = try client.summary(of: session)?.transition
    // A transition's parameter tables, for the units and defaults.
    if transition != nil { try client.request(Op(HelloRequest()), quietReply: true) }
    try client.request(Op(DebugRequest(session: session, enable: true)), quietReply: true)
    // From here on everything the session does is recorded: a script driving it can start.
    Output(json: false).note(
      "recording \(session): watching it for up to \(JSONValue.number(maxSeconds).jsonText) s")
    let deadline = monotonicSeconds() + maxSeconds
    var frames = 0
    var ending = "\(JSONValue.number(maxSeconds).jsonText) s passed"
    reading: while true {
      switch try client.connection.receive(deadline: deadline) {
      case .timedOut:
        break reading
      case .endOfInput:
        ending = "the daemon closed the connection"
        break reading
      case .message(let message):
        client.trace?.received(message)
        guard case .event(let event) = message.content else { continue }
        switch event {
        case .frame(let frame) where frame.session == session:
          frames += 1
        case .done(session, let outcome, _) where transition != nil:
          ending = outcome
          break reading
        case .pause(session, _) where transition == nil:
          ending = "at rest"
          break reading
        case .closed(session, let reason):
          ending = "the session was closed (\(reason))"
          break reading
        case .shutdown:
          ending = "the daemon shut down"
          break reading
        default:
          continue
        }
      }
    }
    return Recording(
      header: Recording.header(
        source: "session", transition: transition.map { .string($0) } ?? .null,
        session: session, bounds: bounds),
      ending: ending,
      failure: frames == 0
        ? "no frame from \(session) before \(ending): it did not move while recorded" : nil)
  }
}
