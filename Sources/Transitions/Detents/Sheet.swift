import Dynamics
import Primitives

/// `sheet`: a bottom sheet with detents, the pattern of WWDC 2018's "Designing Fluid
/// Interfaces". Item `sheet`, the size of the bounds, on a vertical rail, showing
/// `initial_detent`'s height above the bottom edge. A pan that begins on it grips it at the
/// touched point, which follows the finger 1:1 between the lowest and the highest detent and by
/// UIScrollView's rubber band past them (`RubberBand`, d the bounds' height). On release the
/// finger's velocity is handed over exactly (its vertical part: the rail takes the rest); the
/// release is projected as a scroll view would coast (`deceleration_rate`); the detent nearest
/// to the projection is chosen; and a spring (SwiftUI's default, or the set the client gave)
/// carries the sheet there from the finger's velocity: `done` names the detent at rest. A
/// cancelled pan sends it back to the detent it was at or going to. A `tap` and a `swipe` do
/// nothing.
public final class Sheet: Transition {
  override public class var name: String { "sheet" }
  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  private enum Phase: Equatable {
    case resting
    case dragging
    case settling
  }

  public let sheet: DynamicItem
  public let detents: Detents
  /// The spring that carries the sheet to its detent.
  public let spring: SpringParameters
  /// The spring in force, with the parameter set it was given in.
  private let given: GivenMotion.Spring
  private let p: ParameterReader<Parameters>
  private let material: DynamicItemBehavior
  private var grip: AttachmentBehavior?
  private var carrier: SpringBehavior?
  private var phase = Phase.resting
  /// The detent the sheet rests at or is carried to.
  public private(set) var target: Detent
  /// When the pan began: the finger's y, the height the sheet showed, and the height the finger
  /// would have pulled it to without the rubber band (the same within the detents).
  private var panStart = (y: 0.0, shown: 0.0, unbanded: 0.0)

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    detents = try Self.detents(p)
    given = try Self.spring(p)
    spring = given.parameters
    target = detents.named(p.initialDetent.rawValue)!
    sheet = try DynamicItem(
      identifier: "sheet", center: Self.center(showing: target.height, in: bounds),
      size: bounds.size)
    material = DynamicItemBehavior(items: [sheet])
    material.allowsRotation = false
    try super.init(parameters: parameters, bounds: bounds)
    items = [sheet]
    let rail = try AttachmentBehavior.sliding(
      item: sheet, anchor: bounds.center, axis: Vector(dx: 0, dy: 1))
    animator.addBehavior(material)
    animator.addBehavior(rail)
  }

  /// The sheet's center when it shows `height` points above the bottom edge of `bounds`.
  override public var motionInForce: MotionInForce? { MotionInForce(spring: given) }

  static func center(showing height: Double, in bounds: Rect) -> Point {
    Point(x: bounds.center.x, y: bounds.maxY - height + bounds.size.height / 2)
  }

  /// How much of the sheet shows above the bottom edge, with its center at `y`.
  func height(centerY y: Double) -> Double { bounds.maxY + bounds.size.height / 2 - y }

  /// How much of the sheet shows now.
  public var height: Double { height(centerY: sheet.center.y) }

  override public func panBegan(at point: Point) {
    guard sheet.frame.contains(point) || phase == .dragging else { return }
    stopCarrying()
    if let grip { animator.removeBehavior(grip) }
    grip = grab(sheet, at: point)
    // Caught past an end, it starts from the overshoot that shows where it is: no jump.
    let unbanded = RubberBand.unclamp(height, from: detents.span, dimension: bounds.size.height)
    panStart = (point.y, height, unbanded)
    phase = .dragging
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    guard phase == .dragging, let grip else { return }
    // The touched point moves with the sheet, up by what it shows more than at the start.
    let shown = bandedHeight(fingerAt: point.y)
    grip.anchorPoint = Point(x: grip.anchorPoint.x, y: panStart.y - (shown - panStart.shown))
  }

  /// The height the sheet shows with the finger at `y`: 1:1 within the detents, banded past.
  func bandedHeight(fingerAt y: Double) -> Double {
    let unbanded = panStart.unbanded + (panStart.y - y)
    return RubberBand.clamp(unbanded, to: detents.span, dimension: bounds.size.height)
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard phase == .dragging else { return [] }
    letGo()
    let released = handOff(sheet, velocity: velocity, via: material)
    guard case .handoff(let handoff) = released else { return [] }
    let projected = projection(of: handoff.itemVelocity)
    target = detents.nearest(to: height(centerY: projected.y))
    carry(to: target)
    releasedLanding = Landing(projection: projected, detent: target.name, spring: spring)
    return [released]
  }

  /// The release's projection, the detent it chose and the spring that carries the sheet there.
  private var releasedLanding: Landing?

  override public func landing(after handoff: Handoff) -> Landing? { releasedLanding }

  override public func panCancelled() {
    guard phase == .dragging else { return }
    letGo()
    carry(to: target)
  }

  private func letGo() {
    if let grip { animator.removeBehavior(grip) }
    grip = nil
  }

  /// Where the sheet's center would stop, coasting from `velocity` as a scroll view does
  /// (`DecayMotion`'s resting point, UIScrollView's model at `deceleration_rate`).
  func projection(of velocity: Vector) -> Point {
    let coast = DecayMotion(
      .scrollView(decelerationRate: p.decelerationRate), from: sheet.center,
      velocity: Vector(dx: 0, dy: velocity.dy))
    return coast.restingPoint
  }

  /// Starts the spring that takes the sheet to `detent`, from the velocity it has.
  private func carry(to detent: Detent) {
    stopCarrying()
    // Finite by construction: a target in the bounds' span, constants within their ranges.
    let carrier = try! SpringBehavior(
      items: [sheet], target: Self.center(showing: detent.height, in: bounds),
      parameters: spring)
    animator.addBehavior(carrier)
    self.carrier = carrier
    phase = .settling
  }

  private func stopCarrying() {
    if let carrier { animator.removeBehavior(carrier) }
    carrier = nil
  }

  override public func afterStep() -> [TransitionEvent] {
    guard phase == .settling, let carrier, carrier.isAtRest(sheet) else { return [] }
    phase = .resting
    return [.done(outcome: target.name)]
  }
}
