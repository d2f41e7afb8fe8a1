import Dynamics
import Primitives

/// `toss` (the photo demo of seed 004): a photo dragged by the point touched, which stays under
/// the finger — it turns when held by a corner, "the way you would expect when dragging
/// something on a table". Released faster than `toss_speed` it keeps the handed-over velocity
/// (up to the engine's speed limit) and leaves the screen: `done` `tossed`
/// once it is entirely outside the bounds (it then stops there). Slower, it snaps home, upright:
/// `done` `returned`.
public final class Toss: Transition {
  override public class var name: String { "toss" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let tossSpeed = Parameter(
      "toss_speed", 1000, 0...20_000, unit: "pt/s",
      source: "docs/TRANSITIONS.md: faster than 1000 pt/s")
    let photoWidth = Parameter(
      "photo_width", 200, from: 10, to: "width", unit: "pt", source: "dynd")
    let photoHeight = Parameter(
      "photo_height", 150, from: 10, to: "height", unit: "pt", source: "dynd")
    let snapDamping = Parameter(
      "snap_damping", 0.5, 0...1, unit: "", source: "UISnapBehavior's default damping")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  private enum Phase {
    case resting
    case dragging
    case flying
    case returning
  }

  public let photo: DynamicItem
  private let home: Point
  private let p: ParameterReader<Parameters>
  private let material: DynamicItemBehavior
  private var grip: AttachmentBehavior?
  private var snap: SnapBehavior?
  private var phase = Phase.resting

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    home = bounds.center
    photo = try DynamicItem(
      identifier: "photo", center: home,
      size: Size(width: p.photoWidth, height: p.photoHeight))
    material = DynamicItemBehavior(items: [photo])
    try super.init(parameters: parameters, bounds: bounds)
    items = [photo]
    animator.addBehavior(material)
  }

  override public func panBegan(at point: Point) {
    guard bounds.intersects(photo.frame) else { return }  // a tossed photo is gone
    if let snap { animator.removeBehavior(snap) }
    snap = nil
    material.anchored = false
    if let grip { animator.removeBehavior(grip) }
    grip = grab(photo, at: point)
    phase = .dragging
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    grip?.anchorPoint = point
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard phase == .dragging else { return [] }
    if let grip { animator.removeBehavior(grip) }
    grip = nil
    let handoff = handOff(photo, velocity: velocity, via: material)
    if velocity.length > p.tossSpeed {
      phase = .flying
    } else {
      returnHome()
    }
    return [handoff]
  }

  override public func panCancelled() {
    guard phase == .dragging else { return }
    if let grip { animator.removeBehavior(grip) }
    grip = nil
    returnHome()
  }

  private func returnHome() {
    let s = SnapBehavior(item: photo, snapTo: home)
    s.damping = p.snapDamping
    animator.addBehavior(s)
    snap = s
    phase = .returning
  }

  override public func afterStep() -> [TransitionEvent] {
    switch phase {
    case .flying where !bounds.intersects(photo.frame):
      material.anchored = true  // out of sight: it stops, and the animator can rest
      phase = .resting
      return [.done(outcome: "tossed")]
    case .returning where !animator.isRunning:
      phase = .resting
      return [.done(outcome: "returned")]
    default:
      break
    }
    return []
  }
}
