import Primitives

/// What a spring and a decay share: items that follow a closed-form `Motion` exactly
/// (`ExactMotionTracks`), started the first time with `initialVelocity` if one was given, else
/// with the item's own velocity (a release's), and afresh whenever the subclass's constants
/// change (`restartAll`). A subclass says how a motion starts (`motion(from:velocity:)`).
public class ExactMotionBehavior<Motion: ExactMotion>: DynamicBehavior {
  /// The velocity an item starts with the first time the behavior moves it; nil: its own.
  public let initialVelocity: Vector?
  private var tracks: ExactMotionTracks<Motion>

  init(items: [DynamicItem], initialVelocity: Vector?, kind: String) throws {
    guard initialVelocity?.isFinite ?? true else {
      throw DynamicsError(.nonFinite, "\(kind) initial velocity \(initialVelocity!) is not finite")
    }
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

  /// The motion `item` follows now; nil before the behavior first moves it, while a finger
  /// holds it, or when it is not one of the behavior's items.
  public func motion(of item: DynamicItem) -> Motion? { tracks.motion(of: item) }

  /// Whether `item`'s motion has ended (it rests at the motion's end point).
  public func isAtRest(_ item: DynamicItem) -> Bool { tracks.hasEnded(item) }

  /// Whether every item's motion has ended (`isAtRest` of each; true when it holds none),
  /// without listing the items.
  public var allItemsAtRest: Bool { tracks.allEnded }

  /// Whether `item` is one of its items, without listing them.
  public func holds(_ item: DynamicItem) -> Bool { tracks.contains(item) }

  /// Whether the behavior has started `item`'s motion before (its first start is over).
  func hasStarted(_ item: DynamicItem) -> Bool { tracks.hasStarted(item) }

  /// The motion of an item starting at `position` with `velocity`: the subclass's.
  func motion(from position: Point, velocity: Vector) -> Motion {
    fatalError("\(type(of: self)) does not say how its motion starts")
  }

  /// Every item starts afresh from its state at the next internal step (new constants).
  func restartAll() {
    tracks.restartAll()
    parameterDidChange()
  }

  override var behaviorItems: [DynamicItem] { tracks.items }
  override var movesItemsExactly: Bool { true }

  override public func willMove(to animator: DynamicAnimator?) { tracks.reset() }

  // Specialized for each motion (see `ExactMotionTracks.drive`).
  @_specialize(where Motion == SpringMotion)
  @_specialize(where Motion == DecayMotion)
  override func overrideVelocities(_ animator: DynamicAnimator) {
    tracks.drive(animator, owner: self, start: start)
  }

  @_specialize(where Motion == SpringMotion)
  @_specialize(where Motion == DecayMotion)
  override func showFrameState(_ animator: DynamicAnimator, lead: Double) {
    tracks.show(animator, owner: self, lead: lead, start: start)
  }

  /// How an item's motion starts from `position` and `velocity` (`isFirst`: the behavior's first
  /// start of it, which takes `initialVelocity` if one was given), at most at the speed limit.
  func start(_ position: Point, _ velocity: Vector, _ isFirst: Bool) -> Motion {
    let given = isFirst ? (initialVelocity ?? velocity) : velocity
    return motion(from: position, velocity: ExactMotionLimits.startingVelocity(given))
  }
}
