import Primitives

/// Physical properties of an item (UIDynamicItemBehavior's properties), with UIKit's defaults.
public struct ItemProperties: Equatable, Sendable {
  /// Bounciness: 0 = none, 1 = fully elastic. Impacts slower than 100 pt/s never bounce
  /// (Box2D's restitution threshold of 1 m/s), which is what lets stacks come to rest.
  public var elasticity = 0.0
  /// Coulomb friction coefficient; contacts mix two items' frictions as √(a·b).
  public var friction = 0.0
  /// Relative density; mass = density × width × height / 10 000.
  public var density = 1.0
  /// Linear velocity damping in 1/s (Box2D linear damping): v' = −resistance × v.
  public var resistance = 0.0
  /// Angular velocity damping in 1/s.
  public var angularResistance = 0.0
  /// When false the item never rotates.
  public var allowsRotation = true
  /// When true the item collides but never moves, like a boundary.
  public var anchored = false
  /// Electric charge, unitless: electric fields push with q·E and magnetic fields with
  /// q·v × B (`FieldBehavior`); other behaviors ignore it.
  public var charge = 0.0

  public static let defaults = ItemProperties()

  /// Accepted ranges (`PropertyRanges`, which the protocol's limits are taken from).
  public static let elasticityRange = PropertyRanges.elasticity
  public static let frictionRange = PropertyRanges.friction
  public static let densityRange = PropertyRanges.density
  public static let resistanceRange = PropertyRanges.resistance
  public static let chargeRange = PropertyRanges.charge
}

/// Sets physical properties of items and adds velocity to them (UIDynamicItemBehavior).
///
/// When several item behaviors hold the same item, the last one met walking the behavior tree
/// depth-first from the animator decides all of that item's properties; removing it restores
/// the previous one's, or the defaults.
public final class DynamicItemBehavior: DynamicBehavior {
  private var list: ItemList
  /// Velocities added before the item had a body; applied when it gets one.
  private var pendingLinear: [ObjectIdentifier: Vector] = [:]
  private var pendingAngular: [ObjectIdentifier: Double] = [:]
  public private(set) var properties = ItemProperties.defaults

  public init(items: [DynamicItem] = []) {
    list = ItemList(items)
    super.init()
  }

  public var items: [DynamicItem] { list.items }
  public func addItem(_ item: DynamicItem) {
    if list.add(item) { structureDidChange(rebuild: false) }
  }
  public func removeItem(_ item: DynamicItem) {
    if list.remove(item) { structureDidChange(rebuild: false) }
  }

  public var elasticity: Double {
    get { properties.elasticity }
    set { update(\.elasticity, newValue, ItemProperties.elasticityRange) }
  }
  public var friction: Double {
    get { properties.friction }
    set { update(\.friction, newValue, ItemProperties.frictionRange) }
  }
  public var density: Double {
    get { properties.density }
    set { update(\.density, newValue, ItemProperties.densityRange) }
  }
  public var resistance: Double {
    get { properties.resistance }
    set { update(\.resistance, newValue, ItemProperties.resistanceRange) }
  }
  public var angularResistance: Double {
    get { properties.angularResistance }
    set { update(\.angularResistance, newValue, ItemProperties.resistanceRange) }
  }
  public var charge: Double {
    get { properties.charge }
    set { update(\.charge, newValue, ItemProperties.chargeRange) }
  }
  public var allowsRotation: Bool {
    get { properties.allowsRotation }
    set {
      properties.allowsRotation = newValue
      structureDidChange(rebuild: false)
    }
  }
  public var anchored: Bool {
    get { properties.anchored }
    set {
      properties.anchored = newValue
      structureDidChange(rebuild: false)
    }
  }

  /// Non-finite values are ignored; finite ones are clamped into the documented range.
  private func update(
    _ key: WritableKeyPath<ItemProperties, Double>, _ value: Double, _ range: ClosedRange<Double>
  ) {
    guard value.isFinite else { return }
    properties[keyPath: key] = min(max(value, range.lowerBound), range.upperBound)
    structureDidChange(rebuild: false)
  }

  /// Adds a velocity (pt/s) to the item; accumulated until the item is animated.
  public func addLinearVelocity(_ velocity: Vector, for item: DynamicItem) {
    guard velocity.isFinite, list.contains(item) else { return }
    if let animator = dynamicAnimator, let body = animator.body(for: item) {
      animator.setVelocity(of: body, body.shownState.velocity + velocity, angular: nil)
    } else {
      pendingLinear[ObjectIdentifier(item), default: .zero] =
        pendingLinear[ObjectIdentifier(item), default: .zero] + velocity
      structureDidChange(rebuild: false)
    }
  }

  /// The item's velocity in pt/s (or what was accumulated before it was animated).
  public func linearVelocity(for item: DynamicItem) -> Vector {
    if let body = dynamicAnimator?.body(for: item) { return body.shownState.velocity }
    return pendingLinear[ObjectIdentifier(item)] ?? .zero
  }

  /// Adds an angular velocity (rad/s) to the item.
  public func addAngularVelocity(_ velocity: Double, for item: DynamicItem) {
    guard velocity.isFinite, list.contains(item) else { return }
    if let animator = dynamicAnimator, let body = animator.body(for: item) {
      animator.setVelocity(of: body, nil, angular: body.shownState.angularVelocity + velocity)
    } else {
      pendingAngular[ObjectIdentifier(item), default: 0] += velocity
      structureDidChange(rebuild: false)
    }
  }

  /// The item's angular velocity in rad/s.
  public func angularVelocity(for item: DynamicItem) -> Double {
    if let body = dynamicAnimator?.body(for: item) { return body.state.angularVelocity }
    return pendingAngular[ObjectIdentifier(item)] ?? 0
  }

  override var behaviorItems: [DynamicItem] { list.items }

  /// Applies velocities accumulated before the items had bodies.
  func applyPendingVelocities(_ animator: DynamicAnimator) {
    guard !pendingLinear.isEmpty || !pendingAngular.isEmpty else { return }
    for item in list.items {
      let id = ObjectIdentifier(item)
      guard pendingLinear[id] != nil || pendingAngular[id] != nil,
        let body = animator.body(for: item)
      else { continue }
      // Between two steps, added to what the item shows then (`FrameState.swift`).
      let now = animator.isShowingFrame ? body.shownState : body.state
      animator.setVelocity(
        of: body, now.velocity + (pendingLinear[id] ?? .zero),
        angular: now.angularVelocity + (pendingAngular[id] ?? 0))
    }
    pendingLinear = [:]
    pendingAngular = [:]
  }
}
