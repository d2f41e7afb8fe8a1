import JSON

/// One line dynd wrote, typed: a reply or an event (`ServerMessageDecoder` reads it).
///
/// A client must keep working with a newer daemon, so what this version does not define is kept
/// rather than refused: an event with an unknown `ev` word arrives as `unknownEvent` with its
/// fields, and an error reply with an unknown `code` as `unknownError`; fields a message does
/// not define are ignored.
public enum ServerMessage: Equatable, Sendable {
  case reply(Reply)
  case event(Event)
  /// An error reply whose `code` this version does not define. It is still the reply to the
  /// request it answers.
  case unknownError(id: RequestID?, code: String, message: String)
  /// An event this version does not define: its `ev` word and the whole line as parsed.
  case unknownEvent(name: String, fields: JSONValue)

  /// Whether this is the reply to a request (every request gets exactly one).
  public var isReply: Bool {
    switch self {
    case .reply, .unknownError: return true
    case .event, .unknownEvent: return false
    }
  }

  /// The `ev` word of an event; `nil` for a reply.
  public var eventName: String? {
    switch self {
    case .event(let event): return event.name
    case .unknownEvent(let name, _): return name
    case .reply, .unknownError: return nil
    }
  }

  /// The session an event is about; `nil` for replies and `shutdown`.
  public var session: String? {
    switch self {
    case .event(let event): return event.session
    case .unknownEvent(_, let fields): return fields["session"]?.string
    case .reply, .unknownError: return nil
    }
  }

  /// The `code` and `message` of an error reply; `nil` for anything else.
  public var error: (code: String, message: String)? {
    switch self {
    case .reply(let reply):
      guard case .failure(let error) = reply.result else { return nil }
      return (error.code.rawValue, error.message)
    case .unknownError(_, let code, let message):
      return (code, message)
    case .event, .unknownEvent:
      return nil
    }
  }

  /// The body of a successful reply; `nil` for anything else.
  public var replyBody: ReplyBody? {
    guard case .reply(let reply) = self, case .success(let body) = reply.result else {
      return nil
    }
    return body
  }
}
