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
public final class DecayBehavior: ExactMotionBehavior<DecayMotion> {
  public private(set) var model: DecayModel

  /// Throws for a model parameter outside its range (`DecayField.range`) or a non-finite
  /// velocity.
  public init(items: [DynamicItem] = [], model: DecayModel, initialVelocity: Vector? = nil)
    throws
  {
    try Self.validate(model)
    self.model = model
    try super.init(items: items, initialVelocity: initialVelocity, kind: "decay")
  }

  /// Changes the model: every item starts afresh from its position and velocity at the next
  /// internal step. Throws as `init`; nothing changes then.
  public func setModel(_ model: DecayModel) throws {
    try Self.validate(model)
    self.model = model
    restartAll()
  }

  /// Where `item` comes to rest (the handoff's projection): its motion's resting point, or,
  /// before its motion starts, where the motion starting from its state now would rest; held
  /// within the edges of the coordinate space, where the motion stops (`ExactMotionLimits`).
  /// Nil for an item that is not the decay's.
  public func restingPoint(of item: DynamicItem) -> Point? {
    guard items.contains(where: { $0 === item }) else { return nil }
    let motion = motion(of: item) ?? start(item.center, item.velocity, !hasStarted(item))
    return ExactMotionLimits.withinEdges(motion.restingPoint, from: motion.start)
  }

  override func motion(from position: Point, velocity: Vector) -> DecayMotion {
    DecayMotion(model, from: position, velocity: velocity)
  }

  private static func validate(_ model: DecayModel) throws {
    let (field, value) = model.parameter
    guard field.range.contains(value) else {
      throw DynamicsError(
        .outOfRange, "decay \(field.rawValue) \(value) is outside \(field.range)")
    }
  }
}
