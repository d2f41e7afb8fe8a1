/// A reply as dynd sends it: to the request `id` (absent when the request had none), either what
/// the op returns or the error that refused it. Every request gets exactly one.
public struct Reply: Equatable, Sendable {
  public var id: RequestID?
  public var result: Result<ReplyBody, ProtocolError>

  public init(id: RequestID?, _ body: ReplyBody = .empty) {
    self.id = id
    result = .success(body)
  }

  public init(id: RequestID?, error: ProtocolError) {
    self.id = id
    result = .failure(error)
  }
}

/// What an op returns beside `ok` and `id` (protocol/PROTOCOL.md, “3. Requests and replies” and “5. Ops”).
public enum ReplyBody: Equatable, Sendable {
  /// Nothing beyond `ok` and `id`.
  case empty
  /// `hello`: `protocol`, `server`, `version`, `transitions`, and (extension) `parameters`,
  /// each transition's parameter table in `transitions` order (empty from a daemon without the
  /// extension; the member is left out when empty). The daemon leaves the first two at their
  /// defaults, its own; a client reads what the daemon it talks to reports.
  case hello(
    protocol: Int = WireProtocol.version, server: String = WireProtocol.serverName,
    version: String, transitions: [String], parameters: [ParameterTable] = [])
  /// `open`: the session's name and its items with their sizes.
  case open(session: String, items: [ItemState])
  /// `step`: where the animator is after the last frame.
  case step(t: Double, running: Bool)
  /// `get`: the animator's time and items with their sizes.
  case get(t: Double, running: Bool, items: [ItemState], details: SessionDetails = SessionDetails())
  /// `watch`: the items (without sizes); as extensions, the animator's time, whether it runs,
  /// and the outcome of the transition's gesture cycle if its `done` was already sent (nil for
  /// none yet, and for scenes).
  case watch(t: Double, running: Bool, outcome: String?, items: [ItemState])
  /// `list`: the sessions in the order they were opened, a page at a time.
  case list(SessionPage)
  /// `tap`, `swipe` (extension): whether the transition took the input (false: it ignores
  /// that input there, nothing changed).
  case input(taken: Bool)
  /// `add_behavior`: the new behavior's id.
  case addBehavior(behavior: String)
  /// `debug` with `enable` true: the geometry now.
  case debug(DebugGeometry)
  /// `behaviors` (extension): a scene's behaviors in the order they were added, each with the
  /// current value of every field `set_behavior` can set (`BehaviorSpec.stateFields`).
  case behaviors([BehaviorSpec])
  /// `items_in_rect` (extension): the ids of the items whose frames meet the rectangle, in the
  /// scene's item order.
  case itemsInRect(items: [String])
}

extension MessageEncoder {
  /// Writes `reply` as one line.
  public mutating func encode(_ reply: Reply) {
    switch reply.result {
    case .failure(let error):
      errorReply(id: reply.id, error)
    case .success(let body):
      switch body {
      case .empty: self.reply(id: reply.id)
      case .hello(let proto, let server, let version, let transitions, let parameters):
        helloReply(
          id: reply.id, protocol: proto, server: server, version: version,
          transitions: transitions, parameters: parameters)
      case .open(let session, let items): openReply(id: reply.id, session: session, items: items)
      case .step(let t, let running): stepReply(id: reply.id, t: t, running: running)
      case .get(let t, let running, let items, let details):
        getReply(id: reply.id, t: t, running: running, items: items, details: details)
      case .watch(let t, let running, let outcome, let items):
        watchReply(id: reply.id, t: t, running: running, outcome: outcome, items: items)
      case .list(let page): listReply(id: reply.id, page: page)
      case .addBehavior(let behavior): addBehaviorReply(id: reply.id, behavior: behavior)
      case .input(let taken): self.reply(id: reply.id, [.bool("taken", taken)])
      case .debug(let geometry):
        self.reply(id: reply.id, [ReplyField("debug", .object(geometry.replyFields))])
      case .behaviors(let behaviors):
        self.reply(
          id: reply.id, [ReplyField("behaviors", .array(behaviors.map { .object($0.stateFields) }))]
        )
      case .itemsInRect(let items):
        self.reply(id: reply.id, [.strings("items", items)])
      }
    }
  }
}
