import Dynamics
import Expressions
import JSON
import Primitives
import SceneBuilding
import Transitions
import Wire

/// A transition made from a document (`TransitionDocument`): its scene laid out in the
/// session's bounds for the parameters it was opened with, driven by a scene's pan (the finger
/// grips the topmost item under it, of the pan's items when the document names them, or the
/// first of them when the pan's condition holds; along its axis when it locks one; the release
/// hands the velocity over exactly: `ScenePan`). A release, a cancel, a tap and a swipe each
/// apply the first of their rules that holds; after one, the rules of `done` are checked at
/// the end of every frame, and the first with an outcome that holds ends the cycle with a
/// `done`. It keeps the document it was opened with, whatever is defined later under its name.
public final class DocumentTransition: ScenePan {
  public let document: TransitionDocument
  /// The parameters', the bounds' and the choices' values.
  private let base: [Double]
  /// The values of every name the rules may use, in slot order (`RuntimeNames.values`): the
  /// base, the last event's (`release.x` …), the phases', the phase and the state, the items'
  /// (brought up to date by `refreshItems`). One array, written in place: a frame's rules
  /// allocate nothing.
  private var scratch: [Double]
  /// The values a `let` assigns, and the springs a release's effects add, each written in
  /// place (room made for them when the session opens).
  private var assigned: [Double?] = []
  private var addedSprings: [SpringBehavior] = []
  /// What this session read from each effect that adds a behavior and whose expressions read
  /// only the base (by `BehaviorEffect.index`): the same for all of the session.
  private var keptSpecs: [BehaviorEffect<BehaviorSpec>.Entry?]
  /// Each effect that sets a behavior's fields from the base alone
  /// (`DocumentRules.baseUpdates`), read and its names resolved once a session (by
  /// `BehaviorEffect.index`): what every use applies, as a Swift transition keeps what it made
  /// at its start. The first `updatesReadAtOpen` of them when the session opens, any others at
  /// their first use.
  private var resolvedUpdates: [ResolvedUpdate]
  private enum ResolvedUpdate {
    /// Not read yet (or not of the base alone).
    case unread
    case resolved(BehaviorEffect<BehaviorUpdate>.Entry, BehaviorFactory.ResolvedNames)
    /// Out of range for this session's values, or naming what its scene does not have: every
    /// use is skipped.
    case unresolvable
  }
  /// How many of a document's `baseUpdates` a session reads when it opens: a bound on an
  /// `open`'s work on the loop (a reading the document's sessions have not made yet reads the
  /// effect's JSON) for a document with thousands of actions' `set`s.
  public static let updatesReadAtOpen = 128
  private let eventOffset: Int
  private let stateOffset: Int
  private let itemsOffset: Int
  private let band: (range: ClosedRange<Double>, dimension: Double)?
  private let dragScale: Double?
  /// The behaviors effects and rules name, at their slots (`DocumentRules.behaviorIDs`).
  private var behaviors: [DynamicBehavior?]
  private let lookup: (String) -> DynamicItem?
  private let factory: BehaviorFactory
  private let carrier: (DynamicItem) -> DynamicItemBehavior
  private var named: [DynamicItem?] = []
  /// The first of the pan's items, which it grips when its condition holds (looked up once).
  private var panFirst: DynamicItem?
  private let given: GivenMotions
  /// The motion the parameters give, as numbers: what a behavior added `from_parameters` is
  /// read for besides its expressions' values (`BehaviorEffect.known`).
  private let givenKey: [Double]
  /// The release's projection's decay, evaluated once a session.
  private let projectionModel: DecayModel
  /// Whether a values rule reads an item's values.
  private let valuesReadItems: Bool
  private var awaitingDone = false
  /// What the rule applied at the last release said of its handoff: the spring it handed the
  /// released item to, and the rule's own word (a projection, a detent).
  private var releasedTo: SpringBehavior?
  private var releaseHandoff: DocumentRules.Handoff?
  /// Where the gripped item's center was along the pan's axis when the pan began, unbanded,
  /// and where the rubber band showed it then (the same for all of the pan).
  private var bandStart: (unbanded: Double, shown: Double)?

  override public var openedName: String { document.name }
  override public var motionInForce: MotionInForce? {
    given.spring == nil && given.decay == nil
      ? nil : MotionInForce(spring: given.spring, decay: given.decay)
  }
  override public var declaredParameters: [TransitionParameter] { document.parameters }

  /// Builds `spec`, `document`'s scene laid out for a session (`TransitionDocument.scene`) at
  /// `values` (the parameters') in `bounds`.
  public init(
    _ document: TransitionDocument, scene spec: SceneSpec, values: ParameterValues, bounds: Rect
  ) throws(ProtocolError) {
    do throws(TransitionError) {
      given = try GivenMotions(given: values.given, uses: document.rules.givenMotions) {
        values.number($0)
      }
    } catch {
      throw ProtocolError(
        error.kind == .outOfRange ? .outOfRange : .conflictingFields, error.message)
    }
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
    // For each item, whether a pan may grip it and what it grips then (its group, if any).
    let grippable = document.rules.pan.items.map { Set($0) }
    let mayGrip = items.map { item in grippable.map { $0.contains(item.identifier) } != false }
    let grips = items.map { groupOf[ObjectIdentifier($0)] ?? $0 }
    var carriers: [ObjectIdentifier: DynamicItemBehavior] = [:]
    let carrier = { (item: DynamicItem) -> DynamicItemBehavior in
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
    }
    self.document = document
    self.carrier = carrier
    base = document.names.values(
      DocumentNames.numbers(values, document.parameters), in: bounds)
    let base = self.base
    let held = RuntimeNames.stateRange
    let state =
      [0]
      + document.rules.state.map {
        min(max((try? $0.initial.number(base)) ?? 0, held.lowerBound), held.upperBound)
      }
    eventOffset = base.count
    band = Self.band(document, base)
    dragScale = document.rules.pan.dragScale.flatMap { try? $0.number(base) }
    stateOffset = base.count + RuntimeNames.event.count + document.rules.phases.count
    itemsOffset = stateOffset + state.count
    scratch = document.runtime.values(
      base: base, event: Array(repeating: 0, count: RuntimeNames.event.count), state: state,
      items: document.runtime.items.map { _ in nil })
    behaviors = document.rules.behaviorIDs.map { built.behaviorsByID[$0] }
    lookup = { byID[$0] }
    factory = BehaviorFactory(lookup: lookup)
    projectionModel = Self.projectionModel(document, base)
    let firstItemSlot = itemsOffset
    valuesReadItems = document.rules.values.contains {
      ($0.value.highestSlot ?? -1) >= firstItemSlot
    }
    keptSpecs = Array(repeating: nil, count: document.rules.behaviorEffects)
    resolvedUpdates = Self.resolvedUpdates(document, base: scratch, factory: factory)
    assigned.reserveCapacity(document.runtime.stateNames.count)
    addedSprings.reserveCapacity(DocumentLimits.maxEffects)
    givenKey = Self.key(given)
    super.init(
      animator: animator, items: items,
      hitTest: { point in
        items.indices.last { mayGrip[$0] && ScenePan.holds(items[$0], point) }.map { grips[$0] }
      },
      carrier: carrier)
    named = document.runtime.items.map { byID[$0] }
    panFirst = document.rules.pan.items?.first.flatMap { byID[$0] }
  }

  /// Not opened by a class name: a document transition is made from its document.
  public required init(parameters: ParameterValues, bounds: Rect) throws {
    throw TransitionError(
      kind: .unknownParameter, message: "a document transition is made from its document")
  }

  // MARK: The pan

  /// With a condition, the pan grips the first of its items whenever it holds.
  override public func item(grippedAt point: Point) -> DynamicItem? {
    guard let condition = document.rules.pan.when else { return super.item(grippedAt: point) }
    setEvent(4, point.x, point.y)
    if readsItems(condition) { refreshItems() }
    guard holds(condition) else { return nil }
    return panFirst
  }

  override public func willGrip(_ item: DynamicItem, at point: Point) {
    setEvent(4, point.x, point.y)
    apply(document.rules.pan.began)
    bandStart = nil
    if let band, let axis = document.rules.pan.axis {
      let along = axis == .x ? item.center.x : item.center.y
      let unbanded = RubberBand.unclamp(along, from: band.range, dimension: band.dimension)
      bandStart = (
        unbanded, RubberBand.clamp(unbanded, to: band.range, dimension: band.dimension)
      )
    }
  }

  /// A pan locked to an axis grips the item on its center line along the axis, through the
  /// touch (so the grip pulls only along the axis: a seed's drawer holds its menu by the middle).
  override public func gripPoint(of item: DynamicItem, touchedAt point: Point) -> Point {
    switch document.rules.pan.axis {
    case .x?: Point(x: point.x, y: item.center.y)
    case .y?: Point(x: item.center.x, y: point.y)
    case nil: point
    }
  }

  /// The pan's spring grip, if it has one, else the rigid 1:1 grip.
  override public func attach(_ item: DynamicItem, at point: Point) -> AttachmentBehavior {
    guard let (f, d) = document.rules.pan.spring,
      let frequency = try? f.number(base), let damping = try? d.number(base)
    else { return super.attach(item, at: point) }
    return grabBySpring(item, at: point, frequency: frequency, damping: damping)
  }

  /// The finger's point (its travel times the drag scale) along the pan's axis (across it, the
  /// grip stays where it took hold) and, past the rubber band's limits of the item's center,
  /// shown by the rubber band.
  override public func anchor(for touch: Point) -> Point {
    var point = touch
    if let start = startPoint, let k = dragScale {
      point = start + (touch - start) * k
    }
    // The axis first: a pan without one needs neither the start nor the grip's anchor.
    guard let axis = document.rules.pan.axis, let start = startPoint, let held = heldAnchor
    else { return point }
    var along = axis == .x ? point.x : point.y
    if let band, let (unbanded, shownAtStart) = bandStart {
      let s0 = axis == .x ? start.x : start.y
      let shown = RubberBand.clamp(
        unbanded + (along - s0), to: band.range, dimension: band.dimension)
      along = s0 + (shown - shownAtStart)
    }
    return axis == .x ? Point(x: along, y: held.y) : Point(x: held.x, y: along)
  }

  /// The rubber band's limits and dimension, expressions of the parameters and the bounds:
  /// evaluated once a session.
  private static func band(_ document: TransitionDocument, _ base: [Double]) -> (
    range: ClosedRange<Double>, dimension: Double
  )? {
    guard let band = document.rules.pan.rubberBand else { return nil }
    let from = (try? band.from.number(base)) ?? 0
    let to = (try? band.to.number(base)) ?? 0
    let dimension = (try? band.dimension.number(base)) ?? 1
    return (min(from, to)...max(from, to), max(dimension, 1))
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    let start = startPoint ?? point
    let held = heldItem
    let events = super.panEnded(at: point, velocity: velocity)
    guard let item = held else { return events }
    // Where the decay brings the item to rest (`DecayMotion.restingPoint`).
    let projection = Point(
      x: item.center.x + projectionModel.restingDisplacement(initialVelocity: item.velocity.dx),
      y: item.center.y + projectionModel.restingDisplacement(initialVelocity: item.velocity.dy))
    setEvent(0, point.x, point.y)
    setEvent(2, velocity.dx, velocity.dy)
    setEvent(4, start.x, start.y)
    setEvent(6, projection.x, projection.y)
    releasedTo = nil
    releaseHandoff = nil
    if let rule = firstHolding(document.rules.release) {
      releasedTo = apply(rule.then, springHolding: item)
      releaseHandoff = rule.handoff
    }
    awaitingDone = true
    return events
  }

  override public func panCancelled() {
    guard let item = heldItem else { return }
    let start = startPoint ?? item.center
    let anchor = heldAnchor ?? item.center
    super.panCancelled()
    setEvent(0, anchor.x, anchor.y)
    setEvent(2, 0, 0)
    setEvent(4, start.x, start.y)
    setEvent(6, item.center.x, item.center.y)
    if let rule = firstHolding(document.rules.cancel) { apply(rule.then) }
    awaitingDone = true
  }

  /// The release's projection's decay: the document's (an expression of the parameters and
  /// the bounds: evaluated once a session), else UIScrollView's normal rate.
  private static func projectionModel(_ document: TransitionDocument, _ base: [Double])
    -> DecayModel
  {
    if let (field, value) = document.rules.projection,
      let number = try? value.number(base), let model = try? field.model(number)
    {
      return model
    }
    return .scrollView(decelerationRate: DecayModel.normalDecelerationRate)
  }

  /// The spring a release rule gave the released item, and the rule's own word: the `handoff`
  /// names them (a projection of its own, else the spring's target; a detent), which
  /// `dynctl handoff` checks every frame against. A decay needs nothing: the handoff names the
  /// decay that moves the item by itself.
  override public func landing(after handoff: Handoff) -> Landing? {
    guard releasedTo != nil || releaseHandoff != nil else { return nil }
    if let (x, y) = releaseHandoff?.projection, readsItems(x) || readsItems(y) { refreshItems() }
    let projected = Point(x: scratch[eventOffset + 6], y: scratch[eventOffset + 7])
    var projection = releasedTo?.target ?? projected
    if let said = releaseHandoff {
      projection = projected
      if let (x, y) = said.projection, let px = x.number(scratch), let py = y.number(scratch) {
        projection = Point(x: px, y: py)
      }
    }
    return Landing(
      projection: projection, detent: releaseHandoff?.detent, spring: releasedTo?.parameters)
  }

  // MARK: Taps, swipes and frames

  override public func tap(at point: Point) -> Bool {
    setEvent(8, point.x, point.y)
    guard let rule = firstHolding(document.rules.tap) else { return false }
    apply(rule.then)
    awaitingDone = true
    return true
  }

  override public func swipe(_ direction: SwipeDirection, at point: Point?, velocity: Vector?)
    -> Bool
  {
    let (dx, dy): (Double, Double) =
      switch direction {
      case .left: (-1, 0)
      case .right: (1, 0)
      case .up: (0, -1)
      case .down: (0, 1)
      }
    setEvent(10, dx, dy)
    guard let rule = firstHolding(document.rules.swipe) else { return false }
    apply(rule.then)
    awaitingDone = true
    return true
  }

  override public func afterStep() -> [TransitionEvent] {
    guard awaitingDone else { return [] }
    // The items' values are brought up to date before the first condition that is evaluated,
    // and again after effects.
    var current = false
    for rule in document.rules.done {
      // Cheapest first (each is a question without side effects): at rest, the condition,
      // the end of a motion.
      guard !rule.atRest || !animator.isRunning else { continue }
      if !current {
        refreshItems()
        current = true
      }
      guard holds(rule.when), ended(rule.ended) else { continue }
      apply(rule.then)
      current = false
      guard let outcome = rule.outcome else { continue }
      awaitingDone = false
      return [.done(outcome: outcome)]
    }
    return []
  }

  /// The values rules' values, by name (the reader keeps them sorted so).
  override public var values: [(name: String, value: Double)] {
    guard !document.rules.values.isEmpty else { return [] }
    if valuesReadItems { refreshItems() }
    return document.rules.values.compactMap { rule in
      rule.value.number(scratch).map { (rule.name, $0) }
    }
  }

  // MARK: Rules and effects

  /// Whether the spring or decay at `slot` (if any) has brought every item it holds to rest.
  private func ended(_ slot: Int?) -> Bool {
    guard let slot else { return true }
    switch behaviors[slot] {
    case let spring as SpringBehavior: return spring.allItemsAtRest
    case let decay as DecayBehavior: return decay.allItemsAtRest
    default: return false
    }
  }

  /// Writes the event's values `x`, `y` from its value `from` (`RuntimeNames.event`).
  private func setEvent(_ from: Int, _ x: Double, _ y: Double) {
    scratch[eventOffset + from] = x
    scratch[eventOffset + from + 1] = y
  }

  /// Brings the items' values in `scratch` up to date: then it holds the values of every name
  /// the rules may use, now.
  private func refreshItems() {
    var at = itemsOffset
    for item in named {
      if let item {
        RuntimeNames.write((item.center, item.velocity, item.size), into: &scratch, at: at)
      }
      at += RuntimeNames.itemFields.count
    }
  }

  /// Brings the items' values up to date if `effect`'s expressions read them.
  private func refreshItems<Read>(for effect: BehaviorEffect<Read>) {
    if (effect.highestSlot ?? -1) >= itemsOffset { refreshItems() }
  }

  /// Whether `expression` reads an item's values (its slots come after the state's).
  private func readsItems(_ expression: FlatExpression?) -> Bool {
    (expression?.highestSlot ?? -1) >= itemsOffset
  }

  private func firstHolding(_ rules: [DocumentRules.Rule]) -> DocumentRules.Rule? {
    if rules.contains(where: { readsItems($0.when) }) { refreshItems() }
    return rules.first { holds($0.when) }
  }

  /// The fields `effect` sets on a `type` behavior of `document` for `values` (`reading`).
  private static func reading(
    _ effect: BehaviorEffect<BehaviorUpdate>, for type: BehaviorType, _ values: [Double],
    _ document: TransitionDocument
  ) -> BehaviorEffect<BehaviorUpdate>.Entry? {
    reading(effect, values) {
      try? TransitionDocument.update(
        effect.json, for: type, at: effect.pointer, expressions: document.ruleExpressions,
        values: values)
    }
  }

  /// What `effect` reads for `values` and the numbers `also` (what else the reading depends
  /// on): what the document's sessions last read for the same numbers (`BehaviorEffect`), else
  /// `read()`.
  private static func reading<Read>(
    _ effect: BehaviorEffect<Read>, _ values: [Double], also: [Double] = [], read: () -> Read?
  ) -> BehaviorEffect<Read>.Entry? {
    if let known = effect.known(values, also: also) { return known }
    var key: [Double] = []
    guard effect.key(values, into: &key), let read = read() else { return nil }
    return effect.keep(read, for: key + also)
  }

  /// The first `updatesReadAtOpen` of `document.rules.baseUpdates` resolved for `base` (the
  /// base's values first), at their effects' indexes.
  private static func resolvedUpdates(
    _ document: TransitionDocument, base: [Double], factory: BehaviorFactory
  ) -> [ResolvedUpdate] {
    var resolved = Array(repeating: ResolvedUpdate.unread, count: document.rules.behaviorEffects)
    for (effect, type) in document.rules.baseUpdates.prefix(updatesReadAtOpen) {
      resolved[effect.index] = resolve(effect, for: type, base, document, factory)
    }
    return resolved
  }

  /// `effect`, an update of the base alone, read for `base` and its names resolved.
  private static func resolve(
    _ effect: BehaviorEffect<BehaviorUpdate>, for type: BehaviorType, _ base: [Double],
    _ document: TransitionDocument, _ factory: BehaviorFactory
  ) -> ResolvedUpdate {
    guard let update = reading(effect, for: type, base, document),
      let names = try? update.with({ (u) throws(ProtocolError) in try factory.resolve(u) })
    else { return .unresolvable }
    return .resolved(update, names)
  }

  /// The motion `given` gives, as the numbers `spec` keys a behavior from the parameters by.
  private static func key(_ given: GivenMotions) -> [Double] {
    var key: [Double] = []
    if let p = given.spring?.parameters { key += [p.mass, p.stiffness, p.damping] }
    if let d = given.decay {
      key += [
        Double(DecayField.allCases.firstIndex(of: d.parameter.field) ?? 0), d.parameter.value,
      ]
    }
    return key
  }

  /// What was read of the behavior `effect` adds for the values in `scratch` (a motion from the
  /// parameters is keyed by the motion too): what this session kept of an effect of the base's
  /// values, else `reading`.
  private func spec(_ effect: BehaviorEffect<BehaviorSpec>, fromParameters: Bool)
    -> BehaviorEffect<BehaviorSpec>.Entry?
  {
    if let kept = keptSpecs[effect.index] { return kept }
    refreshItems(for: effect)
    let entry = Self.reading(effect, scratch, also: fromParameters ? givenKey : []) {
      try? TransitionDocument.behaviorSpec(
        effect.json, at: effect.pointer, expressions: document.ruleExpressions, values: scratch,
        given: given)
    }
    if effect.readsOnlyBase { keptSpecs[effect.index] = entry }
    return entry
  }

  /// Sets the fields `effect` sets on `behavior`, a `type` behavior, for the values in
  /// `scratch`: as resolved once a session, for an effect of the base's values.
  private func set(
    _ effect: BehaviorEffect<BehaviorUpdate>, for type: BehaviorType, on behavior: DynamicBehavior
  ) {
    if effect.readsOnlyBase {
      if case .unread = resolvedUpdates[effect.index] {
        resolvedUpdates[effect.index] = Self.resolve(effect, for: type, scratch, document, factory)
      }
      if case .resolved(let update, let names) = resolvedUpdates[effect.index] {
        try? update.with { (u) throws(ProtocolError) in
          try factory.apply(u, resolved: names, to: behavior)
        }
      }
      return
    }
    refreshItems(for: effect)
    let update = Self.reading(effect, for: type, scratch, document)
    try? update?.with { (u) throws(ProtocolError) in try factory.apply(u, to: behavior) }
  }

  /// Whether `condition` holds for the values in `scratch` (no condition always does; one that
  /// cannot be evaluated does not).
  private func holds(_ condition: FlatExpression?) -> Bool {
    guard let condition else { return true }
    return condition.condition(scratch) ?? false
  }

  /// Applies `effects` in order, each seeing the values the ones before it left. A behavior
  /// whose numbers fall outside the protocol's ranges for these values is not added or set
  /// (the document's check proved its expressions finite, not every value in range). Returns
  /// the last spring added that holds `item` once all are applied, if any.
  @discardableResult
  private func apply(_ effects: [DocumentRules.Effect], springHolding item: DynamicItem? = nil)
    -> SpringBehavior?
  {
    for effect in effects {
      // The items' values are brought up to date where an effect reads them.
      switch effect {
      case .addBehavior(let effect, let slot, let fromParameters):
        guard let spec = spec(effect, fromParameters: fromParameters),
          let behavior = try? spec.with({ (read) throws(ProtocolError) in try factory.make(read) })
        else { continue }
        if let slot {
          if let old = behaviors[slot] { animator.removeBehavior(old) }
          behaviors[slot] = behavior
        }
        animator.addBehavior(behavior)
        if item != nil, let spring = behavior as? SpringBehavior { addedSprings.append(spring) }
      case .removeBehavior(let slot):
        if let old = behaviors[slot] {
          animator.removeBehavior(old)
          behaviors[slot] = nil
        }
      case .setBehavior(let slot, let type, let effect):
        if let behavior = behaviors[slot] { set(effect, for: type, on: behavior) }
      case .addVelocity(let id, let dx, let dy):
        if readsItems(dx) || readsItems(dy) { refreshItems() }
        guard let item = lookup(id), let vx = dx.number(scratch), let vy = dy.number(scratch)
        else { continue }
        carrier(item).addLinearVelocity(Vector(dx: vx, dy: vy), for: item)
      case .assign(let assignments):
        // Each value of the values before the `let`: all evaluated, then written.
        if assignments.contains(where: { readsItems($0.value) }) { refreshItems() }
        // Written over the last `let`'s values: emptying the array first costs more than this.
        for (at, (_, value)) in assignments.enumerated() {
          let number = value.number(scratch)
          if at < assigned.count { assigned[at] = number } else { assigned.append(number) }
        }
        for ((index, _), number) in zip(assignments, assigned) {
          guard let number else { continue }
          let range =
            index == 0
            ? 0...Double(max(document.rules.phases.count - 1, 0)) : RuntimeNames.stateRange
          // A phase is one of the phases: the nearest.
          let value = index == 0 ? number.rounded() : number
          scratch[stateOffset + index] = min(max(value, range.lowerBound), range.upperBound)
        }
      }
    }
    let spring = item.flatMap { item in addedSprings.last { $0.holds(item) } }
    // Emptying an empty array is not free (`replaceSubrange`).
    if !addedSprings.isEmpty { addedSprings.removeAll(keepingCapacity: true) }
    return spring
  }
}
