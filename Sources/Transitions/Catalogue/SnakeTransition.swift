import Dynamics
import Primitives

/// `snake` (seed 000, BepBop's spring example): an orange 60×60 block that never turns, dragged
/// by a spring (`damping`, `frequency`) from the touched point to the finger, and four 60×20
/// blocks chained by rigid item-to-item attachments at (+25, 0) → (−25, 0); the green tail is
/// light and easy to spin. All collide with each other and the bounds (contacts with the
/// reference bounds carry `boundary: null`). On release the orange block takes the release
/// velocity exactly and everything comes to rest (`resistance`, which the seed does not have:
/// its snake drifts for ever): `done` `rested`.
public final class SnakeTransition: Transition {
  override public class var name: String { "snake" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let damping = Parameter(
      "damping", 0.4, 0...2, unit: "damping ratio", source: "seed 000: damping 0.4")
    let frequency = Parameter(
      "frequency", 1.5, 0.1...30, unit: "Hz", source: "seed 000: frequency 1.5")
    let tailDensity = Parameter("tail_density", 0.1, 0.01...100, unit: "", source: "seed 000")
    let tailResistance = Parameter("tail_resistance", 0.1, 0...100, unit: "1/s", source: "seed 000")
    let resistance = Parameter(
      "resistance", 1, 0...100, unit: "1/s",
      source: "dynd: the seed's snake drifts for ever; this lets it come to rest (0 = the seed)")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  public let orange: DynamicItem
  public let blocks: [DynamicItem]
  private let p: ParameterReader<Parameters>
  private let upright: DynamicItemBehavior
  private var spring: AttachmentBehavior?
  private var released = false

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    let origin = Vector(dx: bounds.minX, dy: bounds.minY)
    orange = try DynamicItem(
      identifier: "orange", center: Point(x: 160, y: 410) + origin,
      size: Size(width: 60, height: 60))
    blocks = try [("blue1", 58.0), ("blue2", 126), ("blue3", 194), ("green", 262)].map {
      try DynamicItem(
        identifier: $0.0, center: Point(x: $0.1, y: 237) + origin, size: Size(width: 60, height: 20)
      )
    }
    upright = DynamicItemBehavior(items: [orange])
    upright.allowsRotation = false
    upright.resistance = p.resistance
    try super.init(parameters: parameters, bounds: bounds)
    items = [orange] + blocks
    animator.addBehavior(upright)
    let body = DynamicItemBehavior(items: Array(blocks.dropLast()))
    body.resistance = p.resistance
    body.angularResistance = p.resistance
    animator.addBehavior(body)
    for (a, b) in zip(blocks, blocks.dropFirst()) {
      animator.addBehavior(
        try AttachmentBehavior(
          item: a, offsetFromCenter: Vector(dx: 25, dy: 0), attachedTo: b,
          offsetFromCenter: Vector(dx: -25, dy: 0)))
    }
    let tail = DynamicItemBehavior(items: [blocks[3]])
    tail.density = p.tailDensity
    tail.resistance = p.tailResistance
    tail.angularResistance = p.tailResistance
    animator.addBehavior(tail)
    let collision = CollisionBehavior(items: items)
    try collision.setTranslatesReferenceBoundsIntoBoundary(true)
    animator.addBehavior(collision)
  }

  override public func panBegan(at point: Point) {
    if let spring { animator.removeBehavior(spring) }
    spring = grabBySpring(
      orange, at: point, frequency: p.frequency, damping: p.damping)
    released = false
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    spring?.anchorPoint = point
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard let spring else { return [] }
    animator.removeBehavior(spring)
    self.spring = nil
    let handoff = handOff(orange, velocity: velocity, via: upright)
    released = true
    return [handoff]
  }

  override public func panCancelled() {
    if let spring { animator.removeBehavior(spring) }
    spring = nil
    released = true
  }

  override public func afterStep() -> [TransitionEvent] {
    guard released, !animator.isRunning else { return [] }
    released = false
    return [.done(outcome: "rested")]
  }
}
