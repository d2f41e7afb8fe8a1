import Glibc
import Primitives

/// Accelerates its items in one direction, whatever their mass (UIGravityBehavior).
///
/// Magnitude 1 is 1000 pt/s². Direction, angle and magnitude describe the same vector and are kept
/// consistent; setting the magnitude to 0 also resets the angle to 0, as UIKit does.
public final class GravityBehavior: DynamicBehavior {
  private var list: ItemList
  /// Default direction (0, 1): down the screen at 1000 pt/s².
  public static let defaultDirection = Vector(dx: 0, dy: 1)

  /// The angle in radians (0 = toward +x, π/2 = down).
  public private(set) var angle: Double = .pi / 2
  /// The strength; 1 = 1000 pt/s².
  public private(set) var magnitude: Double = 1

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

  /// The direction vector: magnitude × (cos angle, sin angle).
  public var gravityDirection: Vector {
    get { Vector(dx: magnitude * cos(angle), dy: magnitude * sin(angle)) }
    set {
      guard newValue.isFinite else { return }
      magnitude = newValue.length
      angle = magnitude == 0 ? 0 : atan2(newValue.dy, newValue.dx)
      parameterDidChange()
    }
  }

  /// Sets angle (radians) and magnitude together; non-finite values are ignored.
  public func setAngle(_ angle: Double, magnitude: Double) {
    guard angle.isFinite, magnitude.isFinite else { return }
    self.magnitude = magnitude
    self.angle = magnitude == 0 ? 0 : angle
    parameterDidChange()
  }

  public func setAngle(_ angle: Double) { setAngle(angle, magnitude: magnitude) }
  public func setMagnitude(_ magnitude: Double) { setAngle(angle, magnitude: magnitude) }

  override var behaviorItems: [DynamicItem] { list.items }

  override func steadyAcceleration(of item: DynamicItem) -> Vector {
    list.contains(item) ? gravityDirection * Units.gravityAcceleration : .zero
  }

  override func prepareStep(_ animator: DynamicAnimator) {
    guard magnitude != 0 else { return }
    // Acceleration in m/s²; force = mass × acceleration, applied at the centre of mass.
    let acceleration = gravityDirection * (Units.gravityAcceleration / Units.pointsPerMeter)
    for item in list.items {
      guard let body = animator.body(for: item), body.isDynamic else { continue }
      animator.world.applyForce(body.handle, acceleration * body.mass, at: body.worldCenterOfMass)
    }
  }
}
