import Primitives

/// The snake_case error codes of the wire protocol (protocol/PROTOCOL.md, “8. Error codes”).
///
/// The raw value is what goes on the wire in `error.code`. The codec produces the first ten; the
/// daemon produces the session, item, behavior and transition codes and `busy`.
public enum ErrorCode: String, CaseIterable, Sendable {
  /// The line is not JSON (syntax error, single quotes, bad UTF-8, NUL, nesting too deep).
  case badJSON = "bad_json"
  /// The line is valid JSON but not an object.
  case notAnObject = "not_an_object"
  /// A required field is absent.
  case missingField = "missing_field"
  /// A field the op or object does not define (a typo is never ignored).
  case unknownField = "unknown_field"
  /// A field has the wrong JSON type (a string where a number belongs, a 3-element point…).
  case wrongType = "wrong_type"
  /// A number is NaN, infinite, or overflows a double.
  case invalidNumber = "invalid_number"
  /// A value is outside its documented range or set of words.
  case outOfRange = "out_of_range"
  /// The `op` names no operation.
  case unknownOp = "unknown_op"
  /// The `transition` names no transition the daemon hosts.
  case unknownTransition = "unknown_transition"
  /// The `session` names no open session.
  case unknownSession = "unknown_session"
  /// `open` asked for a session name that is taken.
  case sessionExists = "session_exists"
  /// An item id names no item of the session.
  case unknownItem = "unknown_item"
  /// A behavior id names no behavior of the session.
  case unknownBehavior = "unknown_behavior"
  /// The scene (or a scene object) is inconsistent: duplicate ids, dangling references,
  /// degenerate or non-convex geometry.
  case invalidScene = "invalid_scene"
  /// The line exceeds the line limit; the connection closes after the reply.
  case lineTooLong = "line_too_long"
  /// The daemon cannot take the request now (e.g. too much output queued for this connection).
  case busy = "busy"
  /// Extension: a line was started and not finished within the daemon's time limit; the
  /// connection is closed after the reply.
  case lineTimeout = "line_timeout"
  /// Extension: parameters of two ways to give one thing were given together (a transition's
  /// spring in two parameter sets, its decay in two models); the message names both.
  case conflictingFields = "conflicting_fields"
  /// Extension: every connection slot is taken and this connection, idle longest, gives way to
  /// a new one; it is closed after the reply.
  case evicted = "evicted"
}

/// A protocol error: a code for programs and a sentence for people.
///
/// This is the one error type of the project's protocol layer: the codec throws it, the daemon
/// replies with it and the CLI prints it. The message names the field or the thing that is wrong,
/// e.g. "field 'elasticty' is not defined for op 'add_behavior'".
public struct ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The machine-readable code.
  public var code: ErrorCode
  /// A human sentence; names the field (as a dotted path such as `scene.items[2].size`) or object.
  public var message: String

  /// Creates an error from a code and a sentence.
  public init(_ code: ErrorCode, _ message: String) {
    self.code = code
    self.message = message
  }

  /// `code: message`, for logs and the CLI.
  public var description: String { "\(code.rawValue): \(message)" }
}

extension ProtocolError {
  /// The reply to a line longer than `limit` bytes.
  public static func lineTooLong(limit: Int) -> ProtocolError {
    ProtocolError(.lineTooLong, "line is longer than \(limit) bytes; the connection will be closed")
  }

  /// The reply to a line left unfinished for `seconds`.
  public static func lineTimeout(seconds: Double) -> ProtocolError {
    ProtocolError(
      .lineTimeout,
      "a line was started but not finished within \(plainNumber(seconds)) s; the connection "
        + "will be closed")
  }

  /// What an idle connection reads when it gives way to a new one: `connections` are open,
  /// dynd's most, and this one had been idle for `idleSeconds`.
  public static func evicted(connections: Int, idleSeconds: Double) -> ProtocolError {
    ProtocolError(
      .evicted,
      "dynd holds \(connections) connections, its most, and this one gives way to a new client: "
        + "it had been idle longest (\(plainNumber((idleSeconds * 10).rounded() / 10)) s with no "
        + "request and no session watched); the connection will be closed")
  }

  /// The reply to an `open` naming a transition the daemon does not host.
  /// `known` are the names the daemon hosts: the message suggests the closest and lists them.
  public static func unknownTransition(_ name: String, known: [String]) -> ProtocolError {
    ProtocolError(
      .unknownTransition,
      "no transition is named '\(name)'"
        + (closestName(to: name, among: known).map { " (did you mean '\($0)'?)" } ?? "")
        + "; the transitions are \(known.joined(separator: ", "))")
  }

  /// The reply to a request naming a session that is not open; `open` are the names of the
  /// sessions that are, for a suggestion.
  public static func unknownSession(_ name: String, open: [String] = []) -> ProtocolError {
    ProtocolError(.unknownSession, "no session is named '\(name)'" + didYouMean(name, among: open))
  }

  /// The reply to an `open` asking for a session name that is taken.
  public static func sessionExists(_ name: String) -> ProtocolError {
    ProtocolError(.sessionExists, "a session named '\(name)' is already open")
  }

  /// The reply to a request naming an item that the session does not have.
  public static func unknownItem(_ name: String, session: String) -> ProtocolError {
    ProtocolError(.unknownItem, "session '\(session)' has no item '\(name)'")
  }

  /// The reply to a request naming a behavior that the session does not have.
  public static func unknownBehavior(_ name: String, session: String) -> ProtocolError {
    ProtocolError(.unknownBehavior, "session '\(session)' has no behavior '\(name)'")
  }
}
