import Dynamics
import DynamicsScenes
import Primitives

/// The iOS 7 lock screen (protocol/PROTOCOL.md, “lock-screen”; seeds 000, 001, 004:
/// docs/TRANSITIONS.md, “The seeds”).
///
/// The `LockScreenScene`: one item, `screen`, covering the bounds, on a vertical rail (it never
/// turns or moves sideways), above a floor, with gravity off until it falls. A pan holds the touched point under the finger (`grab`); the release velocity is
/// handed over exactly (its vertical part: the rail takes the rest), then it opens (thrown off
/// the top by reversed gravity) or closes (falls onto a floor 1 pt below the bottom edge and
/// bounces to rest). How far it was pulled is read from the finger's travel. A tap on the
/// camera grabber kicks it up; it falls back with a bounce.
public final class LockScreen: Transition {
  override public class var name: String { "lock-screen" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let gravity = Parameter(
      "gravity", LockScreenScene.fallMagnitude, 0.1...20, unit: "× 1000 pt/s²",
      source: "docs/TRANSITIONS.md; open-source recreations use 8 (haawa799)")
    let elasticity = Parameter(
      "elasticity", LockScreenScene.elasticity, 0...1, unit: "",
      source: "haawa799 recreation (0.4); CapTech uses 0.25–0.5")
    let openSpeed = Parameter(
      "open_speed", 500, 0...10_000, unit: "pt/s", source: "CapTech ±500 pt/s release rule")
    let openFraction = Parameter(
      "open_fraction", 0.5, 0...1, unit: "of the height revealed",
      source: "docs/TRANSITIONS.md: at least half revealed")
    let floorMargin = Parameter(
      "floor_margin", LockScreenScene.floorMargin, 0...100, unit: "pt", source: "haawa799 MARGIN 1")
    let tapSpeed = Parameter(
      "tap_speed", 500, 0...5000, unit: "pt/s",
      source: "docs/TRANSITIONS.md: about 500 pt/s upward")
    let grabberSize = Parameter(
      "grabber_size", 80, 1...1000, unit: "pt",
      source: "docs/TRANSITIONS.md: the 80×80 square at the bottom-right corner")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  private enum Phase {
    case resting
    case dragging
    case closing
    case opening
    case bouncing
    case opened
  }

  public let screen: DynamicItem
  private let p: ParameterReader<Parameters>
  private let scene: LockScreenScene
  private var material: DynamicItemBehavior { scene.material }
  private var gravity: GravityBehavior { scene.gravity }
  private var drag: AttachmentBehavior?
  private var phase = Phase.resting
  /// The screen's center y minus the finger's y when the pan began.
  private var grabDelta = 0.0

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    scene = try LockScreenScene(
      bounds: bounds, elasticity: p.elasticity, floorMargin: p.floorMargin)
    screen = scene.screen
    super.init(animator: scene.animator, bounds: bounds)
    items = [screen]
  }

  /// How far the finger has lifted the screen (pt) with the finger at `point`: where the grip
  /// puts the screen, which is where it is at the end of the frame.
  private func revealed(at point: Point) -> Double {
    bounds.center.y - (point.y + grabDelta)
  }

  override public func panBegan(at point: Point) {
    // Catch it in flight: gravity lets go, the item keeps its velocity until the spring acts.
    gravity.setMagnitude(0)
    if let drag { animator.removeBehavior(drag) }
    drag = grab(screen, at: point)
    grabDelta = screen.center.y - point.y
    phase = .dragging
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    drag?.anchorPoint = point
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard phase == .dragging else { return [] }
    if let drag { animator.removeBehavior(drag) }
    drag = nil
    let speed = p.openSpeed
    let open =
      velocity.dy < -speed
      || (revealed(at: point) >= p.openFraction * bounds.size.height
        && velocity.dy < speed)
    let handoff = handOff(screen, velocity: velocity, via: material)
    fall(up: open)
    phase = open ? .opening : .closing
    return [handoff]
  }

  override public func panCancelled() {
    guard phase == .dragging else { return }
    if let drag { animator.removeBehavior(drag) }
    drag = nil
    fall(up: false)
    phase = .closing
  }

  override public func tap(at point: Point) -> Bool {
    let g = p.grabberSize
    let grabber = Rect(
      x: screen.center.x + bounds.size.width / 2 - g,
      y: screen.center.y + bounds.size.height / 2 - g,
      width: g, height: g)
    guard phase == .resting, grabber.contains(point) else { return false }
    let kick = PushBehavior(items: [screen], mode: .instantaneous)
    // Δv = magnitude × 100 / mass pt/s, so this magnitude gives exactly tap_speed.
    let mass = Units.mass(density: material.density, size: screen.size)
    kick.pushDirection = Vector(dx: 0, dy: -p.tapSpeed * mass / 100)
    animator.addBehavior(kick)
    fall(up: false)
    phase = .bouncing
    return true
  }

  private func fall(up: Bool) {
    scene.fall(up: up, magnitude: p.gravity)
  }

  override public func afterStep() -> [TransitionEvent] {
    switch phase {
    case .closing where !animator.isRunning:
      phase = .resting
      return [.done(outcome: "closed")]
    case .bouncing where !animator.isRunning:
      phase = .resting
      return [.done(outcome: "bounced")]
    case .bouncing:
      // The kick is spent after its first step; removing it while the animator runs anyway
      // costs nothing, where removing it at rest would wake the animator for nothing.
      for case let push as PushBehavior in animator.behaviors where !push.active {
        animator.removeBehavior(push)
      }
    case .opening where screen.center.y + bounds.size.height / 2 < bounds.minY:
      phase = .opened
      gravity.setMagnitude(0)
      material.addLinearVelocity(material.linearVelocity(for: screen) * -1, for: screen)
      return [.done(outcome: "opened")]
    default:
      break
    }
    return []
  }
}
