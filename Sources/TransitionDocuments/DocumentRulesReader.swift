import Expressions
import JSON
import Primitives
import Transitions
import Wire

/// The most rules of each kind (`release`, `done`, `values`) and effects a rule has.
public enum DocumentLimits {
  public static let maxRules = 32
  public static let maxEffects = 8
}

extension DocumentReader {
  /// Reads `pan`, `release`, `done` and `values`; their expressions are read against `runtime`
  /// and proved safe, and each behavior an effect adds is read as `add_behavior` reads one at
  /// `sample` (the values of a release at the defaults in the standard bounds).
  mutating func rules(
    _ json: JSONValue, runtime: RuntimeNames, base: DocumentNames, items: [String],
    sample: [Double]
  ) -> (DocumentRules, [String: Expression]) {
    var rules = DocumentRules()
    var compiled: [String: Expression] = [:]
    let ranges = runtime.names.entries.map(\.range)
    if let pan = json["pan"] {
      guard case .object(let members) = pan else {
        fail("/pan", "pan is an object {items, axis}")
        return (rules, compiled)
      }
      for member in members where !["items", "axis", "rubber_band"].contains(member.name) {
        fail("/pan" + pointer([member.name]), "unknown field (pan has: items, axis, rubber_band)")
      }
      if let band = pan["rubber_band"] {
        rules.rubberBand = rubberBand(band, names: base)
        if pan["axis"] == nil { fail("/pan/rubber_band", "a rubber band needs the pan's axis") }
      }
      if let list = pan["items"] {
        guard case .array(let ids) = list else {
          fail("/pan/items", "the items a pan grips are an array of item ids")
          return (rules, compiled)
        }
        var names: [String] = []
        for (index, id) in ids.enumerated() {
          guard case .string(let name) = id, items.contains(name) else {
            fail("/pan/items/\(index)", "not an item of the scene")
            continue
          }
          names.append(name)
        }
        rules.panItems = names
      }
      if let axis = pan["axis"] {
        guard case .string(let word) = axis, let locked = DocumentRules.Axis(rawValue: word) else {
          fail("/pan/axis", "the axis is \"x\" or \"y\"")
          return (rules, compiled)
        }
        rules.panAxis = locked
      }
    }
    func condition(_ value: JSONValue?, at: String) -> Expression? {
      guard let value else { return nil }
      guard case .string(let text) = value else {
        fail(at, "a condition is an expression, a string (\"abs(release.vx) > 800\")")
        return nil
      }
      do throws(ExpressionError) {
        let e = try ExpressionParser.parse(text, names: runtime.names, as: .condition)
        _ = try e.possible(ranges)
        return e
      } catch {
        fail(at, error.message + (error.offset.map { " (at \($0 + 1) in the expression)" } ?? ""))
        return nil
      }
    }
    func effects(_ value: JSONValue?, at: String) -> [DocumentRules.Effect] {
      guard let value else { return [] }
      guard case .array(let list) = value, list.count <= DocumentLimits.maxEffects else {
        fail(at, "then is an array of at most \(DocumentLimits.maxEffects) effects")
        return []
      }
      var made: [DocumentRules.Effect] = []
      for (index, effect) in list.enumerated() {
        let here = "\(at)/\(index)"
        switch effect {
        case .object(let members) where members.count == 1 && members[0].name == "add_behavior":
          let spec = members[0].value
          let specAt = here + "/add_behavior"
          // An id, so that the next one added replaces it: a session's behaviors stay bounded
          // however many gestures it takes.
          guard case .string(let id)? = spec["id"], !id.hasPrefix("=") else {
            fail(specAt + "/id", "a behavior an effect adds has an id (the next one replaces it)")
            continue
          }
          compile(
            spec, tokens: pathTokens(specAt), runtime: runtime, ranges: ranges, into: &compiled)
          made.append(.addBehavior(spec, pointer: specAt))
        case .object(let members) where members.count == 1 && members[0].name == "remove_behavior":
          guard case .string(let id) = members[0].value else {
            fail(here + "/remove_behavior", "a behavior's id, a string")
            continue
          }
          made.append(.removeBehavior(id))
        default:
          fail(here, "an effect is {\"add_behavior\": behavior} or {\"remove_behavior\": id}")
        }
      }
      return made
    }
    // `release` and `tap` rules have one form: {when, then}.
    func whenThen(_ key: String) -> [DocumentRules.ReleaseRule] {
      list(json[key], at: "/" + key).enumerated().map { index, rule in
        let at = "/\(key)/\(index)"
        unknownFields(rule, at: at, known: ["when", "then"])
        return .init(
          when: condition(rule["when"], at: at + "/when"),
          then: effects(rule["then"], at: at + "/then"))
      }
    }
    rules.release = whenThen("release")
    rules.tap = whenThen("tap")
    for (index, rule) in list(json["done"], at: "/done").enumerated() {
      let at = "/done/\(index)"
      unknownFields(rule, at: at, known: ["when", "at_rest", "outcome", "then"])
      let atRest = rule["at_rest"] == .bool(true)
      if rule["at_rest"] != nil && !atRest {
        fail(at + "/at_rest", "at_rest is true, or left out")
      }
      if rule["when"] == nil && !atRest {
        fail(at, "a done rule has \"when\": condition, \"at_rest\": true, or both")
      }
      guard case .string(let outcome) = rule["outcome"], Limits.nameProblem(outcome) == nil else {
        fail(at + "/outcome", "the outcome is a name (a word the done event reports)")
        continue
      }
      rules.done.append(
        .init(
          when: condition(rule["when"], at: at + "/when"), atRest: atRest, outcome: outcome,
          then: effects(rule["then"], at: at + "/then")))
    }
    for (index, rule) in list(json["values"], at: "/values").enumerated() {
      let at = "/values/\(index)"
      unknownFields(rule, at: at, known: ["name", "value"])
      guard case .string(let name) = rule["name"], !name.isEmpty,
        name.utf8.allSatisfy({ (97...122).contains($0) || (48...57).contains($0) || $0 == 95 })
      else {
        fail(at + "/name", "a value's name is snake_case")
        continue
      }
      guard case .string(let text) = rule["value"] else {
        fail(at + "/value", "a value is an expression, a string (\"clamp(card.x / width, 0, 1)\")")
        continue
      }
      do throws(ExpressionError) {
        let e = try ExpressionParser.parse(text, names: runtime.names, as: .number)
        _ = try e.interval(ranges)
        rules.values.append(.init(name: name, value: e))
      } catch {
        fail(
          at + "/value",
          error.message + (error.offset.map { " (at \($0 + 1) in the expression)" } ?? ""))
      }
    }
    // Each behavior an effect adds, read at the sample values.
    for rule in rules.release.map(\.then) + rules.tap.map(\.then) + rules.done.map(\.then) {
      for case .addBehavior(let spec, let at) in rule {
        do throws(DocumentError) {
          _ = try TransitionDocument.behaviorSpec(
            spec, at: at, expressions: compiled, values: sample)
        } catch {
          fail(error.pointer, error.message)
        }
      }
    }
    return (rules, compiled)
  }

  /// `{"from", "to", "dimension"}`: `=` expressions of the parameters and the bounds (the
  /// dimension `=height` when left out).
  private mutating func rubberBand(_ value: JSONValue, names: DocumentNames)
    -> (from: Expression, to: Expression, dimension: Expression)?
  {
    guard case .object(let members) = value else {
      fail("/pan/rubber_band", "a rubber band is an object {from, to, dimension}")
      return nil
    }
    for member in members where !["from", "to", "dimension"].contains(member.name) {
      fail("/pan/rubber_band" + pointer([member.name]), "unknown field (from, to, dimension)")
    }
    let ranges = names.names.entries.map(\.range)
    func read(_ key: String, default preset: String?) -> Expression? {
      let at = "/pan/rubber_band/" + key
      var text = preset
      switch value[key] {
      case .string(let written)? where written.hasPrefix("="): text = String(written.dropFirst())
      case .number(let number)?: text = "\(number)"
      case nil: break
      default:
        fail(at, "a number, or an expression of the parameters and the bounds (\"=mid_y\")")
        return nil
      }
      guard let text else {
        fail(at, "missing: where the free travel ends (\"=mid_y\")")
        return nil
      }
      do throws(ExpressionError) {
        let e = try ExpressionParser.parse(text, names: names.names, as: .number)
        let interval = try e.interval(ranges)
        if key == "dimension", interval.lowerBound <= 0 {
          fail(
            at, "the dimension may be 0 or less (it takes values in \(interval)); keep it above 0")
        }
        return e
      } catch {
        fail(at, error.message)
        return nil
      }
    }
    guard let from = read("from", default: nil), let to = read("to", default: nil),
      let dimension = read("dimension", default: "height")
    else { return nil }
    return (from, to, dimension)
  }

  private mutating func list(_ value: JSONValue?, at: String) -> [JSONValue] {
    guard let value else { return [] }
    guard case .array(let entries) = value else {
      fail(at, "an array of rules")
      return []
    }
    if entries.count > DocumentLimits.maxRules {
      fail(at, "at most \(DocumentLimits.maxRules) rules, not \(entries.count)")
    }
    return Array(entries.prefix(DocumentLimits.maxRules))
  }

  private mutating func unknownFields(_ value: JSONValue, at: String, known: [String]) {
    guard case .object(let members) = value else {
      fail(at, "a rule is an object {\(known.joined(separator: ", "))}")
      return
    }
    for member in members where !known.contains(member.name) {
      fail(at + pointer([member.name]), "unknown field (here: \(known.joined(separator: ", ")))")
    }
  }

  /// Reads every `=` string of `value` as a number expression of `runtime`'s names.
  private mutating func compile(
    _ value: JSONValue, tokens: [String], runtime: RuntimeNames, ranges: [ClosedRange<Double>],
    into compiled: inout [String: Expression]
  ) {
    switch value {
    case .string(let text) where text.hasPrefix("="):
      let at = pointer(tokens)
      do throws(ExpressionError) {
        let e = try ExpressionParser.parse(
          String(text.dropFirst()), names: runtime.names, as: .number)
        _ = try e.interval(ranges)
        compiled[at] = e
      } catch {
        fail(at, error.message + (error.offset.map { " (at \($0 + 1) in the expression)" } ?? ""))
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        compile(
          element, tokens: tokens + [String(index)], runtime: runtime, ranges: ranges,
          into: &compiled)
      }
    case .object(let members):
      for member in members {
        compile(
          member.value, tokens: tokens + [member.name], runtime: runtime, ranges: ranges,
          into: &compiled)
      }
    default:
      break
    }
  }

  /// A pointer's tokens (it holds no escaped characters: it was made from indices and names).
  private func pathTokens(_ pointer: String) -> [String] {
    pointer.split(separator: "/").map(String.init)
  }
}

extension TransitionDocument {
  /// The behavior an effect adds, its expressions evaluated at `values`, read as `add_behavior`
  /// reads one.
  static func behaviorSpec(
    _ spec: JSONValue, at: String, expressions: [String: Expression], values: [Double]
  ) throws(DocumentError) -> BehaviorSpec {
    let tokens = at.split(separator: "/").map(String.init)
    let evaluated = try evaluate(spec, tokens: tokens, expressions: expressions, at: values)
    do throws(ProtocolError) {
      return try BehaviorSpec(json: evaluated)
    } catch {
      throw DocumentError(at, error.message)
    }
  }
}
