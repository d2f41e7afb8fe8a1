import Dynamics
import Primitives
import Wire

/// Action rules: dynd's remote form of UIKit's per-step `action` block.
///
/// A client cannot run code inside the daemon's step, and a round trip per step would be late
/// by a frame at best. So a behavior carries declared rules instead (`"action"` on the wire),
/// which the daemon checks after every internal step, as UIKit calls `action`: a condition on an
/// item (inside or outside a rectangle, slower or faster than a speed, or always) and effects
/// (change a behavior as `set_behavior` does, remove a behavior, or `emit` an `action` event to
/// the session's watchers). A rule fires on the step its condition becomes true; with `repeat`
/// on every step while it holds. An `emit` sends at most one event per rule and frame, so a
/// repeating rule costs its watchers one event a frame, not one per internal step.
struct ActionRuleState {
  let rule: ActionRule
  /// The `set` effects' fields, read for their targets' types when the rule was attached, by the
  /// index of the effect in `rule.then`.
  let sets: [Int: ResolvedSet]
  /// Whether the condition held after the previous step.
  var held = false
  /// Whether the rule emitted its event during the frame being computed.
  var emittedThisFrame = false
}

/// A `set` effect's fields read for the type its target had when the rule was attached; a
/// behavior of another type that later takes the target's id is left alone.
struct ResolvedSet {
  let type: BehaviorType
  let update: BehaviorUpdate
}

/// An `emit` effect that fired, waiting for its frame to be published.
struct EmittedAction {
  let behavior: String
  let name: String
  let item: String?
  let t: Double
}

extension SceneModel {
  /// Checks rules before they are attached to the behavior `owner`: items named by conditions
  /// exist, effects name behaviors that exist (`known`: id → type, including the behaviors
  /// added with them), and a `set` holds only fields its target's type may set, none of which
  /// changes item lists, Box2D shapes or rules (`items`, `boundaries`, `reference_bounds`,
  /// `insets`, `action`).
  func checkActionRules(_ rules: [ActionRule], owner: String, known: [String: BehaviorType])
    throws(ProtocolError)
  {
    for (index, rule) in rules.enumerated() {
      let path = "behavior '\(owner)' action[\(index)]"
      if let item = rule.when.item, itemsByID[item] == nil, groupsByID[item] == nil {
        throw ProtocolError(
          .unknownItem, "\(path) watches item '\(item)', which is not in the scene")
      }
      for effect in rule.then {
        switch effect {
        case .emit:
          break
        case .removeBehavior(let target):
          guard known[target] != nil else {
            throw ProtocolError(
              .unknownBehavior, "\(path) removes behavior '\(target)', which does not exist")
          }
        case .set(let target, let fields):
          guard let type = known[target] else {
            throw ProtocolError(
              .unknownBehavior, "\(path) sets behavior '\(target)', which does not exist")
          }
          // Item lists and boundaries rebuild the world and cost up to a million comparisons
          // each; at 256 rules of 8 effects on every step that would stall the session.
          for name in ["items", "boundaries", "reference_bounds", "insets", "action"]
          where fields.names.contains(name) {
            throw ProtocolError(
              .invalidScene,
              "\(path) sets '\(name)' of '\(target)'; an action may not change item lists, "
                + "boundaries or rules (send set_behavior instead)")
          }
          _ = try fields.update(for: type)
        }
      }
    }
  }

  /// Refuses more than `Limits.maxActionRulesPerScene` rules in the whole scene.
  func checkActionRuleCount(adding added: Int) throws(ProtocolError) {
    let now = actions.values.reduce(0) { $0 + $1.count }
    guard now + added <= Limits.maxActionRulesPerScene else {
      throw ProtocolError(
        .outOfRange,
        "the scene would hold \(now + added) action rules; a scene holds at most "
          + "\(Limits.maxActionRulesPerScene)")
    }
  }

  /// Replaces the rules of a behavior and hooks them to its `action`.
  func setActionRules(_ rules: [ActionRule], of entry: SceneBehavior) {
    guard !rules.isEmpty else {
      actions[entry.id] = nil
      entry.behavior.action = nil
      return
    }
    actions[entry.id] = rules.map { rule in
      var sets: [Int: ResolvedSet] = [:]
      for (index, effect) in rule.then.enumerated() {
        guard case .set(let target, let fields) = effect,
          let type = behaviorsByID[target]?.type ?? (target == entry.id ? entry.type : nil),
          let update = try? fields.update(for: type)  // checked by `checkActionRules`
        else { continue }
        sets[index] = ResolvedSet(type: type, update: update)
      }
      return ActionRuleState(rule: rule, sets: sets)
    }
    let id = entry.id
    entry.behavior.action = { [unowned self] in runActionRules(of: id) }
  }

  /// After an internal step (on the session's worker): evaluates the behavior's rules and runs
  /// the effects of those that fire. A rule whose behavior or target is gone does nothing.
  func runActionRules(of id: String) {
    guard let rules = actions[id] else { return }
    for index in rules.indices {
      guard var state = actions[id]?[index] else { return }  // a rule removed its behavior
      let holds = holds(state.rule.when)
      let fires = holds && (!state.held || state.rule.repeats)
      state.held = holds
      if fires {
        for (number, effect) in state.rule.then.enumerated() {
          switch effect {
          case .emit(let name):
            guard !state.emittedThisFrame else { continue }
            state.emittedThisFrame = true
            emitted.append(
              EmittedAction(
                behavior: id, name: name, item: state.rule.when.item, t: animator.elapsedTime))
          case .set(let target, _):
            if let set = state.sets[number], let entry = behaviorsByID[target],
              entry.type == set.type
            {
              try? apply(set.update, to: entry)
            }
          case .removeBehavior(let target):
            try? removeBehavior(target, session: "")
          }
        }
      }
      if actions[id] != nil, index < actions[id]!.count { actions[id]![index] = state }
    }
  }

  private func holds(_ condition: ActionCondition) -> Bool {
    let item = condition.item.flatMap { itemsByID[$0] ?? groupsByID[$0] }
    switch condition {
    case .always:
      return true
    case .inside(_, let rect):
      return item.map { rect.contains($0.center) } ?? false
    case .outside(_, let rect):
      return item.map { !rect.contains($0.center) } ?? false
    case .speedBelow(_, let speed):
      return item.map { $0.velocity.length < speed } ?? false
    case .speedAbove(_, let speed):
      return item.map { $0.velocity.length > speed } ?? false
    }
  }

  /// The events emitted since the last call, oldest first; starts a new frame for `emit`.
  func takeActionEvents() -> [EmittedAction] {
    guard !emitted.isEmpty else { return [] }
    let out = emitted
    emitted = []
    for id in actions.keys {
      for index in actions[id]!.indices { actions[id]![index].emittedThisFrame = false }
    }
    return out
  }
}
