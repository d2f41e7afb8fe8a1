import JSON
import Wire

/// What a recording made: the trace's header, how it ended (for the note), and the failed
/// check that gives exit status 1, if any.
struct Recording {
  let header: JSONValue
  let ending: String
  let failure: String?

  static func header(
    source: String, transition: JSONValue, session: String,
    bounds: [Double] = [0, 0, 320, 568]
  ) -> JSONValue {
    .object([
      JSONMember(name: "trace", value: .number(1)),
      JSONMember(name: "source", value: .string(source)),
      JSONMember(name: "transition", value: transition),
      JSONMember(name: "session", value: .string(session)),
      JSONMember(name: "bounds", value: .array(bounds.map { .number($0) })),
    ])
  }
}
