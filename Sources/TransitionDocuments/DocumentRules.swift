import Expressions
import JSON
import Primitives
import Transitions
import Wire

/// What a document says about gestures and outcomes (docs/TRANSITION-DOCUMENTS.md): its phases
/// and state, which items a pan grips and how, the rules that choose what a release, a cancel,
/// a tap or a swipe does, the rules checked at the end of every frame (a `done` among them),
/// and the values reported with frames.
struct DocumentRules: Sendable {
  var pan = Pan()
  /// The phases' names (the first is where a session starts): constants in expressions, and
  /// `phase` the current one.
  var phases: [String] = []
  /// The state's names and initial values (expressions of the parameters and the bounds).
  var state: [(name: String, initial: Expression)] = []
  /// The decay whose resting point is the release's `projection` (UIScrollView's normal rate
  /// when the document names none): a decay's model field and its value.
  var projection: (field: DecayField, value: Expression)?
  /// Checked in order; the first whose `when` holds (one without `when` always does) applies.
  var release: [Rule] = []
  var cancel: [Rule] = []
  var tap: [Rule] = []
  var swipe: [Rule] = []
  /// Checked in order at the end of every frame after a rule was applied: each that holds
  /// applies its effects; the first with an outcome ends the cycle with a `done`.
  var done: [DoneRule] = []
  var values: [ValueRule] = []
  /// The motions (`spring`, `decay`) an effect adds `from_parameters`.
  var givenMotions: Set<BehaviorType> = []
  /// How many effects add or set a behavior (each numbered: `BehaviorEffect.index`).
  var behaviorEffects = 0
  /// The ids of the behaviors effects and `ended` may name (the scene's and those effects
  /// add), each at its slot: effects and rules name a behavior by its slot, which a session
  /// holds it at (`DocumentTransition`), instead of looking its id up at every use.
  var behaviorIDs: [String] = []

  /// The effects that set a behavior's fields from the parameters, the bounds and the
  /// constants alone (`BehaviorEffect.readsOnlyBase`), each once, with the type it is read for:
  /// a session reads and resolves them when it opens (`DocumentTransition`).
  var baseUpdates: [(effect: BehaviorEffect<BehaviorUpdate>, type: BehaviorType)] = []

  /// The effects of each rule, in the document's order (an action's in each rule that does it).
  var effectLists: [[Effect]] {
    [pan.began] + [release, cancel, tap, swipe].joined().map(\.then) + done.map(\.then)
  }

  /// Finds `baseUpdates` in the rules.
  mutating func findBaseUpdates() {
    var found: Set<Int> = []
    baseUpdates = []
    for case .setBehavior(_, let type, let effect) in effectLists.joined()
    where effect.readsOnlyBase && found.insert(effect.index).inserted {
      baseUpdates.append((effect, type))
    }
  }

  enum Axis: String, Sendable { case x, y }

  struct Pan: Sendable {
    /// The items a pan may grip (nil: any), and the axis it is locked to (nil: none).
    var items: [String]?
    var axis: Axis?
    /// Instead of the hit test: the pan grips the first of `items` whenever this holds.
    var when: FlatExpression?
    /// Applied when a pan grips, before the grip.
    var began: [Effect] = []
    /// A spring grip (`Transition.grabBySpring`): its frequency (Hz) and damping ratio,
    /// expressions of the parameters and the bounds; nil: the rigid 1:1 grip.
    var spring: (frequency: Expression, damping: Expression)?
    /// The finger's travel times this moves the grip (MotionLayout's `dragScale`).
    var dragScale: Expression?
    /// Past these limits of the gripped item's center along the axis, the finger's travel is
    /// shown by UIScrollView's rubber band (`RubberBand`, c = 0.55) over `dimension`:
    /// expressions of the parameters and the bounds.
    var rubberBand: (from: Expression, to: Expression, dimension: Expression)?
  }

  /// A rule (a class: a frame's checks go through the rules without copying their parts).
  final class Rule: Sendable {
    let when: FlatExpression?
    let then: [Effect]
    /// A release rule's word on its `handoff`: the projection it reports and the detent chosen.
    let handoff: Handoff?

    init(when: FlatExpression?, then: [Effect], handoff: Handoff?) {
      self.when = when
      self.then = then
      self.handoff = handoff
    }
  }

  struct Handoff: Sendable {
    var projection: (x: FlatExpression, y: FlatExpression)?
    var detent: String?
  }

  final class DoneRule: Sendable {
    /// The condition, if any; with `atRest` the animator must also have come to rest, with
    /// `ended` the spring or decay at that slot (`behaviorIDs`) must have brought its items to
    /// rest.
    let when: FlatExpression?
    let atRest: Bool
    let ended: Int?
    /// The `done` it ends the cycle with; nil: it applies its effects and checking goes on.
    let outcome: String?
    let then: [Effect]

    init(when: FlatExpression?, atRest: Bool, ended: Int?, outcome: String?, then: [Effect]) {
      self.when = when
      self.atRest = atRest
      self.ended = ended
      self.outcome = outcome
      self.then = then
    }
  }

  struct ValueRule: Sendable {
    var name: String
    var value: FlatExpression
  }

  /// An effect; a behavior is named by its slot (`behaviorIDs`).
  enum Effect: Sendable {
    /// A behavior object (the protocol's, section 6) whose `=` strings are expressions, added
    /// at the slot of its id (nil only in a document its check refuses: a type it does not
    /// know); with `from_parameters`, a spring or a decay that moves by the motion the
    /// parameters give.
    case addBehavior(BehaviorEffect<BehaviorSpec>, slot: Int?, fromParameters: Bool)
    case removeBehavior(slot: Int)
    /// New values for fields of the behavior at a slot (`set_behavior`'s), `=` strings
    /// expressions, read for the behavior's type (the document's check proved an id names one).
    case setBehavior(slot: Int, BehaviorType, BehaviorEffect<BehaviorUpdate>)
    /// A velocity added to an item through the item behavior that carries it.
    case addVelocity(String, dx: FlatExpression, dy: FlatExpression)
    /// New values of the phase and the state (by their index in `RuntimeNames.stateNames`).
    case assign([(index: Int, value: FlatExpression)])
  }
}

/// The names a document's rules may use besides the parameters and the bounds, after them in
/// this order: the event's values (`release.x` …), the phases (constants), `phase` and the
/// state, then each item whose id is a name. `values(…)` lays the values out in that order.
struct RuntimeNames: Sendable {
  let names: ExpressionNames
  /// The items named, in slot order.
  let items: [String]
  /// `phase`, then the state's names: what `let` sets.
  let stateNames: [String]
  let phaseCount: Int

  static let event = [
    "release.x", "release.y", "release.vx", "release.vy", "start.x", "start.y", "projection.x",
    "projection.y", "tap.x", "tap.y", "swipe.dx", "swipe.dy",
  ]
  static let itemFields = ["x", "y", "vx", "vy", "min_x", "max_x", "min_y", "max_y"]
  /// What a state's value is held in.
  static let stateRange = -2e6...2e6

  init(_ base: DocumentNames, items: [String], phases: [String] = [], state: [String] = []) {
    var names = base.names
    let speed = -1e6...1e6
    for name in Self.event {
      names.add(
        name,
        in: name.hasPrefix("swipe.") ? -1...1 : name.contains(".v") ? speed : Self.stateRange)
    }
    for (index, phase) in phases.enumerated() {
      names.add(phase, in: Double(index)...Double(index))
    }
    names.add("phase", in: 0...Double(max(phases.count - 1, 0)))
    for name in state { names.add(name, in: Self.stateRange) }
    var named: [String] = []
    // An item named like an event's values (`tap`, …) would share their names: it is not
    // named in expressions.
    let taken = Set(Self.event.map { String($0.prefix { $0 != "." }) })
    for id in items where Self.isName(id) && !taken.contains(id) {
      named.append(id)
      for field in Self.itemFields {
        names.add("\(id).\(field)", in: field.hasPrefix("v") ? speed : Self.stateRange)
      }
    }
    self.names = names
    self.items = named
    stateNames = ["phase"] + state
    phaseCount = phases.count
    isConsistent =
      names.entries.count
      == base.names.entries.count + Self.event.count + phases.count + 1 + state.count
      + named.count * Self.itemFields.count
  }

  /// Whether every name has a slot of its own (`values` lays out one value per name): false
  /// when two collide, which the reader refuses.
  let isConsistent: Bool

  /// The values of every name, in slot order: `base` (the parameters' and the bounds'), the
  /// event's, the phases' constants, `state` (the phase first), then `items`' (in `items`'
  /// order: nil for one the scene no longer has).
  func values(
    base: [Double], event: [Double], state: [Double],
    items: [(center: Point, velocity: Vector, size: Size)?]
  ) -> [Double] {
    var values = base + event
    values.reserveCapacity(names.entries.count)
    for index in 0..<phaseCount { values.append(Double(index)) }
    values += state
    for item in items {
      values += Array(repeating: 0, count: Self.itemFields.count)
      if let item {
        Self.write(item, into: &values, at: values.count - Self.itemFields.count)
      }
    }
    return values
  }

  /// Writes an item's values (`itemFields`, in their order) into `values` from `index`.
  static func write(
    _ item: (center: Point, velocity: Vector, size: Size), into values: inout [Double],
    at index: Int
  ) {
    let (c, v, s) = item
    values[index] = c.x
    values[index + 1] = c.y
    values[index + 2] = v.dx
    values[index + 3] = v.dy
    values[index + 4] = c.x - s.width / 2
    values[index + 5] = c.x + s.width / 2
    values[index + 6] = c.y - s.height / 2
    values[index + 7] = c.y + s.height / 2
  }

  /// Whether an item id can be written in an expression (`card.x`).
  static func isName(_ id: String) -> Bool {
    guard let first = id.utf8.first,
      (97...122).contains(first) || (65...90).contains(first) || first == 95
    else { return false }
    return id.utf8.allSatisfy {
      (97...122).contains($0) || (65...90).contains($0) || (48...57).contains($0) || $0 == 95
    }
  }
}
