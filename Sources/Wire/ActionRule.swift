import Primitives

/// One rule of a behavior's `action` (an extension standing for UIKit's per-step `action`
/// block, which cannot cross a socket): `{"when": W, "then": [effect, …], "repeat": bool}`.
///
/// The daemon checks a behavior's rules after every internal step while the behavior is in the
/// animator. A rule fires on the step its condition becomes true (it was false, or the behavior
/// was just added, on the step before), or on every step while it is true with `"repeat": true`;
/// its effects run in order. A behavior has at most `Limits.maxActionRules` rules, a rule at
/// least one and at most `Limits.maxActionEffects` effects.
public struct ActionRule: Equatable, Sendable {
  public var when: ActionCondition
  public var then: [ActionEffect]
  /// `repeat` (default false): fire on every step while the condition holds, not only when it
  /// becomes true.
  public var repeats: Bool

  public init(when: ActionCondition, then: [ActionEffect], repeats: Bool = false) {
    self.when = when
    self.then = then
    self.repeats = repeats
  }
}

/// A rule's `when`: `{"always": true}`, or `item` (an item of the scene, not a group) with
/// exactly one of `inside` / `outside` (a rectangle `[x, y, w, h]`: the item's center is in it,
/// edges included, or not) and `speed_below` / `speed_above` (pt/s, in `Limits.actionSpeed`:
/// the item's speed is below or above it).
public enum ActionCondition: Equatable, Sendable {
  case always
  case inside(item: String, rect: Rect)
  case outside(item: String, rect: Rect)
  case speedBelow(item: String, speed: Double)
  case speedAbove(item: String, speed: Double)

  /// The item the condition watches (nil for `always`), which an `action` event names.
  public var item: String? {
    switch self {
    case .always: return nil
    case .inside(let item, _), .outside(let item, _), .speedBelow(let item, _),
      .speedAbove(let item, _):
      return item
    }
  }
}

/// One of a rule's `then`: exactly one key.
///
/// - `{"emit": name}` sends an `action` event with that name to the session's watchers;
/// - `{"set": {"behavior": id, …}}` is a `set_behavior` of that behavior with those fields
///   (any field `set_behavior` takes, except `action`: a rule does not change rules), read for
///   the behavior's type when the rule is attached;
/// - `{"remove_behavior": id}` removes that behavior (it may be the rule's own).
public enum ActionEffect: Equatable, Sendable {
  case emit(String)
  case set(behavior: String, fields: BehaviorFields)

  /// A `set` of the fields of `update`.
  public static func set(behavior: String, update: BehaviorUpdate) -> Self {
    .set(behavior: behavior, fields: BehaviorFields(update))
  }
  case removeBehavior(String)
}

extension ActionRule {
  static let fields: [StaticString] = ["when", "then", "repeat"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    let when = try ActionCondition(fields.requiredObject("when", owner: "a rule's condition"))
    guard
      let effects = try fields.objects(
        "then", count: 1...Limits.maxActionEffects, owner: "an effect")
    else { throw fields.missing("then") }
    var then: [ActionEffect] = []
    then.reserveCapacity(effects.count)
    for effect in effects { then.append(try ActionEffect(effect)) }
    self.init(when: when, then: then, repeats: try fields.bool("repeat") ?? false)
  }
}

extension ActionCondition {
  static let fields: [StaticString] = [
    "always", "item", "inside", "outside", "speed_below", "speed_above",
  ]
  /// The tests that go with `item`, in the order the documentation lists them.
  private static let tests: [StaticString] = ["inside", "outside", "speed_below", "speed_above"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    var present: [StaticString] = []
    for key in Self.tests where fields.has(key) { present.append(key) }
    if let always = try fields.bool("always") {
      guard always else {
        throw ProtocolError(
          .outOfRange,
          "field '\(fields.fieldPath("always"))' must be true (a rule that never fires has no "
            + "use)")
      }
      if fields.has("item") { throw fields.exclusive("item", with: "always") }
      if let test = present.first { throw fields.exclusive(test, with: "always") }
      self = .always
      return
    }
    guard let test = present.first else {
      throw ProtocolError(
        .missingField,
        "a rule's condition needs \"always\": true, or 'item' with one of 'inside', 'outside', "
          + "'speed_below', 'speed_above' (in '\(fields.path)')")
    }
    if present.count > 1 { throw fields.exclusive(present[1], with: test) }
    let item = try fields.requiredName("item")
    switch "\(test)" {
    case "inside": self = .inside(item: item, rect: try fields.requiredSelectionRect("inside"))
    case "outside": self = .outside(item: item, rect: try fields.requiredSelectionRect("outside"))
    case "speed_below":
      self = .speedBelow(
        item: item, speed: try fields.requiredNumber("speed_below", in: Limits.actionSpeed))
    default:
      self = .speedAbove(
        item: item, speed: try fields.requiredNumber("speed_above", in: Limits.actionSpeed))
    }
  }
}

extension ActionEffect {
  static let fields: [StaticString] = ["emit", "set", "remove_behavior"]

  /// What a `set` effect accepts: `behavior` and `set_behavior`'s fields but `action`.
  static let setFields: [StaticString] =
    ["behavior"] + BehaviorUpdate.fields.filter { "\($0)" != "action" }

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    var present: [StaticString] = []
    for key in Self.fields where fields.has(key) { present.append(key) }
    guard let key = present.first else {
      throw ProtocolError(
        .missingField,
        "an effect needs one of 'emit', 'set', 'remove_behavior' (in '\(fields.path)')")
    }
    if present.count > 1 { throw fields.exclusive(present[1], with: key) }
    switch "\(key)" {
    case "emit": self = .emit(try fields.requiredName("emit"))
    case "remove_behavior": self = .removeBehavior(try fields.requiredName("remove_behavior"))
    default:
      let set = try fields.requiredObject("set", owner: "a 'set' effect")
      if set.has("action") {
        throw ProtocolError(
          .unknownField,
          "field '\(set.fieldPath("action"))' is not allowed in a 'set' effect: a rule does not "
            + "change rules (set_behavior does)")
      }
      try set.rejectUnknownFields(Self.setFields)
      let behavior = try set.requiredName("behavior")
      let fields = try BehaviorFields(
        set, excluding: ["behavior"], what: "a 'set' effect")
      self = .set(behavior: behavior, fields: fields)
    }
  }
}

extension ObjectReader {
  /// A behavior's `action` rules, if present (at most `Limits.maxActionRules`).
  func actionRules() throws(ProtocolError) -> [ActionRule]? {
    guard
      let objects = try objects("action", maxCount: Limits.maxActionRules, owner: "an action rule")
    else { return nil }
    var rules: [ActionRule] = []
    rules.reserveCapacity(objects.count)
    for object in objects { rules.append(try ActionRule(object)) }
    return rules
  }

  /// A rectangle `[x, y, w, h]` that selects items: `x`, `y` in `Limits.coordinate`, `w`, `h`
  /// in `Limits.selectionSide`.
  func requiredSelectionRect(_ key: StaticString) throws(ProtocolError) -> Rect {
    guard let value = node.member(key) else { throw missing(key) }
    let path = fieldPath(key)
    guard value.kind == .array, value.count == 4 else {
      throw wrongType(path, expected: "a rectangle [x, y, w, h]", got: value)
    }
    return Rect(
      x: try readNumber(value[0], path: "\(path)[0]", in: Limits.coordinate),
      y: try readNumber(value[1], path: "\(path)[1]", in: Limits.coordinate),
      width: try readNumber(value[2], path: "\(path)[2]", in: Limits.selectionSide),
      height: try readNumber(value[3], path: "\(path)[3]", in: Limits.selectionSide))
  }
}
