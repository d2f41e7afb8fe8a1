import Primitives
import Wire

/// The readable forms of a scene's behaviors (`behaviors`) and of `hello`'s parameter tables.
extension HumanFormat {
  /// `b1  gravity  items box  direction (0, 1)  angle 1.570796  magnitude 1`: the id, the type,
  /// then every other member as the daemon wrote it, in its order.
  static func behavior(_ behavior: BehaviorSpec) -> String {
    var line = "\(text(behavior.id ?? "?"))  \(behavior.type.rawValue)"
    for field in behavior.stateFields where field.name != "type" && field.name != "id" {
      line += "  \(field.name) \(value(field.value))"
    }
    return line
  }

  /// A member's value: words as they are, lists of names joined by commas, numbers in
  /// parentheses, objects (boundaries) in braces.
  static func value(_ value: ReplyValue) -> String {
    switch value {
    case .null: return "none"
    case .bool(let flag): return flag ? "true" : "false"
    case .integer(let number): return "\(number)"
    case .number(let number, _): return self.number(number)
    case .string(let word): return text(word)
    case .strings(let words):
      return words.isEmpty ? "none" : words.map(text).joined(separator: ", ")
    case .items(let states, _, _): return states.map { text($0.id) }.joined(separator: ", ")
    case .array(let elements):
      let parts = elements.map(self.value)
      if parts.isEmpty { return "none" }
      if elements.allSatisfy(\.isNumber) { return "(" + parts.joined(separator: ", ") + ")" }
      return parts.joined(separator: "; ")
    case .object(let fields):
      return "{" + fields.map { "\($0.name) \(self.value($0.value))" }.joined(separator: ", ")
        + "}"
    case .encoded(let json): return text(String(decoding: json, as: UTF8.self))
    }
  }

  /// `lock-screen:` and one line per parameter: `  gravity 4, 0.1 … 20 [× 1000 pt/s²]: source`,
  /// `  complete_rule "velocity", one of velocity, position: source`; a number of the bounds
  /// with its expression: `  medium_detent 284 (height * 0.5), 0 … 568 (height) [pt shown]: …`.
  static func parameters(_ tables: [ParameterTable]) -> [String] {
    guard !tables.isEmpty else { return ["the daemon lists no parameters"] }
    var lines: [String] = []
    for table in tables {
      lines.append("\(text(table.transition)):")
      for p in table.parameters {
        let accepted: String
        let of = p.ofBounds
        func extent(_ value: String, _ expression: String?) -> String {
          expression.map { "\(value) (\(text($0)))" } ?? value
        }
        switch p.kind {
        case .number(let min, let max, let unit):
          accepted =
            "\(extent(number(min), of?.minimum)) … \(extent(number(max), of?.maximum))"
            + (unit.isEmpty ? "" : " [\(text(unit))]")
        case .choice(let words): accepted = "one of " + words.map(text).joined(separator: ", ")
        case .bool: accepted = "true or false"
        }
        // A field of the spring or decay the parameters give: one set is given at a time.
        let motion = p.motion.map { " (\(text($0)): one set)" } ?? ""
        lines.append(
          "  \(text(p.name)) \(extent(parameterValue(p.defaultValue), of?.defaultValue)), "
            + "\(accepted)\(motion): \(text(p.source))")
      }
    }
    return lines
  }

  private static func parameterValue(_ value: ParameterValue) -> String {
    switch value {
    case .number(let number): return self.number(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .string(let word): return "\"\(text(word))\""
    }
  }
}

extension ReplyValue {
  fileprivate var isNumber: Bool {
    switch self {
    case .number, .integer: return true
    default: return false
    }
  }
}
