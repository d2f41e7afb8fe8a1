import Primitives

/// Lets its items coast and slow down as a platform's fling does — UIScrollView's deceleration,
/// Android's `FlingAnimation`, Flutter's `FrictionSimulation` (`DecayModel`) — and stop where
/// that platform stops.
///
/// Each item's center follows `DecayMotion` evaluated at the animator's time, exactly, each
/// axis stopping at its own threshold; it starts, is held and starts afresh as a spring's items
/// do (`SpringBehavior`): with `initialVelocity` the first time if one was given, else with the
/// item's own velocity (a release's), and nothing else moves it meanwhile. A stopped item stays
/// at its resting point, the motion's projection (`restingPoint(of:)`).
public final class DecayBehavior: DynamicBehavior {
  public private(set) var model: DecayModel
  /// The velocity an item starts with the first time the decay moves it; nil: its own.
  public let initialVelocity: Vector?
  private var tracks: ExactMotionTracks<DecayMotion>

  /// Throws for a model parameter outside its range (`DecayField.range`) or a non-finite
  /// velocity.
  public init(items: [DynamicItem] = [], model: DecayModel, initialVelocity: Vector? = nil)
    throws
  {
    try Self.validate(model)
    guard initialVelocity?.isFinite ?? true else {
      throw DynamicsError(.nonFinite, "decay initial velocity \(initialVelocity!) is not finite")
    }
    self.model = model
    self.initialVelocity = initialVelocity
    tracks = ExactMotionTracks(items)
    super.init()
  }

  public var items: [DynamicItem] { tracks.items }

  public func addItem(_ item: DynamicItem) {
    if tracks.add(item) { structureDidChange(rebuild: false) }
  }

  public func removeItem(_ item: DynamicItem) {
    if tracks.remove(item) { structureDidChange(rebuild: false) }
  }

  /// Changes the model: every item starts afresh from its position and velocity at the next
  /// internal step. Throws as `init`; nothing changes then.
  public func setModel(_ model: DecayModel) throws {
    try Self.validate(model)
    self.model = model
    tracks.restartAll()
    parameterDidChange()
  }

  /// The motion `item` follows now; nil before the decay first moves it or while a finger
  /// holds it.
  public func motion(of item: DynamicItem) -> DecayMotion? { tracks.motion(of: item) }

  /// Where `item` comes to rest (the handoff's projection): its motion's resting point, or,
  /// before its motion starts, where the motion starting from its state now would rest. Nil
  /// for an item that is not the decay's.
  public func restingPoint(of item: DynamicItem) -> Point? {
    guard tracks.items.contains(where: { $0 === item }) else { return nil }
    if let motion = motion(of: item) { return motion.restingPoint }
    let velocity = tracks.hasStarted(item) ? item.velocity : (initialVelocity ?? item.velocity)
    return DecayMotion(model, from: item.center, velocity: velocity).restingPoint
  }

  /// Whether `item` has stopped.
  public func isAtRest(_ item: DynamicItem) -> Bool { tracks.hasEnded(item) }

  override var behaviorItems: [DynamicItem] { tracks.items }
  override var movesItemsExactly: Bool { true }

  override public func willMove(to animator: DynamicAnimator?) { tracks.reset() }

  override func overrideVelocities(_ animator: DynamicAnimator) {
    tracks.drive(animator, owner: self) { position, velocity, isFirst in
      let start = isFirst ? (initialVelocity ?? velocity) : velocity
      return DecayMotion(model, from: position, velocity: start)
    }
  }

  private static func validate(_ model: DecayModel) throws {
    let (field, value) = model.parameter
    guard field.range.contains(value) else {
      throw DynamicsError(
        .outOfRange, "decay \(field.rawValue) \(value) is outside \(field.range)")
    }
  }
}
