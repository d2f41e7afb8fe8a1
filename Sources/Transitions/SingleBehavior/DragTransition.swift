import Dynamics
import Primitives

/// `drag` (seed 000, BepBop's attachment example): a 140×61 brick pulled and pushed by a rigid
/// stick from the finger to a point (41, 0.5) off its center. On `began` the stick's length is
/// reset to the current distance, as the seed does, so a new touch does not yank the brick. On
/// `ended` the stick lets go and the brick takes the release velocity exactly, slows down
/// (`resistance`) inside the bounds and comes to rest: `done` `dropped`.
public final class DragTransition: Transition {
  override public class var name: String { "drag" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let offsetX = Parameter(
      "offset_x", 41, -70...70, unit: "pt", source: "seed 000: the blue attachment point")
    let offsetY = Parameter("offset_y", 0.5, -30...30, unit: "pt", source: "seed 000")
    let resistance = Parameter(
      "resistance", 2, 0...100, unit: "1/s",
      source: "dynd: a thrown brick stops within the screen")
    let elasticity = Parameter(
      "elasticity", 0.3, 0...1, unit: "", source: "dynd: walls of the bounds")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  public let brick: DynamicItem
  private let p: ParameterReader<Parameters>
  private let material: DynamicItemBehavior
  private var stick: AttachmentBehavior?
  private var released = false

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    brick = try DynamicItem(
      // The seed's (160, 407.5) on its 320×568 screen, at the same place relative to the bounds.
      identifier: "brick",
      center: Point(
        x: bounds.minX + bounds.size.width * 160 / 320,
        y: bounds.minY + bounds.size.height * 407.5 / 568),
      size: Size(width: 140, height: 61))
    material = DynamicItemBehavior(items: [brick])
    material.resistance = p.resistance
    material.angularResistance = p.resistance
    material.elasticity = p.elasticity
    try super.init(parameters: parameters, bounds: bounds)
    items = [brick]
    let walls = CollisionBehavior(items: [brick])
    try walls.setTranslatesReferenceBoundsIntoBoundary(true)
    animator.addBehavior(material)
    animator.addBehavior(walls)
  }

  override public func panBegan(at point: Point) {
    if let stick { animator.removeBehavior(stick) }
    let offset = Vector(dx: p.offsetX, dy: p.offsetY)
    // Rigid, and as long as the finger is far from the attachment point now (the seed's fix).
    let s = try! AttachmentBehavior(item: brick, offsetFromCenter: offset, attachedToAnchor: point)
    animator.addBehavior(s)
    stick = s
    released = false
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    stick?.anchorPoint = point
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard let stick else { return [] }
    animator.removeBehavior(stick)
    self.stick = nil
    let handoff = handOff(brick, velocity: velocity, via: material)
    released = true
    return [handoff]
  }

  override public func panCancelled() {
    if let stick { animator.removeBehavior(stick) }
    stick = nil
    released = true
  }

  override public func afterStep() -> [TransitionEvent] {
    guard released, !animator.isRunning else { return [] }
    released = false
    return [.done(outcome: "dropped")]
  }
}
