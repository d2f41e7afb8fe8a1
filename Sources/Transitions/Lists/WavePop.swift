import Dynamics
import Primitives

/// The interactive pop with waving cells (protocol/PROTOCOL.md, “wave-pop”; seed 002,
/// AMWaveTransition: docs/TRANSITIONS.md, “The seeds”).
///
/// Two lists of `rows` full-width cells, `row_height` tall from y = `top`: `from-i` (the current
/// list, centered) and `to-i` (the list being revealed, waiting off the left edge). Each cell
/// hangs from an anchor on its row by a soft spring (`damping`, `frequency`) whose length is its
/// starting horizontal distance from the anchor, on a horizontal rail. While the finger moves,
/// row i's anchor is at `touch.x − first_touch.x − |selected − i| × vx / lag_divisor` (the
/// seed's formula, offset by where the anchor was when the pan began, so a pan that begins while
/// cells move catches them without a jump): the row under the finger leads and the others lag
/// with their distance from it. The anchor never crosses its cell's center (the seed's `clamp`).
/// On release the selected from-cell (the dragged item) takes the horizontal release velocity
/// exactly; then the springs, re-anchored (`finish_frequency`, `finish_damping`), carry the lists
/// to their ends — from-cells off the right edge and to-cells to the middle (`popped`), or both
/// back (`cancelled`). The finish keeps the wave: row i starts it `|selected − i| / lag_divisor`
/// seconds after the release, its anchor meanwhile going on as the drag formula would with the
/// finger moving on at the release velocity.
public final class WavePop: Transition {
  override public class var name: String { "wave-pop" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let rows = Parameter(
      "rows", 10, 1...40, unit: "rows per list", source: "docs/TRANSITIONS.md")
    let rowHeight = Parameter(
      "row_height", 50, 10...200, unit: "pt", source: "docs/TRANSITIONS.md: cells of height 50")
    let top = Parameter(
      "top", 64, 0...400, unit: "pt",
      source: "docs/TRANSITIONS.md: below a 64 pt navigation bar")
    let gap = Parameter(
      "gap", 20, 0...200, unit: "pt",
      source: "docs/TRANSITIONS.md: to-cells start with their left edge at −(width + 20)")
    let damping = Parameter(
      "damping", 0.4, 0...2, unit: "damping ratio", source: "seed 002: setDamping:0.4")
    let frequency = Parameter(
      "frequency", 1, 0.1...30, unit: "Hz", source: "seed 002: setFrequency:1")
    let lagDivisor = Parameter(
      "lag_divisor", 50, 1...10_000, unit: "pt/s per pt of lag per row",
      source: "seed 002: velocity / 50, \"provided by wisdom\"")
    let clamp = Parameter(
      "clamp", 2, 0...50, unit: "pt", source: "seed 002: center − 2, \"another magic number\"")
    let completeRule = Parameter(
      "complete_rule", choice: CompleteRule.velocity,
      source: "docs/TRANSITIONS.md: vx > 0 (AMWaveTransition); position: the older touch.x rule")
    let completeFraction = Parameter(
      "complete_fraction", 0.7, 0...1, unit: "of the width",
      source: "docs/TRANSITIONS.md: touch.x > 0.7 × width")
    let finishFrequency = Parameter(
      "finish_frequency", 2, 0.1...30, unit: "Hz",
      source: "dynd: replaces the seed's fixed 0.3 s animation with springs settling in ≈ 1 s")
    let finishDamping = Parameter(
      "finish_damping", 0.7, 0...2, unit: "damping ratio",
      source: "dynd: a little overshoot, as the cells arrive")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  /// What decides, on release, between popping and going back.
  enum CompleteRule: String, CaseIterable, Sendable {
    /// The release moves right (AMWaveTransition).
    case velocity
    /// The finger lifts beyond `complete_fraction` of the width (the older rule).
    case position
  }

  /// One cell: its item, its spring to the anchor, and which side of it the anchor hangs.
  private struct Cell {
    let item: DynamicItem
    let spring: AttachmentBehavior
    /// +1 for from-cells (anchor on the left), −1 for to-cells (anchor on the right).
    let side: Double
    let row: Int
    /// The spring's length while dragging: the cell's starting distance from its anchor.
    let length: Double
  }

  /// A finish under way: where the finger let go and which cells have not started theirs.
  private struct Finish {
    let complete: Bool
    /// `animator.time` at the release.
    let start: Double
    /// touch.x − first_touch.x at the release.
    let travel: Double
    /// The horizontal release velocity (pt/s).
    let vx: Double
    /// Indices of the cells still following the wave formula.
    var waiting: [Int]
  }

  private let p: ParameterReader<Parameters>
  private var cells: [Cell] = []
  private let material: DynamicItemBehavior
  /// Whether a pan holds the lists (between `began` and `ended` or `cancelled`).
  private var dragging = false
  private var selected = 0
  private var firstTouchX = 0.0
  /// Each cell's anchor x when the pan began: x = 0 (the seed's anchor) for a pan from rest.
  private var anchorBase: [Double] = []
  private var finish: Finish?

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    material = DynamicItemBehavior()
    try super.init(parameters: parameters, bounds: bounds)
    let width = bounds.size.width
    let size = Size(width: width, height: p.rowHeight)
    for (list, x) in [("from", middle), ("to", leftEnd)] {
      for row in 0..<Int(p.rows) {
        let y = rowCenterY(row)
        let item = try DynamicItem(
          identifier: "\(list)-\(row)", center: Point(x: x, y: y), size: size)
        // The seed's anchor: (0, row center y), so the rest length is the starting distance.
        let anchor = Point(x: bounds.minX, y: y)
        let spring = try AttachmentBehavior(item: item, attachedToAnchor: anchor)
        spring.damping = p.damping
        spring.frequency = p.frequency
        // A rail: horizontal travel only, no rotation. Without a collision behavior the cells
        // pass through each other.
        let rail = try AttachmentBehavior.sliding(
          item: item, anchor: anchor, axis: Vector(dx: 1, dy: 0))
        material.addItem(item)
        animator.addBehavior(spring)
        animator.addBehavior(rail)
        cells.append(
          Cell(
            item: item, spring: spring, side: list == "from" ? 1 : -1, row: row,
            length: spring.length))
        items.append(item)
      }
    }
    animator.addBehavior(material)
  }

  /// x of a centered cell (where from-cells start and to-cells end).
  private var middle: Double { bounds.minX + bounds.size.width / 2 }
  /// x of a to-cell waiting off the left edge, its left edge at −(width + gap).
  private var leftEnd: Double { bounds.minX - p.gap - bounds.size.width / 2 }
  /// x of a popped from-cell, its left edge `gap` beyond the right edge.
  private var rightEnd: Double { bounds.maxX + p.gap + bounds.size.width / 2 }

  private func rowCenterY(_ row: Int) -> Double {
    bounds.minY + p.top + (Double(row) + 0.5) * p.rowHeight
  }

  override public func panBegan(at point: Point) {
    let rows = Int(p.rows)
    let row = Int(
      ((point.y - bounds.minY - p.top) / p.rowHeight).rounded(.down))
    selected = min(max(row, 0), rows - 1)
    firstTouchX = point.x
    finish = nil
    // Each anchor goes where its spring is at its drag length from the cell as it is now (at
    // rest: x = 0, the seed's start): the cells keep their positions and velocities, no jump.
    anchorBase = cells.map { $0.item.center.x - $0.side * $0.length }
    for (cell, base) in zip(cells, anchorBase) {
      cell.spring.length = cell.length
      cell.spring.damping = p.damping
      cell.spring.frequency = p.frequency
      cell.spring.anchorPoint = Point(x: base, y: cell.spring.anchorPoint.y)
    }
    dragging = true
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    guard dragging else { return }
    for index in cells.indices {
      follow(index, travel: point.x - firstTouchX, vx: velocity.dx)
    }
  }

  /// Puts cell `index`'s anchor at the seed's `delta = touch.x − first_touch.x − |selected − i|
  /// × vx / lag_divisor`, measured from the anchor's x when the pan began (0 from rest, as in the
  /// seed, where every anchor starts at x = 0): the cell's spring keeps its starting length, so
  /// each cell is led to its own original x + delta. The seed's clamp compares delta with the
  /// cell's current center: a from-cell's anchor stays at least `clamp` left of it, a
  /// to-cell's at least `clamp` right of it.
  private func follow(_ index: Int, travel: Double, vx: Double) {
    let cell = cells[index]
    let lag = Double(abs(selected - cell.row)) * vx / p.lagDivisor
    var x = anchorBase[index] + travel - lag
    let center = cell.item.center.x
    let clamp = p.clamp
    if cell.side > 0, x > center - clamp { x = center - clamp }
    if cell.side < 0, x < center + clamp { x = center + clamp }
    cell.spring.anchorPoint = Point(x: x, y: cell.spring.anchorPoint.y)
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard dragging else { return [] }
    let complete: Bool
    if p.completeRule == .position {
      complete = point.x > bounds.minX + p.completeFraction * bounds.size.width
    } else {
      complete = velocity.dx > 0
    }
    // The dragged item is the from-cell under the finger; its rail keeps the horizontal part.
    let handoff = handOff(cells[selected].item, velocity: velocity, via: material)
    startFinish(complete: complete, travel: point.x - firstTouchX, vx: velocity.dx)
    return [handoff]
  }

  override public func panCancelled() {
    guard dragging else { return }
    let travel = (tracker.last?.x ?? firstTouchX) - firstTouchX
    startFinish(complete: false, travel: travel, vx: 0)
  }

  private func startFinish(complete: Bool, travel: Double, vx: Double) {
    finish = Finish(
      complete: complete, start: animator.time, travel: travel, vx: vx,
      waiting: Array(cells.indices))
    dragging = false
    advanceFinish()
  }

  /// Starts the finish of every row whose delay has passed; the others follow the wave formula
  /// with the finger carried on at the release velocity.
  private func advanceFinish() {
    guard var f = finish else { return }
    let t = animator.time - f.start
    f.waiting = f.waiting.filter { index in
      let delay = Double(abs(selected - cells[index].row)) / p.lagDivisor
      if t >= delay - 1e-9 {
        settle(cells[index], complete: f.complete)
        return false
      }
      follow(index, travel: f.travel + f.vx * t, vx: f.vx)
      return true
    }
    finish = f
  }

  /// Pulls a cell to its end with its spring re-anchored `reach` beyond the end on the anchor's
  /// own side, `reach` long: the spring is at rest exactly at the end, and the anchor can never
  /// pass the cell (which would hold it on the wrong side: the seed's "latch" problem; a
  /// zero-length spring cannot be used, Box2D keeps distance joints ≥ 0.5 pt).
  private func settle(_ cell: Cell, complete: Bool) {
    let target: Double
    switch (cell.side > 0, complete) {
    case (true, true): target = rightEnd
    case (true, false), (false, true): target = middle
    case (false, false): target = leftEnd
    }
    let reach = 4 * bounds.size.width
    cell.spring.length = reach
    cell.spring.frequency = p.finishFrequency
    cell.spring.damping = p.finishDamping
    cell.spring.anchorPoint = Point(x: target - cell.side * reach, y: cell.spring.anchorPoint.y)
  }

  override public func afterStep() -> [TransitionEvent] {
    guard let f = finish else { return [] }
    if !f.waiting.isEmpty {
      advanceFinish()
      return []
    }
    guard !animator.isRunning else { return [] }
    finish = nil
    return [.done(outcome: f.complete ? "popped" : "cancelled")]
  }
}
