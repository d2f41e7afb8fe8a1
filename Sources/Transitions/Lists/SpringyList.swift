import Dynamics
import Primitives

/// `springy-list` (the Messages bubbles of seed 001, the springy collection view of seed 004):
/// `rows` full-width rows held at their places by soft springs (`damping`, `frequency`) on
/// vertical rails. A vertical pan scrolls the list: every row's resting place moves with the
/// finger, and each row itself moves by the finger's movement less its share of lag,
/// `distance from the touch / resistance_divisor` (at most all of it) — the rows near the finger
/// lead, the far ones trail and catch up on their springs. On release the row under the finger
/// takes the release velocity exactly; the springs settle the list: `done` `settled`.
public final class SpringyList: Transition {
  override public class var name: String { "springy-list" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let rows = Parameter("rows", 12, 1...40, unit: "rows", source: "dynd: a screenful")
    let rowHeight = Parameter(
      "row_height", 44, 10...200, unit: "pt", source: "UITableView's default row height")
    let top = Parameter("top", 64, 0...400, unit: "pt", source: "below a navigation bar")
    let damping = Parameter(
      "damping", 0.8, 0...2, unit: "damping ratio", source: "seed 004: springs damping 0.8")
    let frequency = Parameter("frequency", 1, 0.1...30, unit: "Hz", source: "seed 004: frequency 1")
    let resistanceDivisor = Parameter(
      "resistance_divisor", 1500, 1...100_000, unit: "pt",
      source: "seed 004: scrollResistance = distance from touch / 1500")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  private struct Row {
    let item: DynamicItem
    let spring: AttachmentBehavior
  }

  private let p: ParameterReader<Parameters>
  private var rows: [Row] = []
  private let material = DynamicItemBehavior()
  private var lastTouchY: Double?
  private var settling = false
  /// The springs hang from anchors this far above each row's place (Box2D keeps distance joints
  /// at least 0.5 pt long, so a zero-length spring would never let the list sleep).
  private var reach: Double { 4 * bounds.size.height }

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    try super.init(parameters: parameters, bounds: bounds)
    let height = p.rowHeight
    for index in 0..<Int(p.rows) {
      let center = Point(
        x: bounds.center.x, y: bounds.minY + p.top + (Double(index) + 0.5) * height)
      let item = try DynamicItem(
        identifier: "row-\(index)", center: center,
        size: Size(width: bounds.size.width, height: height))
      let spring = try AttachmentBehavior(
        item: item, attachedToAnchor: Point(x: center.x, y: center.y - reach))
      spring.damping = p.damping
      spring.frequency = p.frequency
      let rail = try AttachmentBehavior.sliding(
        item: item, anchor: center, axis: Vector(dx: 0, dy: 1))
      for b in [spring, rail] as [DynamicBehavior] { animator.addBehavior(b) }
      material.addItem(item)
      rows.append(Row(item: item, spring: spring))
      items.append(item)
    }
    animator.addBehavior(material)
  }

  override public func panBegan(at point: Point) {
    lastTouchY = point.y
    settling = false
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    guard let last = lastTouchY else { return }
    let delta = point.y - last
    lastTouchY = point.y
    for row in rows {
      let place = row.spring.anchorPoint.y + reach + delta
      row.spring.anchorPoint = Point(x: row.spring.anchorPoint.x, y: place - reach)
      let lag = min(1, abs(point.y - row.item.center.y) / p.resistanceDivisor)
      row.item.center = Point(x: row.item.center.x, y: row.item.center.y + delta * (1 - lag))
      try? animator.updateItem(usingCurrentState: row.item)
    }
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard lastTouchY != nil else { return [] }
    lastTouchY = nil
    let height = p.rowHeight
    let under = rows.min { abs($0.item.center.y - point.y) < abs($1.item.center.y - point.y) }
    var events: [TransitionEvent] = []
    if let under, abs(under.item.center.y - point.y) <= height / 2 {
      events.append(
        handOff(under.item, velocity: Vector(dx: 0, dy: velocity.dy), via: material))
    }
    settling = true
    return events
  }

  override public func panCancelled() {
    lastTouchY = nil
    settling = true
  }

  override public func afterStep() -> [TransitionEvent] {
    guard settling, !animator.isRunning else { return [] }
    settling = false
    return [.done(outcome: "settled")]
  }
}
