import Dynamics
import Primitives

/// `heavy` (seed 000, BepBop's "Heavy" label): a label under gravity inside the bounds; a tap
/// flips gravity (down ↔ up). `done` `landed` each time it comes to rest: once after the fall
/// the session opens with, and once after each tap (taps while it moves make one cycle).
public final class HeavyTransition: Transition {
  override public class var name: String { "heavy" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let gravity = Parameter(
      "gravity", 1, 0.1...20, unit: "× 1000 pt/s²", source: "seed 000: UIKit's default gravity")
    let labelWidth = Parameter(
      "label_width", 135, from: 1, to: "width", unit: "pt",
      source: "seed 000: the \"Heavy\" label 135×34")
    let labelHeight = Parameter(
      "label_height", 34, from: 1, to: "height", unit: "pt", source: "seed 000")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  public let label: DynamicItem
  private let gravity: GravityBehavior
  /// The label is on its way and its `done` not yet reported; it falls as soon as it opens.
  private var moving = true

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    let p = ParameterReader<Parameters>(parameters)
    let size = Size(width: p.labelWidth, height: p.labelHeight)
    label = try DynamicItem(
      identifier: "label", center: Point(x: bounds.center.x, y: bounds.minY + 120), size: size)
    gravity = GravityBehavior(items: [label])
    gravity.setMagnitude(p.gravity)
    try super.init(parameters: parameters, bounds: bounds)
    items = [label]
    let walls = CollisionBehavior(items: [label])
    try walls.setTranslatesReferenceBoundsIntoBoundary(true)
    animator.addBehavior(gravity)
    animator.addBehavior(walls)
  }

  override public func tap(at point: Point) -> Bool {
    // The seed's handleTapGesture: down becomes up and up becomes down.
    let g = gravity.magnitude
    gravity.gravityDirection = Vector(dx: 0, dy: gravity.gravityDirection.dy > 0 ? -g : g)
    moving = true
    return true
  }

  override public func afterStep() -> [TransitionEvent] {
    guard moving, !animator.isRunning else { return [] }
    moving = false
    return [.done(outcome: "landed")]
  }
}
