import Dynamics

/// The interactive pop with waving cells (TRANSITIONS.md `wave-pop`; seed 002, AMWaveTransition).
///
/// Two lists of `rows` full-width cells, `row_height` tall from y = `top`: `from-i` (the current
/// list, centered) and `to-i` (the list being revealed, waiting off the left edge). Each cell
/// hangs from an anchor on its row by a soft spring (`damping`, `frequency`) whose length is its
/// starting horizontal distance from the anchor, on a horizontal rail. While the finger moves,
/// row i's anchor is at `touch.x − first_touch.x − |selected − i| × vx / lag_divisor` (the
/// seed's formula, offset by where the anchor was when the pan began, so a pan that begins while
/// cells move catches them without a jump): the row under the finger leads and the others lag
/// with their distance from it. The anchor never crosses its cell's center (the seed's `clamp`).
/// On release the selected from-cell takes the horizontal release velocity exactly; then the
/// springs, re-anchored (`finish_frequency`, `finish_damping`), carry the lists to their ends —
/// from-cells off the right edge and to-cells to the middle (`popped`), or both back (`cancelled`).
public final class WavePop: Transition {
  override public class var name: String { "wave-pop" }

  override public class var parameters: [TransitionParameter] {
    [
      TransitionParameter("rows", 10, 1...40, unit: "rows per list", source: "TRANSITIONS.md"),
      TransitionParameter(
        "row_height", 50, 10...200, unit: "pt", source: "TRANSITIONS.md: cells of height 50"),
      TransitionParameter(
        "top", 64, 0...400, unit: "pt", source: "TRANSITIONS.md: below a 64 pt navigation bar"),
      TransitionParameter(
        "gap", 20, 0...200, unit: "pt",
        source: "TRANSITIONS.md: to-cells start with their left edge at −(width + 20)"),
      TransitionParameter(
        "damping", 0.4, 0...2, unit: "damping ratio", source: "seed 002: setDamping:0.4"),
      TransitionParameter("frequency", 1, 0.1...30, unit: "Hz", source: "seed 002: setFrequency:1"),
      TransitionParameter(
        "lag_divisor", 50, 1...10_000, unit: "pt/s per pt of lag per row",
        source: "seed 002: velocity / 50, \"provided by wisdom\""),
      TransitionParameter(
        "clamp", 2, 0...50, unit: "pt", source: "seed 002: center − 2, \"another magic number\""),
      TransitionParameter(
        "complete_rule", choice: "velocity", of: ["velocity", "position"],
        source: "TRANSITIONS.md: vx > 0 (AMWaveTransition); position: the older touch.x rule"),
      TransitionParameter(
        "complete_fraction", 0.7, 0...1, unit: "of the width",
        source: "TRANSITIONS.md: touch.x > 0.7 × width"),
      TransitionParameter(
        "finish_frequency", 2, 0.1...30, unit: "Hz",
        source: "dynd: replaces the seed's fixed 0.3 s animation with springs settling in ≈ 1 s"),
      TransitionParameter(
        "finish_damping", 0.7, 0...2, unit: "damping ratio",
        source: "dynd: a little overshoot, as the cells arrive"),
    ]
  }

  private enum Phase {
    case resting
    case dragging
    case popping
    case cancelling
    case popped
  }

  /// One cell: its item, its spring to the anchor, and which side of it the anchor hangs.
  private struct Cell {
    let item: DynamicItem
    let spring: AttachmentBehavior
    /// +1 for from-cells (anchor on the left), −1 for to-cells (anchor on the right).
    let side: Double
    let row: Int
    /// The spring's length while dragging: the starting distance between the cell's center and
    /// its anchor.
    let length: Double
  }

  private let p: ParameterValues
  private var cells: [Cell] = []
  private let material: DynamicItemBehavior
  private var phase = Phase.resting
  private var selected = 0
  private var firstTouchX = 0.0
  /// Each cell's anchor x when the pan began.
  private var anchorBase: [Double] = []

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = parameters
    material = DynamicItemBehavior()
    try super.init(parameters: parameters, bounds: bounds)
    let width = bounds.size.width
    let height = p.number("row_height")
    let size = Size(width: width, height: height)
    let start = [
      ("from", bounds.minX + width / 2),
      ("to", bounds.minX - (width + p.number("gap")) + width / 2),
    ]
    for (list, x) in start {
      for row in 0..<Int(p.number("rows")) {
        let y = rowCenterY(row)
        let item = try DynamicItem(
          identifier: "\(list)-\(row)", center: Point(x: x, y: y), size: size)
        let anchor = Point(x: bounds.minX, y: y)
        let spring = try AttachmentBehavior(item: item, attachedToAnchor: anchor)
        spring.damping = p.number("damping")
        spring.frequency = p.number("frequency")
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

  private func rowCenterY(_ row: Int) -> Double {
    bounds.minY + p.number("top") + (Double(row) + 0.5) * p.number("row_height")
  }

  override public func panBegan(at point: Point) {
    let rows = Int(p.number("rows"))
    let row = Int(
      ((point.y - bounds.minY - p.number("top")) / p.number("row_height")).rounded(.down))
    selected = min(max(row, 0), rows - 1)
    firstTouchX = point.x
    // Each anchor goes where its spring is at its drag length from the cell as it is now (at
    // rest: x = 0, the seed's start): the cells keep their positions and velocities, no jump.
    anchorBase = cells.map { $0.item.center.x - $0.side * $0.length }
    for (cell, base) in zip(cells, anchorBase) {
      cell.spring.length = cell.length
      cell.spring.damping = p.number("damping")
      cell.spring.frequency = p.number("frequency")
      cell.spring.anchorPoint = Point(x: base, y: cell.spring.anchorPoint.y)
    }
    phase = .dragging
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    guard phase == .dragging else { return }
    let clamp = p.number("clamp")
    for (index, cell) in cells.enumerated() {
      let lag = Double(abs(selected - cell.row)) * velocity.dx / p.number("lag_divisor")
      var delta = anchorBase[index] + point.x - firstTouchX - lag
      let center = cell.item.center.x
      if cell.side > 0, delta > center - clamp { delta = center - clamp }
      if cell.side < 0, delta < center + clamp { delta = center + clamp }
      cell.spring.anchorPoint = Point(x: delta, y: cell.spring.anchorPoint.y)
    }
  }

  override public func panEnded(at point: Point, velocity: Vector) {
    guard phase == .dragging else { return }
    let complete: Bool
    if p.string("complete_rule") == "position" {
      complete = point.x > bounds.minX + p.number("complete_fraction") * bounds.size.width
    } else {
      complete = velocity.dx > 0
    }
    let lead = cells[selected]  // the from-cell under the finger
    handOff(lead.item, velocity: Vector(dx: velocity.dx, dy: 0), via: material)
    finish(complete: complete)
  }

  override public func panCancelled() {
    guard phase == .dragging else { return }
    finish(complete: false)
  }

  /// Pulls every cell to its end with its spring re-anchored `reach` beyond the end on the
  /// anchor's own side, `reach` long: the spring is at rest exactly at the end, and the anchor
  /// can never pass the cell (which would hold it on the wrong side: the seed's "latch"
  /// problem; a zero-length spring cannot be used, Box2D keeps distance joints ≥ 0.5 pt). The
  /// per-row lag the cells have now plays out on the way.
  private func finish(complete: Bool) {
    let width = bounds.size.width
    let middle = bounds.minX + width / 2
    for cell in cells {
      let target: Double
      switch (cell.side > 0, complete) {
      case (true, true): target = bounds.maxX + p.number("gap") + width / 2  // off the right
      case (true, false): target = middle
      case (false, true): target = middle
      case (false, false): target = bounds.minX - (width + p.number("gap")) + width / 2
      }
      let reach = 4 * width
      cell.spring.length = reach
      cell.spring.frequency = p.number("finish_frequency")
      cell.spring.damping = p.number("finish_damping")
      cell.spring.anchorPoint = Point(x: target - cell.side * reach, y: cell.spring.anchorPoint.y)
    }
    phase = complete ? .popping : .cancelling
  }

  override public func afterStep() {
    guard !animator.isRunning else { return }
    switch phase {
    case .popping:
      phase = .popped
      emit(.done(outcome: "popped"))
    case .cancelling:
      phase = .resting
      emit(.done(outcome: "cancelled"))
    default:
      break
    }
  }
}
