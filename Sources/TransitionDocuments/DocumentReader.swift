import Expressions
import JSON
import Primitives
import Transitions
import Wire

extension TransitionDocument {
  /// Reads a document from its text: over `maxBytes` or not JSON is one error.
  public static func read(text: [UInt8]) throws(DocumentErrors) -> TransitionDocument {
    guard text.count <= maxBytes else {
      throw DocumentErrors(errors: [
        DocumentError(
          "", "a document is at most \(maxBytes) bytes (1 MiB); this one has \(text.count)")
      ])
    }
    let json: JSONValue
    do {
      json = try JSONParser(maxDepth: Limits.maxNestingDepth).parse(text)
    } catch {
      throw DocumentErrors(errors: [DocumentError("", "not JSON: \(error.message)")])
    }
    return try read(json)
  }

  /// Reads and checks a document; every error at once.
  public static func read(_ json: JSONValue) throws(DocumentErrors) -> TransitionDocument {
    var reader = DocumentReader()
    let document = reader.read(json)
    guard reader.errors.isEmpty, let document else {
      throw DocumentErrors(errors: reader.errors, total: reader.errors.count + reader.unlisted)
    }
    return document
  }
}

/// The checks of `TransitionDocument.read`, gathering errors instead of stopping at the first.
struct DocumentReader {
  /// The errors listed (at most `DocumentErrors.maxListed`), and how many more were found.
  var errors: [DocumentError] = []
  var unlisted = 0
  private var seen: Set<DocumentError> = []
  /// How many effects that add or set a behavior were read (`BehaviorEffect.index`).
  var behaviorEffects = 0

  /// Records an error once, in O(1): past `maxListed` it is only counted.
  mutating func fail(_ pointer: String, _ message: String) {
    let error = DocumentError(pointer, message)
    guard seen.insert(error).inserted else { return }
    if errors.count < DocumentErrors.maxListed { errors.append(error) } else { unlisted += 1 }
  }

  mutating func read(_ json: JSONValue) -> TransitionDocument? {
    guard case .object(let members) = json else {
      fail(
        "", "a document is an object {\"transition\", \"description\", \"parameters\", \"scene\"}")
      return nil
    }
    for member in members where !TransitionDocument.fields.contains(member.name) {
      fail(
        pointer([member.name]),
        "unknown field (a document has: \(TransitionDocument.fields.joined(separator: ", ")))")
    }
    let name = transitionName(json["transition"])
    var description = ""
    switch json["description"] {
    case .string(let text)?: description = text
    case nil: break
    default: fail("/description", "a description is a string")
    }
    let parameters = self.parameters(json["parameters"])
    var names = DocumentNames(parameters: parameters)
    if let constants = json["constants"] { self.constants(constants, into: &names) }
    guard let scene = json["scene"] else {
      fail("/scene", "missing: a document needs a scene (its items and behaviors)")
      return nil
    }
    let expressions = self.expressions(in: scene, names: names)
    let (phases, state) = phasesAndState(json, names: names)
    guard let name, errors.isEmpty else { return nil }
    var document = TransitionDocument(
      name: name, description: description, parameters: parameters, scene: scene,
      expressions: expressions, names: names, rules: DocumentRules(),
      runtime: RuntimeNames(names, items: []), ruleExpressions: [:])
    checkCorners(document)
    guard errors.isEmpty else { return nil }
    // The rules, read against the names of the events, the state and the scene's items, each
    // behavior they add read at a sample: at the defaults, in the standard bounds.
    let standard = TransitionBounds.standard
    let defaults = parameters.map { p -> Double in
      switch p.resolved(in: standard.size).defaultValue {
      case .number(let value): return value
      case .string(let word):
        if case .choice(let words) = p.kind { return Double(words.firstIndex(of: word) ?? 0) }
        return 0
      default: return 0
      }
    }
    let base = names.values(defaults, in: standard)
    let laidOut: SceneSpec
    do throws(DocumentError) {
      laidOut = try document.sceneSpec(base, bounds: standard)
    } catch {
      fail(error.pointer, error.message + " (at the defaults, in the standard 320×568 bounds)")
      return nil
    }
    // `card.x` is an item's, never a choice's word: a choice is not named like an item.
    for (index, p) in parameters.enumerated()
    where laidOut.items.contains(where: { $0.id == p.name }) {
      if case .choice = p.kind {
        fail(
          "/parameters/\(index)/name",
          "'\(p.name)' names an item too; a choice's words would be its fields")
      }
    }
    let runtime = RuntimeNames(
      names, items: laidOut.items.map(\.id), phases: phases, state: state.map(\.name))
    let initial = state.map { (try? $0.initial.number(base)) ?? 0 }
    let sample = runtime.values(
      base: base, event: Array(repeating: 0, count: RuntimeNames.event.count),
      state: [0] + initial,
      items: runtime.items.map { id in
        laidOut.items.first { $0.id == id }.map { ($0.center, Vector.zero, $0.size) }
      })
    guard runtime.isConsistent else {
      fail("", "two of the names the rules read are the same (an item, a choice's word, …)")
      return nil
    }
    // The behaviors effects may name: the scene's, not a composite's children (they are not
    // the animator's own), and those effects add, each id of one type.
    var behaviors = Self.addedBehaviors(json)
    for (id, types) in behaviors where types.count > 1 {
      fail("", "effects add behaviors of two types under the id '\(id)'; an id names one type")
    }
    let children = Set(
      laidOut.behaviors.flatMap { $0.allSpecs.dropFirst() }.compactMap(\.id))
    for id in children where behaviors[id] != nil {
      fail("", "effects add a behavior under the id '\(id)' of a composite's child")
    }
    for behavior in laidOut.behaviors {
      guard let id = behavior.id else { continue }
      if let added = behaviors[id], !added.contains(behavior.type) {
        fail("", "effects add a behavior of another type under the scene's id '\(id)'")
      }
      behaviors[id] = [behavior.type]
    }
    var rules = DocumentRules()
    rules.phases = phases
    rules.state = state
    let context = RulesContext(
      runtime: runtime, base: names, items: laidOut.items.map(\.id), behaviors: behaviors,
      parameters: parameters, sample: sample)
    rules.behaviorIDs = context.behaviorIDs
    let compiled = self.rules(json, into: &rules, context: context)
    rules.behaviorEffects = behaviorEffects
    rules.findBaseUpdates()
    document = TransitionDocument(
      name: name, description: description, parameters: parameters, scene: scene,
      expressions: expressions, names: names, rules: rules, runtime: runtime,
      ruleExpressions: compiled)
    return errors.isEmpty ? document : nil
  }

  // MARK: Name, parameters and constants

  /// `constants`: named numbers of the parameters, the bounds and the constants before them,
  /// each proved safe, usable in every expression of the document.
  private mutating func constants(_ value: JSONValue, into names: inout DocumentNames) {
    guard case .object(let members) = value, members.count <= DocumentLimits.maxState else {
      fail("/constants", "constants are an object of at most \(DocumentLimits.maxState) names")
      return
    }
    for member in members {
      let at = "/constants" + pointer([member.name])
      guard isSnakeCase(member.name), !Self.keywords.contains(member.name),
        !Self.reserved.contains(member.name),
        names.names.slot(of: member.name) == nil
      else {
        fail(at, "'\(member.name)' is not a snake_case name of its own")
        continue
      }
      guard let e = baseExpression(member.value, names, at: at),
        let range = try? e.interval(names.names.entries.map(\.range))
      else { continue }
      names.addConstant(member.name, e, in: range)
    }
  }

  private mutating func transitionName(_ value: JSONValue?) -> String? {
    guard case .string(let name)? = value else {
      fail("/transition", value == nil ? "missing: the transition's name" : "a name is a string")
      return nil
    }
    if let problem = Limits.nameProblem(name) {
      fail("/transition", "the name \(problem)")
      return nil
    }
    return name
  }

  private mutating func parameters(_ value: JSONValue?) -> [TransitionParameter] {
    guard let value else { return [] }
    guard case .array(let entries) = value else {
      fail("/parameters", "parameters are an array of {name, default, min, max, unit, source}")
      return []
    }
    if entries.count > Limits.maxParams {
      fail(
        "/parameters",
        "a transition has at most \(Limits.maxParams) parameters, not \(entries.count)")
    }
    var declared: [TransitionParameter] = []
    for (index, entry) in entries.prefix(Limits.maxParams).enumerated() {
      let at = "/parameters/\(index)"
      guard let p = parameter(entry, at: at) else { continue }
      if declared.contains(where: { $0.name == p.name }) {
        fail(at + "/name", "'\(p.name)' is declared twice")
      } else {
        declared.append(p)
      }
    }
    return declared
  }

  private static let parameterFields = [
    "name", "default", "min", "max", "unit", "source", "choices",
  ]

  /// A choice: `{name, choices: [word, …], default: word, source}`; in expressions its value
  /// is the index of its word, and `name.word` each word's.
  private mutating func choice(_ entry: JSONValue, name: String, choices: JSONValue, at: String)
    -> TransitionParameter?
  {
    for key in ["min", "max", "unit"] where entry[key] != nil {
      fail(at + "/" + key, "a choice has no \(key)")
    }
    var words: [String] = []
    if case .array(let list) = choices, !list.isEmpty, list.count <= 32 {
      for (index, word) in list.enumerated() {
        guard case .string(let text) = word, isSnakeCase(text), !words.contains(text) else {
          fail(at + "/choices/\(index)", "a choice is a snake_case word, each once")
          continue
        }
        words.append(text)
      }
    } else {
      fail(at + "/choices", "the choices are an array of 1 to 32 words")
    }
    guard case .string(let preset)? = entry["default"], words.contains(preset) else {
      fail(at + "/default", "the default is one of the choices")
      return nil
    }
    var source = "document"
    if case .string(let text)? = entry["source"] { source = text }
    return TransitionParameter(name, choice: preset, of: words, source: source)
  }

  private mutating func parameter(_ entry: JSONValue, at: String) -> TransitionParameter? {
    guard case .object(let members) = entry else {
      fail(at, "a parameter is an object {name, default, min, max, unit, source}")
      return nil
    }
    for member in members where !Self.parameterFields.contains(member.name) {
      fail(
        at + pointer([member.name]),
        "unknown field (a parameter has: \(Self.parameterFields.joined(separator: ", ")))")
    }
    guard case .string(let name)? = entry["name"] else {
      fail(at + "/name", "missing: a parameter's name (snake_case)")
      return nil
    }
    if !isSnakeCase(name) || name.utf8.count > 64 || Self.keywords.contains(name) {
      fail(at + "/name", "'\(name)' is not a snake_case name of at most 64 bytes")
    }
    if Self.reserved.contains(name) {
      fail(
        at + "/name",
        "'\(name)' names what the rules read (\(Self.reserved.joined(separator: ", ")))")
    }
    if DocumentNames.bounds.contains(name) {
      fail(at + "/name", "'\(name)' names the bounds; call the parameter something else")
    }
    if let choices = entry["choices"] {
      return choice(entry, name: name, choices: choices, at: at)
    }
    let low = extent(entry["min"], at: at + "/min")
    let high = extent(entry["max"], at: at + "/max")
    let preset = extent(entry["default"], at: at + "/default")
    var unit = ""
    var source = "document"
    if case .string(let text)? = entry["unit"] {
      unit = text
    } else if entry["unit"] != nil {
      fail(at + "/unit", "a unit is a string")
    }
    if case .string(let text)? = entry["source"] {
      source = text
    } else if entry["source"] != nil {
      fail(at + "/source", "a source is a string")
    }
    guard let low, let high, let preset else { return nil }
    let standard = TransitionBounds.standard.size
    let (l, h, d) = (low.value(in: standard), high.value(in: standard), preset.value(in: standard))
    if l > h {
      fail(
        at + "/min",
        "min (\(short(l))) is above max (\(short(h))) in the standard 320×568 bounds")
    }
    if d < l || d > h {
      fail(
        at + "/default",
        "the default (\(short(d))) is outside \(short(l)) … \(short(h)) in the standard "
          + "320×568 bounds")
    }
    return TransitionParameter(
      name, default: preset, from: low, to: high, unit: unit, source: source)
  }

  /// A number, or an `=` expression of the bounds' `width` and `height`.
  private mutating func extent(_ value: JSONValue?, at: String) -> BoundsExtent? {
    switch value {
    case .number(let number)?: return .fixed(number)
    case .string(let text)? where text.hasPrefix("="):
      let source = String(text.dropFirst())
      do throws(ExpressionError) {
        let e = try ExpressionParser.parse(source, names: BoundsExtent.names, as: .number)
        _ = try e.interval([TransitionBounds.sides, TransitionBounds.sides])
        return .ofBounds(source)
      } catch {
        fail(at, error.message + (error.offset.map { " (at \($0 + 1) in the expression)" } ?? ""))
        return nil
      }
    case nil:
      fail(at, "missing: a number, or an expression of width and height (\"=height / 2\")")
      return nil
    default:
      fail(at, "a number, or an expression of width and height (\"=height / 2\")")
      return nil
    }
  }

  func isSnakeCase(_ name: String) -> Bool {
    guard let first = name.utf8.first, (97...122).contains(first) else { return false }
    return name.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 95 }
  }

  // MARK: The scene

  /// Every `=` string of the scene, read as a number expression and proved never to fail.
  private mutating func expressions(in scene: JSONValue, names: DocumentNames) -> [String:
    Expression]
  {
    guard case .object(let members) = scene else {
      fail("/scene", "a scene is an object {items, groups, behaviors}")
      return [:]
    }
    if members.contains(where: { $0.name == "bounds" }) {
      fail(
        "/scene/bounds",
        "a transition's scene lives in the bounds open gives it (\"bounds\" of open); write positions as expressions of width, height, min_x, …"
      )
    }
    var found: [String: Expression] = [:]
    let ranges = names.names.entries.map(\.range)
    func walk(_ value: JSONValue, _ tokens: [String]) {
      switch value {
      case .string(let text) where text.hasPrefix("="):
        let at = pointer(tokens)
        do throws(ExpressionError) {
          let e = try ExpressionParser.parse(
            String(text.dropFirst()), names: names.names, as: .number)
          _ = try e.interval(ranges)
          found[at] = e
        } catch {
          fail(at, error.message + (error.offset.map { " (at \($0 + 1) in the expression)" } ?? ""))
        }
      case .array(let elements):
        for (index, element) in elements.enumerated() { walk(element, tokens + [String(index)]) }
      case .object(let members):
        for member in members { walk(member.value, tokens + [member.name]) }
      default:
        break
      }
    }
    walk(scene, ["scene"])
    return found
  }

  /// The most JSON values the corner checks of one document read in all (its scene's values
  /// times the corners tried): what keeps `define` of a large document within tens of
  /// milliseconds. The defaults and both ends of the box in the standard bounds are always tried.
  static let cornerBudget = 60_000

  /// Builds the scene at the corners of the parameter box in the standard, the smallest, the
  /// largest and two elongated bounds, most telling first, and reads each as `open` reads a
  /// scene, as many as `cornerBudget` allows.
  private mutating func checkCorners(_ document: TransitionDocument) {
    let standard = TransitionBounds.standard
    let (small, large) = (TransitionBounds.sides.lowerBound, TransitionBounds.sides.upperBound)
    let others = [(small, small), (large, large), (small, large), (large, small)].map {
      Rect(x: 0, y: 0, width: $0.0, height: $0.1)
    }
    let size = max(1, count(document.scene))
    var tries: [(Rect, [Double])] = []
    for bounds in [standard] + others {
      let resolved = document.parameters.map { $0.resolved(in: bounds.size) }
      tries += corners(resolved).prefix(3).map { (bounds, $0) }
    }
    for bounds in [standard] + others {
      let resolved = document.parameters.map { $0.resolved(in: bounds.size) }
      tries += corners(resolved).dropFirst(3).map { (bounds, $0) }
    }
    let allowed = max(3, Self.cornerBudget / size)
    for (bounds, point) in tries.prefix(allowed) {
      do throws(DocumentError) {
        _ = try document.sceneSpec(document.names.values(point, in: bounds), bounds: bounds)
      } catch {
        // One error a field: the first corner that breaks it says enough.
        guard !errors.contains(where: { $0.pointer == error.pointer }) else { continue }
        let at = zip(document.parameters, point).map { "\($0.name) \(short($1))" }
        fail(
          error.pointer,
          error.message + " (in \(short(bounds.size.width))×\(short(bounds.size.height)) bounds"
            + (at.isEmpty ? ")" : ", with \(at.joined(separator: ", ")))"))
      }
      if errors.count >= DocumentErrors.maxListed { return }
    }
  }

  /// How many JSON values `value` holds, itself included.
  private func count(_ value: JSONValue) -> Int {
    switch value {
    case .array(let elements): return 1 + elements.reduce(0) { $0 + count($1) }
    case .object(let members): return 1 + members.reduce(0) { $0 + count($1.value) }
    default: return 1
    }
  }

  /// The parameter values to try, most telling first: the defaults, all at their minimum, all
  /// at their maximum, then every corner of the box up to six parameters (each alone at either
  /// end beyond).
  private func corners(_ parameters: [TransitionParameter]) -> [[Double]] {
    let ends: [(Double, Double, Double)] = parameters.map {
      // A choice by the indices of its words: its first, its last, its default.
      if case .choice(let words) = $0.kind, case .string(let word) = $0.defaultValue {
        return (0, Double(max(words.count - 1, 0)), Double(words.firstIndex(of: word) ?? 0))
      }
      guard case .number(let r) = $0.kind, case .number(let d) = $0.defaultValue else {
        return (0, 0, 0)
      }
      return (r.lowerBound, r.upperBound, d)
    }
    var points = [ends.map(\.2), ends.map(\.0), ends.map(\.1)]
    if ends.count <= 6 {
      for mask in 0..<(1 << ends.count) {
        points.append(
          ends.enumerated().map { mask & (1 << $0.offset) == 0 ? $0.element.0 : $0.element.1 })
      }
    } else {
      for index in ends.indices {
        for end in [ends[index].0, ends[index].1] {
          var point = ends.map(\.2)
          point[index] = end
          points.append(point)
        }
      }
    }
    return points
  }
}

/// A number as a message writes it.
func short(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
}
