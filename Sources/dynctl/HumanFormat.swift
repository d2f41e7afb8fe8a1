import Wire

/// The readable forms of the daemon's replies and events.
enum HumanFormat {
  static func event(_ value: JSONValue) -> String {
    let session = value["session"]?.string.map { "\($0) " } ?? ""
    switch value["ev"]?.string ?? "" {
    case "frame":
      let items = (value["items"]?.arrayValue ?? []).map {
        "\(text($0["id"])) \(vector($0["center"]))"
      }
      return "\(session)frame \(text(value["seq"])) t \(text(value["t"])): "
        + items.joined(separator: ", ") + dropped(value["dropped"])
    case "contact":
      let partner: String
      if let other = value["with"]?.string {
        partner = "item \(other)"
      } else if let boundary = value["boundary"]?.string {
        partner = "boundary \(boundary)"
      } else {
        partner = "the reference bounds"
      }
      let point = value["point"].map { " at \(vector($0))" } ?? ""
      return "\(session)contact \(text(value["phase"])): \(text(value["item"])) and \(partner)"
        + point
    case "pause": return "\(session)pause at t \(text(value["t"])): at rest"
    case "resume": return "\(session)resume at t \(text(value["t"]))"
    case "handoff":
      var constraints: [String] = []
      if case .array(let list)? = value["constraints"] {
        for c in list {
          switch c["kind"]?.string {
          case "rail": constraints.append("a rail along \(vector(c["axis"]))")
          case "speed_limit": constraints.append("the speed limit \(text(c["max_speed"])) pt/s")
          case let kind: constraints.append(kind ?? "?")
          }
        }
      }
      return "\(session)handoff \(text(value["item"])): gesture velocity "
        + "\(vector(value["gesture_velocity"])), item velocity \(vector(value["item_velocity"]))"
        + (constraints.isEmpty ? "" : " (changed by " + constraints.joined(separator: ", ") + ")")
    case "done": return "\(session)done: \(text(value["outcome"]))"
    case "closed": return "\(session)closed (\(text(value["reason"])))"
    case "shutdown": return "the daemon is shutting down (\(text(value["reason"])))"
    default: return value.jsonText
    }
  }

  /// The fields of an `ok` reply, one line each; items and sessions one line per entry.
  static func reply(_ value: JSONValue) -> [String] {
    guard case .object(let members) = value else { return [value.jsonText] }
    var lines: [String] = []
    for member in members where member.name != "ok" && member.name != "id" {
      switch member.name {
      case "items":
        lines += (member.value.arrayValue ?? []).map(item)
      case "sessions":
        lines += sessions(member.value.arrayValue ?? [])
      case "running" where value["t"] != nil:
        break  // with `t`, below
      case "running":
        lines.append(member.value.bool == true ? "running" : "at rest")
      case "t":
        let state = value["running"].map { $0.bool == true ? ", running" : ", at rest" } ?? ""
        lines.append("t \(text(member.value)) s\(state)")
      case "transitions":
        let names = (member.value.arrayValue ?? []).map { text($0) }
        lines.append("transitions: " + names.joined(separator: ", "))
      default:
        lines.append("\(member.name) \(text(member.value))")
      }
    }
    return lines
  }

  /// `screen  center (160, 284)  angle 0  velocity (0, 0)  angular 0  size 320×568`
  static func item(_ state: JSONValue) -> String {
    var line = "  \(text(state["id"]))  center \(vector(state["center"]))"
    line += "  angle \(text(state["angle"]))  velocity \(vector(state["velocity"]))"
    line += "  angular \(text(state["angular_velocity"]))"
    if let size = state["size"] { line += "  size \(text(size[0]))×\(text(size[1]))" }
    return line
  }

  static func sessions(_ list: [JSONValue]) -> [String] {
    guard !list.isEmpty else { return ["no sessions"] }
    let rows = list.map { entry in
      [
        text(entry["session"]), entry["transition"]?.string.map(TerminalText.safe) ?? "scene",
        text(entry["clock"]),
        entry["running"]?.bool == true ? "running" : "at rest",
      ]
    }
    let table = [["SESSION", "CONTENT", "CLOCK", "STATE"]] + rows
    let widths = (0..<4).map { column in table.map { $0[column].count }.max() ?? 0 }
    return table.map { row in
      row.enumerated().map { column, cell in
        column == 3 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
      }.joined(separator: "  ")
    }
  }

  private static func dropped(_ value: JSONValue?) -> String {
    guard let count = value?.number, count > 0 else { return "" }
    return " (\(text(value)) frames dropped)"
  }

  /// `(x, y)` for a pair.
  static func vector(_ value: JSONValue?) -> String {
    "(\(text(value?[0])), \(text(value?[1])))"
  }

  /// Strings bare (control and bidirectional formatting characters as `\uXXXX`, so that table
  /// columns are measured as printed), numbers as the daemon wrote them, anything else as JSON.
  static func text(_ value: JSONValue?) -> String {
    switch value {
    case .none: "?"
    case .string(let text): TerminalText.safe(text)
    case .some(let other): TerminalText.safe(other.jsonText)
    }
  }
}

extension JSONValue {
  var arrayValue: [JSONValue]? {
    if case .array(let elements) = self { return elements }
    return nil
  }
}
