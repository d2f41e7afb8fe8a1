/// A release: the finger's velocity, the velocity the item moves with, and why they differ. A
/// transition makes it when the finger lifts; the session names itself in it and sends it as the
/// `handoff` event, which clients decode into the same type.
public struct Handoff: Equatable, Sendable {
  /// The session; empty until the session fills it in (a transition does not know its name).
  public var session: String
  /// The dragged item.
  public var item: String
  /// The finger's release velocity as given or estimated, never projected.
  public var gestureVelocity: Vector
  /// The item's velocity right after the release, as the engine holds it.
  public var itemVelocity: Vector
  /// What changed the finger's velocity on its way to the item (a rail, the speed limit); empty
  /// when nothing did.
  public var constraints: [MotionConstraint]
  /// |item velocity − the finger's velocity after the constraints|, pt/s, before any rounding:
  /// what the engine's 32-bit storage of the velocity loses.
  public var velocityError: Double
  /// How the finger's velocity was estimated from the pan's samples; nil when the client gave
  /// it (or, decoded, when the reason is one this build does not know).
  public var estimate: ReleaseEstimate?
  /// Where the released item comes to rest: a decay's resting point when a decay receives the
  /// release, or a sheet's projection of it; nil otherwise.
  public var projection: Point?
  /// The decay that receives the release (its platform's model and parameter), whose resting
  /// point is the `projection`; nil when no decay does.
  public var decay: DecayModel?
  /// The detent a sheet chose for the release; nil for other transitions.
  public var detent: String?
  /// The spring that carries a sheet to its detent; nil for other transitions.
  public var spring: SpringParameters?

  public init(
    session: String = "", item: String, gestureVelocity: Vector, itemVelocity: Vector,
    constraints: [MotionConstraint] = [], velocityError: Double = 0,
    estimate: ReleaseEstimate? = nil, projection: Point? = nil, decay: DecayModel? = nil,
    detent: String? = nil, spring: SpringParameters? = nil
  ) {
    self.session = session
    self.item = item
    self.gestureVelocity = gestureVelocity
    self.itemVelocity = itemVelocity
    self.constraints = constraints
    self.velocityError = velocityError
    self.estimate = estimate
    self.projection = projection
    self.decay = decay
    self.detent = detent
    self.spring = spring
  }
}
