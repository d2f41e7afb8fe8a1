/// `list`'s fields (extension): where the page starts and how long it may be.
public struct ListRequest: Equatable, Sendable {
  /// The first session listed is the first opened at or after this opening number (the `next`
  /// of an earlier reply; 0, the default, is the beginning).
  public var from: Int
  /// Sessions in the reply at most (nil: as many as `Limits.maxListBytes` holds).
  public var limit: Int?

  public init(from: Int = 0, limit: Int? = nil) {
    self.from = from
    self.limit = limit
  }
}

/// A `list` reply: sessions in the order they were opened, and where the next page starts when
/// some were left for it.
public struct SessionPage: Equatable, Sendable {
  public var sessions: [SessionSummary]
  /// The `from` that lists the sessions after these (nil: none is left).
  public var next: Int?

  public init(_ sessions: [SessionSummary], next: Int? = nil) {
    self.sessions = sessions
    self.next = next
  }

  /// Bytes `summary` takes in a reply at most (a name's every byte may need escaping).
  public static func bytes(of summary: SessionSummary) -> Int {
    2 * (summary.session.utf8.count + (summary.transition?.utf8.count ?? 0)) + 100
  }
}

/// One entry of a `list` reply: `{"session","transition","clock","running"}`, and
/// `missed_ticks` for a realtime session.
public struct SessionSummary: Equatable, Sendable {
  public var session: String
  /// The transition's name; `nil` (written `null`) for a session opened from a scene.
  public var transition: String?
  public var clock: Clock
  public var running: Bool
  /// Realtime only: ticks of the session's frame clock that gave it no frame (the clock woke
  /// late, or its previous frame was still being computed) since it opened.
  public var missedTicks: Int?

  public init(
    session: String, transition: String?, clock: Clock, running: Bool, missedTicks: Int? = nil
  ) {
    self.session = session
    self.transition = transition
    self.clock = clock
    self.running = running
    self.missedTicks = missedTicks
  }
}

/// `list`: the open sessions in the order they were opened, a page at a time.
extension ListRequest: OpRequest {
  public static let name = "list"
  public static let fields: [StaticString] = ["from", "limit"]
  public static let target = OpTarget.daemon
  public static let changesStepCost = false
  public var targetSession: String? { nil }

  public static let defaultFrom = 0
  public static var defaults: [FieldDefault] {
    [FieldDefault("from", .number(Double(defaultFrom)))]
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      from: try fields.integer("from", in: Limits.listFrom) ?? defaultFrom,
      limit: try fields.integer("limit", in: Limits.listLimit))
  }

  public func write(to encoder: inout RequestEncoder) {
    if from != 0 { encoder.integer("from", from) }
    if let limit { encoder.integer("limit", limit) }
  }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    var sessions: [SessionSummary] = []
    for entry in try fields.objects("sessions") {
      sessions.append(
        SessionSummary(
          session: try entry.string("session"),
          transition: try entry.nullableString("transition"),
          clock: try entry.word("clock", as: Clock.self), running: try entry.bool("running"),
          missedTicks: try entry.optionalInteger("missed_ticks")))
    }
    return .list(SessionPage(sessions, next: try fields.optionalInteger("next")))
  }
}

extension MessageEncoder {
  /// `list`: `sessions`, each `{session, transition, clock, running}` and `missed_ticks` for
  /// a realtime session.
  public mutating func listReply(id: RequestID?, page: SessionPage) {
    let summaries: [ReplyValue] = page.sessions.map { summary in
      var fields: [ReplyField] = [
        .string("session", summary.session),
        ReplyField("transition", summary.transition.map { .string($0) } ?? .null),
        .string("clock", summary.clock.rawValue), .bool("running", summary.running),
      ]
      if let missed = summary.missedTicks { fields.append(.integer("missed_ticks", missed)) }
      return .object(fields)
    }
    var fields = [ReplyField("sessions", .array(summaries))]
    if let next = page.next { fields.append(.integer("next", next)) }
    reply(id: id, fields)
  }
}

extension Limits {
  /// Bytes of session summaries in one `list` reply (counted from the names' lengths before
  /// anything is written). 20 000 sessions of 256-byte names made a 13 MB reply, tens of
  /// milliseconds of the loop each time it was asked; beyond it the reply carries `next`, where
  /// the next page starts (PROTOCOL.md, "list").
  public static let maxListBytes = 1 << 20
  /// `list`'s `from`: an opening number (`next` of an earlier reply), a JSON-exact integer.
  public static let listFrom = 0...((1 << 53) - 1)
  /// `list`'s `limit`: sessions in one reply at most.
  public static let listLimit = 1...maxSessions
}
