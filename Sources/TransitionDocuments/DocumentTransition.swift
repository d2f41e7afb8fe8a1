import Dynamics
import Expressions
import Primitives
import SceneBuilding
import Transitions
import Wire

/// A transition made from a document (`TransitionDocument`): its scene laid out in the
/// session's bounds for the parameters it was opened with, driven by a scene's pan (the finger
/// grips the topmost item under it, of the pan's items when the document names them, along its
/// axis when it locks one; the release hands the velocity over exactly: `ScenePan`). At the
/// release the first `release` rule that holds adds and removes behaviors (a spring or a decay
/// added then starts from the velocity handed over); after it, the first `done` rule that holds
/// at the end of a frame ends the cycle with its outcome. It keeps the document it was opened
/// with, whatever is defined later under its name.
public final class DocumentTransition: ScenePan {
  public let document: TransitionDocument
  /// The parameters' and the bounds' values, then room for the release's and the items'.
  private let base: [Double]
  private var behaviors: [String: DynamicBehavior]
  private let lookup: (String) -> DynamicItem?
  private var named: [DynamicItem] = []
  /// The release's values (`release.x` …), kept for the done rules and the values.
  private var release = Array(repeating: 0.0, count: RuntimeNames.release.count)
  private var awaitingDone = false
  /// The spring a release rule handed the released item to, for the `handoff`.
  private var releasedTo: SpringBehavior?

  override public var openedName: String { document.name }
  override public var declaredParameters: [TransitionParameter] { document.parameters }

  /// Builds `spec`, `document`'s scene laid out for a session (`TransitionDocument.scene`) at
  /// `values` (the parameters') in `bounds`.
  public init(
    _ document: TransitionDocument, scene spec: SceneSpec, values: ParameterValues, bounds: Rect
  ) throws(ProtocolError) {
    let built = try SceneBuilder.build(spec)
    var groupOf: [ObjectIdentifier: DynamicItem] = [:]
    var byID: [String: DynamicItem] = [:]
    for item in built.items { byID[item.identifier] = item }
    for group in built.groups {
      byID[group.identifier] = group
      for member in group.groupMembers { groupOf[ObjectIdentifier(member)] = group }
    }
    let items = built.items
    let animator = built.animator
    let grippable = document.rules.panItems.map { Set($0) }
    var carriers: [ObjectIdentifier: DynamicItemBehavior] = [:]
    self.document = document
    base = document.names.values(
      document.parameters.map { values.number($0.name) ?? 0 }, in: bounds)
    behaviors = built.behaviorsByID
    lookup = { byID[$0] }
    super.init(
      animator: animator, items: items,
      hitTest: { point in
        items.last { item in
          ScenePan.holds(item, point) && grippable.map { $0.contains(item.identifier) } != false
        }.map { groupOf[ObjectIdentifier($0)] ?? $0 }
      },
      carrier: { item in
        // The last item behavior holding it, else one made to carry velocity to it.
        func holding(_ behaviors: [DynamicBehavior]) -> DynamicItemBehavior? {
          for behavior in behaviors.reversed() {
            if let found = holding(behavior.childBehaviors) { return found }
            if let d = behavior as? DynamicItemBehavior, d.items.contains(where: { $0 === item }) {
              return d
            }
          }
          return nil
        }
        if let held = holding(animator.behaviors) { return held }
        if let carrier = carriers[ObjectIdentifier(item)] { return carrier }
        let carrier = DynamicItemBehavior(items: [item])
        animator.addBehavior(carrier)
        carriers[ObjectIdentifier(item)] = carrier
        return carrier
      })
    named = document.runtime.items.compactMap { byID[$0] }
  }

  /// Not opened by a class name: a document transition is made from its document.
  public required init(parameters: ParameterValues, bounds: Rect) throws {
    throw TransitionError(
      kind: .unknownParameter, message: "a document transition is made from its document")
  }

  /// Where the gripped item's center was when the pan began.
  private var centerAtStart: Point?

  override public func panBegan(at point: Point) {
    super.panBegan(at: point)
    centerAtStart = heldItem?.center
  }

  /// The finger's point, locked to the pan's axis and, past the rubber band's limits of the
  /// item's center, shown by the rubber band (the grip keeps the touched point under it).
  override public func anchor(for point: Point) -> Point {
    guard let start = startPoint else { return point }
    var along = document.rules.panAxis == .x ? point.x : point.y
    if let band = document.rules.rubberBand, let center = centerAtStart {
      let values = currentValues()
      let from = (try? band.from.number(values)) ?? 0
      let to = (try? band.to.number(values)) ?? 0
      let dimension = (try? band.dimension.number(values)) ?? 1
      let (c0, s0) = document.rules.panAxis == .x ? (center.x, start.x) : (center.y, start.y)
      let banded = RubberBand.clamp(
        c0 + (along - s0), to: min(from, to)...max(from, to), dimension: max(dimension, 1))
      along = s0 + (banded - c0)
    }
    switch document.rules.panAxis {
    case .x?: return Point(x: along, y: start.y)
    case .y?: return Point(x: start.x, y: along)
    case nil: return point
    }
  }

  /// A tap: the first tap rule that holds applies its effects, and the done rules are checked
  /// again after the frames that follow.
  override public func tap(at point: Point) -> Bool {
    release.replaceSubrange(8..<10, with: [point.x, point.y])
    let values = currentValues()
    guard let rule = document.rules.tap.first(where: { holds($0.when, values) }) else {
      return false
    }
    apply(rule.then, values)
    awaitingDone = true
    return true
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    let start = startPoint ?? point
    let held = heldItem
    let events = super.panEnded(at: point, velocity: velocity)
    guard let item = held else { return events }
    let projection = DecayMotion(
      .scrollView(decelerationRate: DecayModel.normalDecelerationRate), from: item.center,
      velocity: item.velocity
    ).restingPoint
    release.replaceSubrange(
      0..<8,
      with: [
        point.x, point.y, velocity.dx, velocity.dy, start.x, start.y, projection.x, projection.y,
      ])
    let values = currentValues()
    releasedTo = nil
    if let rule = document.rules.release.first(where: { holds($0.when, values) }) {
      let added = apply(rule.then, values)
      releasedTo = added.compactMap { $0 as? SpringBehavior }.last {
        $0.items.contains { $0 === item }
      }
    }
    awaitingDone = true
    return events
  }

  /// A spring a release rule gave the released item: the `handoff` names it and its target,
  /// which `dynctl handoff` checks every frame against (a decay needs nothing: the handoff names
  /// the decay that moves the item by itself).
  override public func landing(after handoff: Handoff) -> Landing? {
    guard let spring = releasedTo else { return nil }
    return Landing(projection: spring.target, spring: spring.parameters)
  }

  override public func afterStep() -> [TransitionEvent] {
    guard awaitingDone else { return [] }
    let values = currentValues()
    for rule in document.rules.done {
      let now = (!rule.atRest || !animator.isRunning) && holds(rule.when, values)
      guard now else { continue }
      awaitingDone = false
      _ = apply(rule.then, values)
      return [.done(outcome: rule.outcome)]
    }
    return []
  }

  override public var values: [(name: String, value: Double)] {
    let values = currentValues()
    return document.rules.values.compactMap { rule in
      (try? rule.value.number(values)).map { (rule.name, $0) }
    }.sorted { $0.name < $1.name }
  }

  /// The values of every name the rules may use, now.
  private func currentValues() -> [Double] {
    var values = base + release
    for item in named {
      let (c, v, s) = (item.center, item.velocity, item.size)
      values += [
        c.x, c.y, v.dx, v.dy, c.x - s.width / 2, c.x + s.width / 2, c.y - s.height / 2,
        c.y + s.height / 2,
      ]
    }
    return values
  }

  /// Whether `condition` holds (no condition always does; one that cannot be evaluated does not).
  private func holds(_ condition: Expression?, _ values: [Double]) -> Bool {
    guard let condition else { return true }
    return (try? condition.condition(values)) ?? false
  }

  /// Adds and removes behaviors as `effects` say. A behavior whose numbers fall outside the
  /// protocol's ranges for these values is not added (the document's check proved its
  /// expressions finite, not every value in range).
  @discardableResult
  private func apply(_ effects: [DocumentRules.Effect], _ values: [Double]) -> [DynamicBehavior] {
    var added: [DynamicBehavior] = []
    for effect in effects {
      switch effect {
      case .addBehavior(let json, let at):
        guard
          let spec = try? TransitionDocument.behaviorSpec(
            json, at: at, expressions: document.ruleExpressions, values: values),
          let behavior = try? BehaviorFactory(lookup: lookup).make(spec)
        else { continue }
        if let id = spec.id {
          if let old = behaviors[id] { animator.removeBehavior(old) }
          behaviors[id] = behavior
        }
        animator.addBehavior(behavior)
        added.append(behavior)
      case .removeBehavior(let id):
        if let old = behaviors.removeValue(forKey: id) { animator.removeBehavior(old) }
      }
    }
    return added
  }
}
