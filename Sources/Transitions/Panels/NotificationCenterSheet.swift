import Dynamics
import Primitives

/// `notification-center` (seed 001): a sheet the size of the bounds, hidden above the top edge,
/// pulled down by a pan that starts within `pull_zone` of its bottom edge. Released moving down
/// (or more than half out and not flung up) it drops onto a floor just below the bottom edge and
/// bounces the harder the faster it was flung: its elasticity is `elasticity_base` +
/// speed / `elasticity_speed`, at most `elasticity_max` — `done` `opened` at rest. Otherwise
/// reversed gravity takes it back up until it is hidden again: `done` `closed`. The release
/// velocity is handed over exactly either way.
public final class NotificationCenterSheet: Transition {
  override public class var name: String { "notification-center" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let gravity = Parameter(
      "gravity", 3, 0.1...20, unit: "× 1000 pt/s²",
      source: "dynd: between lock-screen's 4 and UIKit's 1")
    let elasticityBase = Parameter(
      "elasticity_base", 0.1, 0...1, unit: "", source: "seed 001: a soft landing when let go")
    let elasticitySpeed = Parameter(
      "elasticity_speed", 5000, 1...100_000, unit: "pt/s per unit of elasticity",
      source: "seed 001: the quicker the gesture, the more bounce")
    let elasticityMax = Parameter("elasticity_max", 0.7, 0...1, unit: "", source: "dynd")
    let openSpeed = Parameter(
      "open_speed", 300, 0...10_000, unit: "pt/s", source: "dynd: a flick up closes")
    let pullZone = Parameter(
      "pull_zone", 44, from: 0, to: "height", unit: "pt",
      source: "dynd: a touch target at the sheet's edge")
    let floorMargin = Parameter("floor_margin", 1, 0...100, unit: "pt", source: "as lock-screen")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  private enum Phase {
    case hidden
    case dragging
    case dropping
    case opened
    case rising
  }

  public let sheet: DynamicItem
  private let p: ParameterReader<Parameters>
  private let gravity = GravityBehavior()
  private let material: DynamicItemBehavior
  private var drag: AttachmentBehavior?
  private var phase = Phase.hidden
  /// The sheet's bottom edge minus the finger's y when the pan began.
  private var grabDelta = 0.0

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    sheet = try DynamicItem(
      identifier: "sheet",
      center: Point(x: bounds.center.x, y: bounds.minY - bounds.size.height / 2),
      size: bounds.size)
    material = DynamicItemBehavior(items: [sheet])
    try super.init(parameters: parameters, bounds: bounds)
    items = [sheet]
    let floor = CollisionBehavior(items: [sheet])
    floor.collisionMode = .boundaries
    let y = bounds.maxY + p.floorMargin
    try floor.addBoundary(
      identifier: "floor", from: Point(x: bounds.minX, y: y), to: Point(x: bounds.maxX, y: y))
    let rail = try AttachmentBehavior.sliding(
      item: sheet, anchor: bounds.center, axis: Vector(dx: 0, dy: 1))
    gravity.addItem(sheet)
    gravity.setMagnitude(0)
    for b in [material, floor, rail, gravity] as [DynamicBehavior] { animator.addBehavior(b) }
  }

  private var bottom: Double { sheet.center.y + sheet.size.height / 2 }

  override public func panBegan(at point: Point) {
    guard point.y <= bottom + p.pullZone else { return }
    gravity.setMagnitude(0)
    if let drag { animator.removeBehavior(drag) }
    drag = grab(sheet, at: point)
    grabDelta = bottom - point.y
    phase = .dragging
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    drag?.anchorPoint = Point(x: drag?.anchorPoint.x ?? point.x, y: point.y)
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard phase == .dragging else { return [] }
    if let drag { animator.removeBehavior(drag) }
    drag = nil
    let v = velocity
    let speed = p.openSpeed
    // How far it was pulled, from the finger: where the grip puts the sheet's bottom edge.
    let pulledTo = point.y + grabDelta
    let open = v.dy > speed || (pulledTo >= bounds.center.y && v.dy > -speed)
    material.elasticity = min(
      p.elasticityMax,
      p.elasticityBase + abs(v.dy) / p.elasticitySpeed)
    let handoff = handOff(sheet, velocity: v, via: material)
    let g = p.gravity
    gravity.gravityDirection = Vector(dx: 0, dy: open ? g : -g)
    phase = open ? .dropping : .rising
    return [handoff]
  }

  override public func panCancelled() {
    guard phase == .dragging else { return }
    if let drag { animator.removeBehavior(drag) }
    drag = nil
    gravity.gravityDirection = Vector(dx: 0, dy: -p.gravity)
    phase = .rising
  }

  override public func afterStep() -> [TransitionEvent] {
    switch phase {
    case .dropping where !animator.isRunning:
      phase = .opened
      return [.done(outcome: "opened")]
    case .rising where bottom <= bounds.minY:
      // Hidden again: it stops just above the top edge.
      gravity.setMagnitude(0)
      material.addLinearVelocity(material.linearVelocity(for: sheet) * -1, for: sheet)
      phase = .hidden
      return [.done(outcome: "closed")]
    default:
      break
    }
    return []
  }
}
