/// The values the engine keeps for each behavior property it clamps, defined once.
///
/// The engine (`Dynamics`) clamps a finite value set through its Swift API into these ranges. The
/// protocol (`Wire`'s `Limits`) derives its ranges from them (`NumberRange(PropertyRanges.x)`),
/// or, where a property is documented narrower for clients, states one inside them: a value the
/// wire accepts is never changed by the engine (SessionHostTests' `RangeAgreementTests`).
public enum PropertyRanges {
  // MARK: Motion

  /// Each component of a linear velocity, pt/s: what the protocol carries (a gesture's `vx`/`vy`,
  /// `add_velocity`, a spring's or decay's initial velocity) and the fastest a release velocity
  /// the tracker estimates may be (samples a nanosecond apart would otherwise estimate 10⁹ pt/s
  /// and more). A finger is far below 1e5 pt/s.
  public static let velocity = -1e6...1e6
  /// Each coordinate of an item's center and of every point, pt: beyond a million points Box2D
  /// (single precision, 100 pt per metre) loses sub-point resolution. `DynamicItem.
  /// maximumCoordinate` and the protocol's `coordinate` range are this one.
  public static let coordinate = -1e6...1e6
  /// The fastest an item moves, pt/s: Box2D moves a body at most 2 m (b2_maxTranslation, 200 pt
  /// at 100 pt per metre) per 1/120 s internal step and scales a faster velocity down to this.
  /// `DynamicAnimator.maxSpeed` is this one; springs and decays keep to it too
  /// (`ExactMotionTracks`), and their parameter ranges are derived from it (`DecayField`).
  public static let speedLimit = 24_000.0
  /// A side of a transition's bounds, in points: from a watch's 100 to a large desktop's 10 000
  /// (`open`'s `bounds` with a `transition`).
  public static let transitionSide = 100.0...10_000.0

  // MARK: Item properties (UIDynamicItemBehavior)

  /// Elasticity. The wire documents UIKit's 0 … 1; the engine lets Swift callers add energy.
  public static let elasticity = 0.0...10.0
  /// Coulomb friction coefficient (UIKit: 0 none, 1 strong, more allowed).
  public static let friction = 0.0...1000.0
  /// Relative density. At 1e-6 a 1 × 1 pt item still weighs 1e-10 kg, a positive normal
  /// `Float` (Box2D's mass must be positive), so every accepted density has a mass.
  public static let density = 1e-6...1e6
  /// Linear and angular resistance, 1/s. UIKit documents 0 … CGFLOAT_MAX; Box2D damps by
  /// v ← v / (1 + h·c) each step, stable for any c ≥ 0, so the cap only keeps values finite
  /// and printable (at 1e6 a 120 Hz step keeps 0.012 % of the velocity).
  public static let resistance = 0.0...1e6
  /// Electric charge (field behaviors).
  public static let charge = -1e6...1e6

  // MARK: Snap (UISnapBehavior)

  /// Snap damping: 0 oscillates most, 1 least (the iOS 9+ meaning).
  public static let snapDamping = 0.0...1.0

  // MARK: Fields (UIFieldBehavior)

  /// A field's strength; negative reverses the law.
  public static let fieldStrength = -1e6...1e6
  /// A field's falloff exponent. The wire accepts 0 … 10 only (a field never grows with distance).
  public static let falloff = -10.0...10.0
  /// A field's minimum radius, in points.
  public static let minimumRadius = 0.0...1e6
  /// Each component of a field's direction.
  public static let fieldDirection = -1e6...1e6
  /// Noise and turbulence smoothness: 0 noisiest … 1 smoothest.
  public static let smoothness = 0.0...1.0
  /// Noise and turbulence animation speed, in Hz.
  public static let animationSpeed = 0.0...1000.0
}
