import Expressions
import JSON
import Primitives
import Transitions
import Wire

/// The most rules of each kind (`release`, `done`, `values`, …), effects a rule has, phases and
/// state names a document has.
public enum DocumentLimits {
  public static let maxRules = 32
  public static let maxEffects = 8
  public static let maxPhases = 32
  public static let maxState = 32
}

/// What the rules reader knows of the document: the names, the scene's items and behaviors,
/// and the sample values each added behavior is read at.
struct RulesContext {
  let runtime: RuntimeNames
  let base: DocumentNames
  let items: [String]
  /// The ids and types of the scene's behaviors and of those effects add.
  let behaviors: [String: Set<BehaviorType>]
  /// Their ids in slot order (`DocumentRules.behaviorIDs`), and each id's slot.
  let behaviorIDs: [String]
  let slots: [String: Int]
  let parameters: [TransitionParameter]
  let sample: [Double]
  /// The document's named effect lists (`actions`), which an effect `{"do": name}` stands for.
  var actions: [String: [DocumentRules.Effect]] = [:]
  var ranges: [ClosedRange<Double>] { runtime.names.entries.map(\.range) }

  init(
    runtime: RuntimeNames, base: DocumentNames, items: [String],
    behaviors: [String: Set<BehaviorType>], parameters: [TransitionParameter], sample: [Double]
  ) {
    self.runtime = runtime
    self.base = base
    self.items = items
    self.behaviors = behaviors
    behaviorIDs = behaviors.keys.sorted()
    slots = Dictionary(uniqueKeysWithValues: behaviorIDs.enumerated().map { ($1, $0) })
    self.parameters = parameters
    self.sample = sample
  }
}

extension DocumentReader {
  /// Reads the phases and the state's names and initial values (expressions of the
  /// parameters and the bounds).
  mutating func phasesAndState(_ json: JSONValue, names: DocumentNames)
    -> (phases: [String], state: [(name: String, initial: Expression)])
  {
    var taken = Set(names.names.entries.map(\.name) + RuntimeNames.event + ["phase"])
    func fresh(_ name: String, at: String) -> Bool {
      guard isSnakeCase(name), !Self.keywords.contains(name), taken.insert(name).inserted else {
        fail(
          at, "'\(name)' is not a snake_case name of its own (a parameter, the bounds' or another)")
        return false
      }
      return true
    }
    var phases: [String] = []
    if let value = json["phases"] {
      guard case .array(let list) = value, !list.isEmpty, list.count <= DocumentLimits.maxPhases
      else {
        fail("/phases", "phases are an array of 1 to \(DocumentLimits.maxPhases) names")
        return ([], [])
      }
      for (index, entry) in list.enumerated() {
        guard case .string(let name) = entry, fresh(name, at: "/phases/\(index)") else { continue }
        phases.append(name)
      }
    }
    var state: [(String, Expression)] = []
    if let value = json["state"] {
      guard case .object(let members) = value, members.count <= DocumentLimits.maxState else {
        fail("/state", "the state is an object of at most \(DocumentLimits.maxState) names")
        return (phases, [])
      }
      for member in members {
        let at = "/state" + pointer([member.name])
        guard fresh(member.name, at: at), let e = baseExpression(member.value, names, at: at)
        else { continue }
        state.append((member.name, e))
      }
    }
    return (phases, state)
  }

  /// Words an expression reads as itself, never as a name.
  static let keywords: Set<String> = ["and", "or", "not", "true", "false", "pi"]
  /// What the rules read by these names (`phase`, `release.x`, …): no parameter, constant or
  /// state is called so.
  static let reserved =
    ["phase"]
    + Set(RuntimeNames.event.map { String($0.prefix { $0 != "." }) })
    .sorted()

  /// A number, or an `=` expression of the parameters and the bounds.
  mutating func baseExpression(_ value: JSONValue, _ names: DocumentNames, at: String)
    -> Expression?
  {
    let text: String
    switch value {
    case .number(let number): return .number(number)
    case .string(let written) where written.hasPrefix("="): text = String(written.dropFirst())
    default:
      fail(at, "a number, or an expression of the parameters and the bounds (\"=mid_y\")")
      return nil
    }
    do throws(ExpressionError) {
      let e = try ExpressionParser.parse(text, names: names.names, as: .number)
      _ = try e.interval(names.names.entries.map(\.range))
      return e
    } catch {
      fail(at, error.message + (error.offset.map { " (at \($0 + 1) in the expression)" } ?? ""))
      return nil
    }
  }

  /// Reads the rules of a document: `pan`, `projection`, `release`, `cancel`, `tap`, `swipe`,
  /// `done` and `values`; their expressions are read against `context.runtime` and proved
  /// safe, and each behavior an effect adds or sets is read at `context.sample`.
  mutating func rules(
    _ json: JSONValue, into rules: inout DocumentRules, context given: RulesContext
  ) -> [String: Expression] {
    var compiled: [String: Expression] = [:]
    var context = given
    if let actions = json["actions"] {
      context.actions = self.actions(actions, context: context, compiled: &compiled)
    }
    if let pan = json["pan"] {
      rules.pan = self.pan(pan, context: context, compiled: &compiled)
    }
    if let projection = json["projection"] {
      rules.projection = self.projection(projection, names: context.base)
    }
    rules.release = whenThen(json, "release", context: context, compiled: &compiled)
    rules.cancel = whenThen(json, "cancel", context: context, compiled: &compiled)
    rules.tap = whenThen(json, "tap", context: context, compiled: &compiled)
    rules.swipe = whenThen(json, "swipe", context: context, compiled: &compiled)
    for (index, rule) in list(json["done"], at: "/done").enumerated() {
      let at = "/done/\(index)"
      unknownFields(rule, at: at, known: ["when", "at_rest", "ended", "outcome", "then"])
      let atRest = rule["at_rest"] == .bool(true)
      if rule["at_rest"] != nil && !atRest {
        fail(at + "/at_rest", "at_rest is true, or left out")
      }
      var ended: Int?
      if let value = rule["ended"] {
        guard case .string(let id) = value, motionIDs(context).contains(id) else {
          fail(at + "/ended", "the id of a spring or a decay of the scene or of an effect")
          continue
        }
        ended = context.slots[id]
      }
      if rule["when"] == nil && !atRest && ended == nil {
        fail(at, "a done rule has \"when\": condition, \"at_rest\": true, \"ended\": id, or more")
      }
      var outcome: String?
      if let value = rule["outcome"] {
        guard case .string(let word) = value, Limits.nameProblem(word) == nil else {
          fail(at + "/outcome", "the outcome is a name (a word the done event reports)")
          continue
        }
        outcome = word
      }
      rules.done.append(
        .init(
          when: condition(rule["when"], at: at + "/when", context),
          atRest: atRest, ended: ended, outcome: outcome,
          then: effects(rule["then"], at: at + "/then", context: context, compiled: &compiled)))
    }
    for (index, rule) in list(json["values"], at: "/values").enumerated() {
      let at = "/values/\(index)"
      unknownFields(rule, at: at, known: ["name", "value"])
      guard case .string(let name) = rule["name"], isSnakeCase(name) else {
        fail(at + "/name", "a value's name is snake_case")
        continue
      }
      guard case .string(let text) = rule["value"] else {
        fail(at + "/value", "a value is an expression, a string (\"clamp(card.x / width, 0, 1)\")")
        continue
      }
      if let e = runtimeExpression(text, as: .number, at: at + "/value", context) {
        rules.values.append(.init(name: name, value: FlatExpression(e)))
      }
    }
    // Reported by name, as a built-in's values are.
    rules.values.sort { $0.name < $1.name }
    rules.givenMotions = checkEffects(rules, context: context, compiled: compiled)
    return compiled
  }

  /// `actions`: named lists of effects (no `do` among them), which a rule's `{"do": name}`
  /// stands for: a transition's toggle, written once.
  private mutating func actions(
    _ value: JSONValue, context: RulesContext, compiled: inout [String: Expression]
  ) -> [String: [DocumentRules.Effect]] {
    guard case .object(let members) = value, members.count <= DocumentLimits.maxRules else {
      fail(
        "/actions", "actions are an object of at most \(DocumentLimits.maxRules) named effect lists"
      )
      return [:]
    }
    var actions: [String: [DocumentRules.Effect]] = [:]
    for member in members {
      let at = "/actions" + pointer([member.name])
      guard isSnakeCase(member.name) else {
        fail(at, "an action's name is snake_case")
        continue
      }
      actions[member.name] = effects(member.value, at: at, context: context, compiled: &compiled)
    }
    return actions
  }

  /// `pan`: `{items, axis, when, began, rubber_band}`.
  private mutating func pan(
    _ pan: JSONValue, context: RulesContext, compiled: inout [String: Expression]
  ) -> DocumentRules.Pan {
    var result = DocumentRules.Pan()
    guard case .object = pan else {
      fail("/pan", "pan is an object {items, axis, when, began, rubber_band}")
      return result
    }
    unknownFields(
      pan, at: "/pan",
      known: ["items", "axis", "when", "began", "rubber_band", "spring", "drag_scale"])
    if let spring = pan["spring"] {
      unknownFields(spring, at: "/pan/spring", known: ["frequency", "damping"])
      if let f = spring["frequency"], let d = spring["damping"],
        let frequency = bounded(f, 0.01...100, names: context.base, at: "/pan/spring/frequency"),
        let damping = bounded(d, 0...10, names: context.base, at: "/pan/spring/damping")
      {
        result.spring = (frequency, damping)
      } else if spring["frequency"] == nil || spring["damping"] == nil {
        fail("/pan/spring", "a spring grip is {\"frequency\": Hz, \"damping\": ratio}")
      }
    }
    if let scale = pan["drag_scale"] {
      result.dragScale = bounded(scale, 0.01...100, names: context.base, at: "/pan/drag_scale")
    }
    if let list = pan["items"] {
      guard case .array(let ids) = list else {
        fail("/pan/items", "the items a pan grips are an array of item ids")
        return result
      }
      var names: [String] = []
      for (index, id) in ids.enumerated() {
        guard case .string(let name) = id, context.items.contains(name) else {
          fail("/pan/items/\(index)", "not an item of the scene")
          continue
        }
        names.append(name)
      }
      result.items = names
    }
    if let axis = pan["axis"] {
      guard case .string(let word) = axis, let locked = DocumentRules.Axis(rawValue: word) else {
        fail("/pan/axis", "the axis is \"x\" or \"y\"")
        return result
      }
      result.axis = locked
    }
    if pan["when"] != nil {
      result.when = condition(pan["when"], at: "/pan/when", context)
      if result.items?.isEmpty != false {
        fail("/pan/when", "a pan with a condition grips the first of its items: name them")
      }
    }
    result.began = effects(pan["began"], at: "/pan/began", context: context, compiled: &compiled)
    if let band = pan["rubber_band"] {
      result.rubberBand = rubberBand(band, names: context.base)
      if result.axis == nil { fail("/pan/rubber_band", "a rubber band needs the pan's axis") }
    }
    return result
  }

  /// A number or an expression of the parameters and the bounds that stays in `range`.
  private mutating func bounded(
    _ value: JSONValue, _ range: ClosedRange<Double>, names: DocumentNames, at: String
  ) -> Expression? {
    guard let e = baseExpression(value, names, at: at),
      let interval = try? e.interval(names.names.entries.map(\.range))
    else { return nil }
    guard range.contains(interval.lowerBound), range.contains(interval.upperBound) else {
      fail(at, "it takes values in \(interval), outside \(range)")
      return nil
    }
    return e
  }

  /// `projection`: a decay's model, one of its fields (`deceleration_rate`, `friction`,
  /// `drag`), a number or an expression of the parameters and the bounds within its range.
  private mutating func projection(_ value: JSONValue, names: DocumentNames)
    -> (field: DecayField, value: Expression)?
  {
    let fields = DecayField.allCases.map(\.rawValue)
    guard case .object(let members) = value, members.count == 1,
      let field = DecayField(rawValue: members[0].name)
    else {
      fail("/projection", "the projection's decay is one of {\(fields.joined(separator: "|"))}")
      return nil
    }
    let at = "/projection/" + field.rawValue
    guard let e = baseExpression(members[0].value, names, at: at),
      let interval = try? e.interval(names.names.entries.map(\.range))
    else { return nil }
    let range = field.range
    guard range.contains(interval.lowerBound), range.contains(interval.upperBound) else {
      fail(
        at,
        "it takes values in \(interval), outside \(field.rawValue)'s range "
          + "\(range.lowerBound) … \(range.upperBound)")
      return nil
    }
    return (field, e)
  }

  /// A list of `{when, then}` rules (a release rule may also say what its `handoff` reports).
  private mutating func whenThen(
    _ json: JSONValue, _ key: String, context: RulesContext, compiled: inout [String: Expression]
  ) -> [DocumentRules.Rule] {
    list(json[key], at: "/" + key).enumerated().map { index, rule in
      let at = "/\(key)/\(index)"
      let known = key == "release" ? ["when", "then", "handoff"] : ["when", "then"]
      unknownFields(rule, at: at, known: known)
      var handoff: DocumentRules.Handoff?
      if key == "release", let value = rule["handoff"] {
        handoff = self.handoff(value, at: at + "/handoff", context)
      }
      return .init(
        when: condition(rule["when"], at: at + "/when", context),
        then: effects(rule["then"], at: at + "/then", context: context, compiled: &compiled),
        handoff: handoff)
    }
  }

  /// `{"projection": [x, y], "detent": name}`.
  private mutating func handoff(_ value: JSONValue, at: String, _ context: RulesContext)
    -> DocumentRules.Handoff?
  {
    unknownFields(value, at: at, known: ["projection", "detent"])
    var result = DocumentRules.Handoff()
    if let point = value["projection"] {
      guard case .array(let xy) = point, xy.count == 2,
        case .string(let x) = xy[0], case .string(let y) = xy[1], x.hasPrefix("="),
        y.hasPrefix("=")
      else {
        fail(at + "/projection", "the projection is [\"=x\", \"=y\"], two expressions")
        return nil
      }
      guard
        let ex = runtimeExpression(
          String(x.dropFirst()), as: .number, at: at + "/projection/0", context),
        let ey = runtimeExpression(
          String(y.dropFirst()), as: .number, at: at + "/projection/1", context)
      else { return nil }
      result.projection = (FlatExpression(ex), FlatExpression(ey))
    }
    if let detent = value["detent"] {
      guard case .string(let word) = detent, Limits.nameProblem(word) == nil else {
        fail(at + "/detent", "the detent is a name (the word the handoff reports)")
        return nil
      }
      result.detent = word
    }
    return result
  }

  /// A condition of the runtime names, laid out flat for the sessions, or nil (with the error
  /// recorded).
  mutating func condition(_ value: JSONValue?, at: String, _ context: RulesContext)
    -> FlatExpression?
  {
    guard let value else { return nil }
    guard case .string(let text) = value else {
      fail(at, "a condition is an expression, a string (\"abs(release.vx) > 800\")")
      return nil
    }
    return runtimeExpression(text, as: .condition, at: at, context).map(FlatExpression.init)
  }

  /// `text` read against the runtime names and proved safe over their ranges.
  mutating func runtimeExpression(
    _ text: String, as kind: ExpressionKind, at: String, _ context: RulesContext
  ) -> Expression? {
    do throws(ExpressionError) {
      let e = try ExpressionParser.parse(text, names: context.runtime.names, as: kind)
      if kind == .condition {
        _ = try e.possible(context.ranges)
      } else {
        _ = try e.interval(context.ranges)
      }
      return e
    } catch {
      fail(at, error.message + (error.offset.map { " (at \($0 + 1) in the expression)" } ?? ""))
      return nil
    }
  }

  /// `{"from", "to", "dimension"}`: `=` expressions of the parameters and the bounds (the
  /// dimension `=height` when left out).
  private mutating func rubberBand(_ value: JSONValue, names: DocumentNames)
    -> (from: Expression, to: Expression, dimension: Expression)?
  {
    guard case .object = value else {
      fail("/pan/rubber_band", "a rubber band is an object {from, to, dimension}")
      return nil
    }
    unknownFields(value, at: "/pan/rubber_band", known: ["from", "to", "dimension"])
    guard let from = value["from"], let to = value["to"] else {
      fail("/pan/rubber_band", "missing: where the free travel ends (\"from\" and \"to\")")
      return nil
    }
    let dimension = value["dimension"] ?? .string("=height")
    guard let f = baseExpression(from, names, at: "/pan/rubber_band/from"),
      let t = baseExpression(to, names, at: "/pan/rubber_band/to"),
      let d = baseExpression(dimension, names, at: "/pan/rubber_band/dimension"),
      let interval = try? d.interval(names.names.entries.map(\.range))
    else { return nil }
    if interval.lowerBound <= 0 {
      fail(
        "/pan/rubber_band/dimension",
        "the dimension may be 0 or less (it takes values in \(interval)); keep it above 0")
      return nil
    }
    return (f, t, d)
  }

  mutating func list(_ value: JSONValue?, at: String) -> [JSONValue] {
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

  /// The ids of the springs and decays of the scene and of the document's effects.
  func motionIDs(_ context: RulesContext) -> Set<String> {
    Set(
      context.behaviors.filter { !$0.value.isDisjoint(with: [.spring, .decay]) }.map(\.key))
  }

  mutating func unknownFields(_ value: JSONValue, at: String, known: [String]) {
    guard case .object(let members) = value else {
      fail(at, "an object {\(known.joined(separator: ", "))}")
      return
    }
    for member in members where !known.contains(member.name) {
      fail(at + pointer([member.name]), "unknown field (here: \(known.joined(separator: ", ")))")
    }
  }
}
