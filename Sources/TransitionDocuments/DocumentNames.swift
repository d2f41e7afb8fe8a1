import Expressions
import Primitives
import Transitions

/// The names a document's expressions may use, in the order of their slots: its parameters,
/// then the bounds (`width`, `height`, `min_x`, `min_y`, `max_x`, `max_y`, `mid_x`, `mid_y`).
/// Each name ranges over every value it can take in any bounds `open` may give, which is what
/// an expression is proved safe over (`Expression.interval`).
struct DocumentNames {
  static let bounds = ["width", "height", "min_x", "min_y", "max_x", "max_y", "mid_x", "mid_y"]

  let names: ExpressionNames
  let parameterCount: Int

  init(parameters: [TransitionParameter]) {
    var names = ExpressionNames()
    for p in parameters {
      names.add(p.name, in: Self.widestRange(of: p))
    }
    let side = TransitionBounds.sides
    let origin = -1e6...1e6
    names.add("width", in: side)
    names.add("height", in: side)
    names.add("min_x", in: origin)
    names.add("min_y", in: origin)
    names.add(
      "max_x", in: (origin.lowerBound + side.lowerBound)...(origin.upperBound + side.upperBound))
    names.add(
      "max_y", in: (origin.lowerBound + side.lowerBound)...(origin.upperBound + side.upperBound))
    names.add(
      "mid_x",
      in: (origin.lowerBound + side.lowerBound / 2)...(origin.upperBound + side.upperBound / 2))
    names.add(
      "mid_y",
      in: (origin.lowerBound + side.lowerBound / 2)...(origin.upperBound + side.upperBound / 2))
    self.names = names
    parameterCount = parameters.count
  }

  /// The values of the names for `parameters` (numbers, in declaration order) in `bounds`.
  func values(_ parameters: [Double], in bounds: Rect) -> [Double] {
    parameters + [
      bounds.size.width, bounds.size.height, bounds.minX, bounds.minY, bounds.maxX, bounds.maxY,
      bounds.center.x, bounds.center.y,
    ]
  }

  /// Every value `p` may take in some bounds: from the least its minimum can be to the most its
  /// maximum can be, over all the bounds' sizes (by the extents' intervals).
  static func widestRange(of p: TransitionParameter) -> ClosedRange<Double> {
    guard case .number(let range) = p.kind else { return 0...0 }
    guard let relative = p.relative else { return range }
    let sides = [TransitionBounds.sides, TransitionBounds.sides]
    func interval(_ extent: BoundsExtent) -> ClosedRange<Double>? {
      switch extent {
      case .fixed(let value): return value...value
      case .ofBounds: return try? extent.expression?.interval(sides)
      }
    }
    guard let low = interval(relative.minimum)?.lowerBound,
      let high = interval(relative.maximum)?.upperBound, low <= high
    else { return range }
    return low...high
  }
}
