import Dynamics
import DynamicsScenes
import Primitives

/// `snake` (seed 000, BepBop's spring example: the `SnakeScene`): an orange 60×60 block that
/// never turns, dragged by a spring (`damping`, `frequency`) from the touched point to the
/// finger, and four 60×20 blocks chained by rigid item-to-item attachments at (+25, 0) →
/// (−25, 0); the green tail is light and easy to spin. All collide with each other and the bounds (contacts with the
/// reference bounds carry `boundary: null`). On release the orange block takes the release
/// velocity exactly and everything comes to rest (`resistance`, which the seed does not have:
/// its snake drifts for ever): `done` `rested`.
public final class SnakeTransition: Transition {
  override public class var name: String { "snake" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let damping = Parameter(
      "damping", SnakeScene.dragDamping, 0...2, unit: "damping ratio",
      source: "seed 000: damping 0.4")
    let frequency = Parameter(
      "frequency", SnakeScene.dragFrequency, 0.1...30, unit: "Hz", source: "seed 000: frequency 1.5"
    )
    let tailDensity = Parameter(
      "tail_density", SnakeScene.tailDensity, 0.01...100, unit: "", source: "seed 000")
    let tailResistance = Parameter(
      "tail_resistance", SnakeScene.tailResistance, 0...100, unit: "1/s", source: "seed 000")
    let resistance = Parameter(
      "resistance", 1, 0...100, unit: "1/s",
      source: "dynd: the seed's snake drifts for ever; this lets it come to rest (0 = the seed)")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  public let orange: DynamicItem
  public let blocks: [DynamicItem]
  private let p: ParameterReader<Parameters>
  private let scene: SnakeScene
  private var upright: DynamicItemBehavior { scene.upright }
  private var spring: AttachmentBehavior?
  private var released = false

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    scene = try SnakeScene(
      bounds: bounds, resistance: p.resistance, tailDensity: p.tailDensity,
      tailResistance: p.tailResistance)
    orange = scene.orange
    blocks = scene.blocks
    super.init(animator: scene.animator, bounds: bounds)
    items = [orange] + blocks
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
