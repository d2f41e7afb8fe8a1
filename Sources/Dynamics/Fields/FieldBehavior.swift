import Primitives

/// Applies a field of force to its items wherever they are inside its region (UIFieldBehavior).
///
/// The field sits at `position`; `region` (centered there) is where it acts. Each internal step
/// it evaluates its law for every item inside the region from the item's center, velocity, mass
/// and charge (`DynamicItemBehavior.charge`), and applies the force at the item's centre of
/// mass. Anchored items are left alone. Units follow the rest of dynd: 100 pt = 1 m, mass =
/// density × w × h / 10 000, and a UIKit Newton (N) accelerates mass 1 at 100 pt/s².
///
/// `strength` scales every law, times the falloff factor (max(d, minimumRadius)/100 pt)^−falloff
/// at distance d from `position` (1 at 100 pt, and everywhere for the default falloff 0).
/// With s = strength × that factor, x the offset from `position` and u = x/|x|:
///
/// | kind | law | strength 1 |
/// |---|---|---|
/// | `linearGravity` | acceleration s × `direction` × 1000 pt/s² | UIGravityBehavior's |
/// | `radialGravity` | acceleration s × 1000 pt/s² toward `position` | gravity, toward a point |
/// | `drag` | acceleration −s × v (1/s) | slows like `resistance` 1 |
/// | `velocity` | sets the velocity s × `direction` (pt/s) | `direction` is the velocity |
/// | `noise` | acceleration s × n × 100 pt/s², each component of n in −1…1 | 1 N per kg |
/// | `turbulence` | acceleration s × n × \|v\| (1/s) | noise's, per 100 pt/s |
/// | `spring` | force −s × x (k = s N/m) | period 2π√m: 6.3 s for mass 1 |
/// | `electric` | force s × q × u (N) | 1 N per unit charge |
/// | `magnetic` | force s × q × v × ẑ (N per m/s), ẑ out of screen | turns at q/m rad/s |
/// | `vortex` | tangential acceleration s × d (1/s²), on circles | 1 rad/s², any distance |
/// | `custom` | the closure's force (N) | — |
///
/// Signs, as UIKit's: a positive strength repels positive charges (electric), turns positive
/// charges counter-clockwise on screen (magnetic), turns items counter-clockwise on screen
/// (vortex), and pulls toward `position` (radial gravity, spring); negative reverses each. Mass
/// is ignored by noise and turbulence (the same acceleration for every item), as by gravity.
///
/// How each law is integrated, and why, is in `FieldLaws.swift`. Every force is finite: an
/// acceleration beyond `maximumAcceleration` is cut to it, and a closure's non-finite result
/// counts as no force.
public final class FieldBehavior: DynamicBehavior {
  /// A custom field's law: the force in UIKit Newtons on an item at `position` with `velocity`
  /// (pt/s), `mass` (kg) and `charge`, over a step of `deltaTime` seconds.
  public typealias Evaluation = (
    _ field: FieldBehavior, _ position: Point, _ velocity: Vector, _ mass: Double,
    _ charge: Double, _ deltaTime: Double
  ) -> Vector

  /// Accepted strengths; finite values beyond are clamped.
  public static let strengthRange = PropertyRanges.fieldStrength
  /// Accepted falloff exponents.
  public static let falloffRange = PropertyRanges.falloff
  /// Accepted minimum radii, in points.
  public static let minimumRadiusRange = PropertyRanges.minimumRadius
  /// Accepted range of each component of `direction`.
  public static let directionRange = PropertyRanges.fieldDirection
  /// Accepted smoothness: 0 noisiest … 1 smoothest.
  public static let smoothnessRange = PropertyRanges.smoothness
  /// Accepted animation speeds, in Hz.
  public static let animationSpeedRange = PropertyRanges.animationSpeed
  /// Accepted range of each coordinate of `position`, in points.
  public static let coordinateRange = -1e7...1e7
  /// The default minimum radius (UIKit: "very small"): one point, the smallest size dynd's
  /// geometry tells apart.
  public static let defaultMinimumRadius = 1.0
  /// The distance at which the falloff factor is 1: one Box2D metre.
  public static let referenceDistance = Units.pointsPerMeter
  /// The largest acceleration a field gives an item, in pt/s². Box2D moves a body at most
  /// 200 pt per step (24 000 pt/s), which 2.9 × 10⁶ pt/s² already reaches in one step.
  public static let maximumAcceleration = 1e7
  /// The largest speed a velocity field gives, in pt/s (far beyond Box2D's 24 000 pt/s).
  public static let maximumSpeed = 1e6

  private var list: ItemList
  let evaluation: Evaluation?
  private var settings: Settings

  /// Which law the field applies.
  public let kind: FieldKind

  /// A field of `kind` with UIKit's defaults: strength 1, no falloff, the infinite region,
  /// position (0, 0); linear gravity points down (0, 1), as UIGravityBehavior; noise and
  /// turbulence are smooth (1) and animated at 1 Hz ("by default a smooth noise … time
  /// varying"); a velocity field's velocity is zero until set. `.custom` needs a closure
  /// (`init(evaluation:items:)`); given here it applies no force.
  public init(kind: FieldKind, items: [DynamicItem] = []) {
    self.kind = kind
    list = ItemList(items)
    evaluation = nil
    settings = Settings(kind: kind)
    super.init()
  }

  /// A custom field (`kind == .custom`) whose force is `evaluation`'s.
  public init(evaluation: @escaping Evaluation, items: [DynamicItem] = []) {
    kind = .custom
    list = ItemList(items)
    self.evaluation = evaluation
    settings = Settings(kind: .custom)
    super.init()
  }

  public var items: [DynamicItem] { list.items }
  public func addItem(_ item: DynamicItem) {
    if list.add(item) { structureDidChange(rebuild: false) }
  }
  public func removeItem(_ item: DynamicItem) {
    if list.remove(item) { structureDidChange(rebuild: false) }
  }

  // MARK: parameters (non-finite values are ignored, finite ones clamped into their range)

  /// The field's origin in the reference coordinate space.
  public var position: Point {
    get { settings.position }
    set {
      guard newValue.isFinite else { return }
      settings.position = Point(
        x: Self.clamp(newValue.x, Self.coordinateRange),
        y: Self.clamp(newValue.y, Self.coordinateRange))
      parameterDidChange()
    }
  }

  /// Where the field acts, centered on `position`; a region `Region.validate` refuses is ignored.
  public var region: Region {
    get { settings.region }
    set {
      guard (try? Region.validate(newValue)) != nil else { return }
      settings.region = newValue
      parameterDidChange()
    }
  }

  /// Scales the law (see the table above); negative reverses it.
  public var strength: Double {
    get { settings.strength }
    set { update(\.strength, newValue, Self.strengthRange) }
  }

  /// The falloff exponent: the law is scaled by (distance / 100 pt)^−falloff beyond
  /// `minimumRadius`; 0 (the default) is a uniform field.
  public var falloff: Double {
    get { settings.falloff }
    set { update(\.falloff, newValue, Self.falloffRange) }
  }

  /// Inside this distance (pt) the falloff factor stays at its value there.
  public var minimumRadius: Double {
    get { settings.minimumRadius }
    set { update(\.minimumRadius, newValue, Self.minimumRadiusRange) }
  }

  /// The direction of a linear gravity or velocity field (its length counts); others ignore it.
  public var direction: Vector {
    get { settings.direction }
    set {
      guard newValue.isFinite else { return }
      settings.direction = Vector(
        dx: Self.clamp(newValue.dx, Self.directionRange),
        dy: Self.clamp(newValue.dy, Self.directionRange))
      parameterDidChange()
    }
  }

  /// Noise and turbulence: 0 is as noisy as possible (10 pt features), 1 as smooth (320 pt).
  public var smoothness: Double {
    get { settings.smoothness }
    set { update(\.smoothness, newValue, Self.smoothnessRange) }
  }

  /// Noise and turbulence: how fast the noise changes, in Hz (lattice cells per second of
  /// simulated time); 0 freezes it.
  public var animationSpeed: Double {
    get { settings.animationSpeed }
    set { update(\.animationSpeed, newValue, Self.animationSpeedRange) }
  }

  /// Noise and turbulence: which noise; the same seed gives the same noise (default 0).
  public var seed: UInt64 {
    get { settings.seed }
    set {
      settings.seed = newValue
      parameterDidChange()
    }
  }

  private func update(
    _ key: WritableKeyPath<Settings, Double>, _ value: Double, _ range: ClosedRange<Double>
  ) {
    guard value.isFinite else { return }
    settings[keyPath: key] = Self.clamp(value, range)
    parameterDidChange()
  }

  private static func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
    min(max(value, range.lowerBound), range.upperBound)
  }

  // MARK: evaluation

  /// The force (UIKit Newtons) the field would apply now to an item at `point` with `velocity`
  /// (pt/s), `mass` (kg) and `charge`: zero outside the region or for non-finite input. A
  /// velocity field answers the force that would bring the item to its velocity in one step.
  public func force(at point: Point, velocity: Vector, mass: Double, charge: Double) -> Vector {
    guard point.isFinite, velocity.isFinite, mass.isFinite, charge.isFinite,
      region.contains(point - position)
    else { return .zero }
    return evaluate(
      at: point, velocity: velocity, mass: max(mass, 0), charge: charge,
      time: dynamicAnimator?.elapsedTime ?? 0)
  }

  override var behaviorItems: [DynamicItem] { list.items }

  override func prepareStep(_ animator: DynamicAnimator) {
    guard kind != .velocity else { return }
    let time = animator.elapsedTime
    for item in list.items {
      guard let body = animator.body(for: item), body.isDynamic else { continue }
      let s = body.state
      guard region.contains(s.center - position) else { continue }
      let f = evaluate(
        at: s.center, velocity: s.velocity, mass: body.mass, charge: body.properties.charge,
        time: time)
      guard f != .zero else { continue }
      animator.world.applyForce(body.handle, f, at: body.worldCenterOfMass)
    }
  }

  /// A velocity field sets the velocity of its items inside the region so that, after this
  /// step's other forces and the item's resistance, the step ends at the field's velocity
  /// (UIKit: it "overrides the effect of any other acceleration"). Set directly, as the finger's
  /// grip does, rather than as a force: it is exact, it reaches a sleeping item (a force would
  /// not wake it) and it needs no stiffness. Joints and contacts still have the last word, an
  /// item a finger holds follows the finger, and one a spring or decay moves its closed form.
  override func overrideVelocities(_ animator: DynamicAnimator) {
    guard kind == .velocity else { return }
    let h = DynamicAnimator.stepInterval
    for item in list.items {
      guard let body = animator.body(for: item), body.isDynamic, body.grips == 0,
        body.motionOwner == nil
      else { continue }
      let center = body.state.center
      guard region.contains(center - position) else { continue }
      let target = velocityTarget(at: center)
      // Box2D ends the step at (v + h·F/m) / (1 + h·resistance); solve that for v.
      let others = animator.world.appliedForce(body.handle)
      let start =
        target * (1 + h * body.properties.resistance)
        - others * (h * Units.pointsPerMeter / body.mass)
      guard start.isFinite else { continue }
      animator.setVelocity(of: body, start, angular: nil, resuming: false)
    }
  }
}

extension FieldBehavior {
  /// Every parameter of a field, with the defaults of its kind.
  struct Settings {
    var position = Point.zero
    var region = Region.infinite
    var strength = 1.0
    var falloff = 0.0
    var minimumRadius = FieldBehavior.defaultMinimumRadius
    var direction = Vector.zero
    var smoothness = 0.0
    var animationSpeed = 0.0
    var seed: UInt64 = 0

    init(kind: FieldKind) {
      switch kind {
      case .linearGravity: direction = Vector(dx: 0, dy: 1)
      case .noise, .turbulence:
        smoothness = 1
        animationSpeed = 1
      default: break
      }
    }
  }
}
