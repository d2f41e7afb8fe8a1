import Glibc
import Primitives

/// Pushes items with a force or a one-off impulse (UIPushBehavior).
///
/// Magnitude is in UIKit Newtons: 1 gives a 100×100 item of density 1 an acceleration of
/// 100 pt/s² (continuous), or a velocity change of 100 pt/s (instantaneous). An instantaneous push
/// applies its impulse at the next step and then sets `active` to false; set it again to repeat.
public final class PushBehavior: DynamicBehavior {
  public enum Mode: String, Sendable {
    case continuous
    case instantaneous
  }

  private var list: ItemList
  private var offsets: [ObjectIdentifier: Vector] = [:]
  public let mode: Mode
  /// Angle in radians (0 = toward +x).
  public private(set) var angle: Double = 0
  /// Strength in UIKit Newtons (or Newton-seconds when instantaneous); 0 pushes nothing.
  public private(set) var magnitude: Double = 0
  /// Whether the push acts; an instantaneous push clears it after acting.
  public var active = true {
    didSet { if active != oldValue { parameterDidChange() } }
  }

  public init(items: [DynamicItem] = [], mode: Mode) {
    list = ItemList(items)
    self.mode = mode
    super.init()
  }

  public var items: [DynamicItem] { list.items }
  public func addItem(_ item: DynamicItem) {
    if list.add(item) { structureDidChange(rebuild: false) }
  }
  public func removeItem(_ item: DynamicItem) {
    if list.remove(item) { structureDidChange(rebuild: false) }
  }

  /// The push as a vector: magnitude × (cos angle, sin angle).
  public var pushDirection: Vector {
    get { Vector(dx: magnitude * cos(angle), dy: magnitude * sin(angle)) }
    set {
      guard newValue.isFinite else { return }
      magnitude = newValue.length
      if magnitude != 0 { angle = atan2(newValue.dy, newValue.dx) }
      parameterDidChange()
    }
  }

  public func setAngle(_ angle: Double, magnitude: Double) {
    guard angle.isFinite, magnitude.isFinite else { return }
    self.angle = angle
    self.magnitude = magnitude
    parameterDidChange()
  }

  public func setAngle(_ angle: Double) { setAngle(angle, magnitude: magnitude) }
  public func setMagnitude(_ magnitude: Double) { setAngle(angle, magnitude: magnitude) }

  /// Where on the item the push acts, relative to its center in the item's own frame.
  public func targetOffsetFromCenter(for item: DynamicItem) -> Vector {
    offsets[ObjectIdentifier(item)] ?? .zero
  }

  public func setTargetOffsetFromCenter(_ offset: Vector, for item: DynamicItem) {
    guard offset.isFinite else { return }
    offsets[ObjectIdentifier(item)] = offset
    parameterDidChange()
  }

  override var behaviorItems: [DynamicItem] { list.items }

  override func prepareStep(_ animator: DynamicAnimator) {
    guard active, magnitude != 0 else { return }
    let push = pushDirection
    for item in list.items {
      guard let body = animator.body(for: item), body.isDynamic else { continue }
      let point = body.worldPoint(offset: targetOffsetFromCenter(for: item))
      switch mode {
      case .continuous: animator.world.applyForce(body.handle, push, at: point)
      case .instantaneous: animator.world.applyImpulse(body.handle, push, at: point)
      }
    }
    if mode == .instantaneous { active = false }
  }
}
