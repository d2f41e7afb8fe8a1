import Expressions
import JSON
import Primitives
import Transitions
import Wire

/// The spring and the decay a session's parameters give (`GivenMotion`): what a spring or a
/// decay an effect adds with `"from_parameters": true` moves by (each nil when the document
/// adds none: `friction` is a decay's field and an Origami spring's).
struct GivenMotions: Sendable {
  var spring: GivenMotion.Spring?
  var decay: DecayModel?

  /// For the parameters the client gave (`given`), at `value` (each declared one's value), the
  /// motions `uses` names (`spring`, `decay`).
  init(given: Set<String>, uses: Set<BehaviorType>, value: (String) -> Double?)
    throws(TransitionError)
  {
    if uses.contains(.spring) {
      spring = try GivenMotion.spring(given: given) { value($0.rawValue) ?? 0 }
    }
    if uses.contains(.decay) {
      decay = try GivenMotion.decay(given: given) {
        value($0.rawValue) ?? DecayModel.normalDecelerationRate
      }
    }
  }
}

extension DocumentReader {
  /// The ids and types of the behaviors the document's effects add (`add_behavior` anywhere in
  /// its rules), so that a `set`, a `remove_behavior` or an `ended` may name them.
  static func addedBehaviors(_ json: JSONValue) -> [String: Set<BehaviorType>] {
    var found: [String: Set<BehaviorType>] = [:]
    func walk(_ value: JSONValue) {
      switch value {
      case .object(let members):
        for member in members {
          if member.name == "add_behavior", case .string(let id)? = member.value["id"],
            case .string(let word)? = member.value["type"], let type = BehaviorType(rawValue: word)
          {
            found[id, default: []].insert(type)
          } else {
            walk(member.value)
          }
        }
      case .array(let elements): elements.forEach(walk)
      default: break
      }
    }
    for key in ["actions", "pan", "release", "cancel", "tap", "swipe", "done"] {
      if let rules = json[key] { walk(rules) }
    }
    return found
  }

  /// `then`: at most `maxEffects` effects, each one of `add_behavior`, `remove_behavior`,
  /// `set`, `add_velocity` and `let`.
  mutating func effects(
    _ value: JSONValue?, at: String, context: RulesContext, compiled: inout [String: Expression]
  ) -> [DocumentRules.Effect] {
    guard let value else { return [] }
    guard case .array(let list) = value, list.count <= DocumentLimits.maxEffects else {
      fail(at, "an array of at most \(DocumentLimits.maxEffects) effects")
      return []
    }
    var made: [DocumentRules.Effect] = []
    for (index, effect) in list.enumerated() {
      let here = "\(at)/\(index)"
      guard case .object(let members) = effect, members.count == 1 else {
        fail(here, "an effect is one of " + Self.effectKinds)
        continue
      }
      let (kind, body) = (members[0].name, members[0].value)
      let bodyAt = here + pointer([kind])
      switch kind {
      case "add_behavior":
        // An id, so that the next one added replaces it: a session's behaviors stay bounded
        // however many gestures it takes.
        guard case .string(let id)? = body["id"], !id.hasPrefix("=") else {
          fail(bodyAt + "/id", "a behavior an effect adds has an id (the next one replaces it)")
          continue
        }
        if body["type"] == .string("composite") {
          fail(bodyAt + "/type", "an effect adds one behavior, not a composite")
          continue
        }
        var own: [String: Expression] = [:]
        compile(body, tokens: pathTokens(bodyAt), context: context, into: &own)
        compiled.merge(own) { $1 }
        made.append(
          .addBehavior(
            behaviorEffect(body, at: bodyAt, compiled: own, context: context),
            slot: context.slots[id], fromParameters: body["from_parameters"] != nil))
      case "remove_behavior":
        guard case .string(let id) = body, let slot = context.slots[id] else {
          fail(
            bodyAt, "the id of a behavior of the scene (not a composite's child) or of an effect")
          continue
        }
        made.append(.removeBehavior(slot: slot))
      case "set":
        guard case .object(let fields) = body, case .string(let id)? = body["behavior"],
          let type = context.behaviors[id]?.first, let slot = context.slots[id]
        else {
          fail(
            bodyAt,
            "a set is {\"behavior\": id, field: value, …}, of a behavior of the scene or of an effect"
          )
          continue
        }
        let rest = JSONValue.object(fields.filter { $0.name != "behavior" })
        var own: [String: Expression] = [:]
        compile(rest, tokens: pathTokens(bodyAt), context: context, into: &own)
        compiled.merge(own) { $1 }
        made.append(
          .setBehavior(
            slot: slot, type, behaviorEffect(rest, at: bodyAt, compiled: own, context: context)))
      case "add_velocity":
        unknownFields(body, at: bodyAt, known: ["item", "velocity"])
        guard case .string(let item)? = body["item"], context.items.contains(item) else {
          fail(bodyAt + "/item", "an item of the scene")
          continue
        }
        guard case .array(let xy)? = body["velocity"], xy.count == 2,
          let dx = number(xy[0], at: bodyAt + "/velocity/0", context),
          let dy = number(xy[1], at: bodyAt + "/velocity/1", context)
        else {
          if body["velocity"] == nil { fail(bodyAt + "/velocity", "missing: [vx, vy] in pt/s") }
          continue
        }
        made.append(.addVelocity(item, dx: FlatExpression(dx), dy: FlatExpression(dy)))
      case "do":
        guard case .string(let name) = body, let action = context.actions[name] else {
          fail(bodyAt, "the name of one of the document's actions (an action does no other)")
          continue
        }
        made += action
      case "let":
        guard case .object(let assignments) = body, !assignments.isEmpty else {
          fail(bodyAt, "let is an object {name: value, …} of the phase and the state")
          continue
        }
        var values: [(Int, FlatExpression)] = []
        for assignment in assignments {
          let at = bodyAt + pointer([assignment.name])
          guard let index = context.runtime.stateNames.firstIndex(of: assignment.name) else {
            fail(at, "not 'phase' or a name of the document's state")
            continue
          }
          if let e = number(assignment.value, at: at, context) {
            values.append((index, FlatExpression(e)))
          }
        }
        made.append(.assign(values))
      default:
        fail(here, "an effect is one of " + Self.effectKinds)
      }
    }
    return made
  }

  /// The next effect that adds or sets a behavior: `json` at `at`, its expressions `compiled`.
  private mutating func behaviorEffect<Read>(
    _ json: JSONValue, at: String, compiled: [String: Expression], context: RulesContext
  ) -> BehaviorEffect<Read> {
    behaviorEffects += 1
    return BehaviorEffect(
      json, at: at, index: behaviorEffects - 1, compiled: compiled,
      base: context.base.names.entries.count)
  }

  static let effectKinds =
    "{\"add_behavior\": behavior}, {\"remove_behavior\": id}, {\"set\": {\"behavior\": id, …}}, "
    + "{\"add_velocity\": {\"item\": id, \"velocity\": [vx, vy]}}, {\"let\": {name: value}}, "
    + "{\"do\": action}"

  /// A number, or an `=` expression of the runtime names.
  private mutating func number(_ value: JSONValue, at: String, _ context: RulesContext)
    -> Expression?
  {
    switch value {
    case .number(let number): return .number(number)
    case .string(let text) where text.hasPrefix("="):
      return runtimeExpression(String(text.dropFirst()), as: .number, at: at, context)
    default:
      fail(at, "a number, or an expression (\"=-screen.vy\")")
      return nil
    }
  }

  /// Each behavior an effect adds, and each set, read at the sample values (a spring or a
  /// decay `from_parameters` needs the parameters its set is given by); returns the types of
  /// those `from_parameters`.
  mutating func checkEffects(
    _ rules: DocumentRules, context: RulesContext, compiled: [String: Expression]
  ) -> Set<BehaviorType> {
    var uses: Set<BehaviorType> = []
    let declared = Set(context.parameters.map(\.name))
    let lists = rules.effectLists
    var given: GivenMotions?
    do throws(TransitionError) {
      given = try GivenMotions(given: [], uses: [.spring, .decay]) { name in
        context.parameters.firstIndex { $0.name == name }.map { context.sample[$0] }
      }
    } catch {
      fail("/parameters", error.message + " (at the defaults)")
    }
    // Each effect once, however many rules `do` its action (one object, numbered, per effect).
    var checked: Set<Int> = []
    for effects in lists {
      for effect in effects {
        switch effect {
        case .addBehavior(let added, _, _):
          guard checked.insert(added.index).inserted else { continue }
        case .setBehavior(_, _, let set):
          guard checked.insert(set.index).inserted else { continue }
        default: break
        }
        switch effect {
        case .addBehavior(let added, _, _):
          let (spec, at) = (added.json, added.pointer)
          if spec["from_parameters"] != nil {
            let fields: [String] =
              switch spec["type"] {
              case .string("spring")?: SpringField.allCases.map(\.rawValue)
              case .string("decay")?: DecayField.allCases.map(\.rawValue)
              default: []
              }
            let missing = fields.filter { !declared.contains($0) }
            if fields.isEmpty || spec["from_parameters"] != .bool(true) {
              fail(at + "/from_parameters", "true, on a spring or a decay")
              continue
            } else if !missing.isEmpty {
              fail(
                at + "/from_parameters",
                "a motion from the parameters needs them declared: "
                  + missing.joined(separator: ", "))
              continue
            }
            if case .string(let word)? = spec["type"], let type = BehaviorType(rawValue: word) {
              uses.insert(type)
            }
          }
          do throws(DocumentError) {
            _ = try TransitionDocument.behaviorSpec(
              spec, at: at, expressions: compiled, values: context.sample, given: given)
          } catch {
            fail(error.pointer, error.message)
          }
        case .setBehavior(_, let type, let set):
          do throws(DocumentError) {
            _ = try TransitionDocument.update(
              set.json, for: type, at: set.pointer, expressions: compiled, values: context.sample)
          } catch {
            fail(error.pointer, error.message)
          }
        default:
          break
        }
      }
    }
    if uses.isSuperset(of: [.spring, .decay]) {
      // `friction` is a field of both (Origami's spring, Android's decay): one client's value
      // would give both motions.
      fail(
        "",
        "a document takes a spring or a decay from its parameters, not both (friction is a field of each)"
      )
    }
    return uses
  }

  /// Reads every `=` string of `value` as a number expression of the runtime names.
  private mutating func compile(
    _ value: JSONValue, tokens: [String], context: RulesContext,
    into compiled: inout [String: Expression]
  ) {
    switch value {
    case .string(let text) where text.hasPrefix("="):
      let at = pointer(tokens)
      if let e = runtimeExpression(String(text.dropFirst()), as: .number, at: at, context) {
        compiled[at] = e
      }
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        compile(element, tokens: tokens + [String(index)], context: context, into: &compiled)
      }
    case .object(let members):
      for member in members {
        compile(member.value, tokens: tokens + [member.name], context: context, into: &compiled)
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
  /// reads one; a spring or a decay `from_parameters` moves by the motion `given`.
  static func behaviorSpec(
    _ spec: JSONValue, at: String, expressions: [String: Expression], values: [Double],
    given: GivenMotions?
  ) throws(DocumentError) -> BehaviorSpec {
    let tokens = at.split(separator: "/").map(String.init)
    var evaluated = try evaluate(spec, tokens: tokens, expressions: expressions, at: values)
    let fromParameters = spec["from_parameters"] == .bool(true)
    if fromParameters, case .object(let members) = evaluated {
      // A placeholder the reader accepts; the motion given replaces it below.
      let placeholder: [JSONMember] =
        spec["type"] == .string("spring")
        ? [
          JSONMember(name: "duration", value: .number(0.5)),
          JSONMember(name: "bounce", value: .number(0)),
        ]
        : [JSONMember(name: "deceleration_rate", value: .number(0.998))]
      evaluated = .object(members.filter { $0.name != "from_parameters" } + placeholder)
    }
    do throws(ProtocolError) {
      var read = try BehaviorSpec(json: evaluated)
      if fromParameters, let given {
        switch read {
        case .spring(var spring):
          guard let p = given.spring?.parameters else { break }
          spring.parameters = SpringParameterValues(
            .stiffnessAndDamping, [.stiffness: p.stiffness, .damping: p.damping, .mass: p.mass])
          read = .spring(spring)
        case .decay(var decay):
          guard let model = given.decay else { break }
          decay.model = model
          read = .decay(decay)
        default:
          break
        }
      }
      return read
    } catch {
      throw DocumentError(at, error.message)
    }
  }

  /// The fields a `set` effect gives, evaluated at `values`, read as `set_behavior` reads them
  /// for a behavior of `type`.
  static func update(
    _ fields: JSONValue, for type: BehaviorType, at: String, expressions: [String: Expression],
    values: [Double]
  ) throws(DocumentError) -> BehaviorUpdate {
    let tokens = at.split(separator: "/").map(String.init)
    let evaluated = try evaluate(fields, tokens: tokens, expressions: expressions, at: values)
    do throws(ProtocolError) {
      return try BehaviorUpdate(json: evaluated, for: type)
    } catch {
      throw DocumentError(at, error.message)
    }
  }
}
