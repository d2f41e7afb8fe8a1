import Expressions
import Primitives
import Transitions

/// The names a document's expressions may use, in the order of their slots: its parameters (a
/// choice as the index of its word), then the bounds (`width`, `height`, `min_x`, `min_y`,
/// `max_x`, `max_y`, `mid_x`, `mid_y`), then each choice's words (`initial_detent.medium`), then
/// the document's constants (expressions of the names before them).
/// Each name ranges over every value it can take in any bounds `open` may give, which is what
/// an expression is proved safe over (`Expression.interval`).
struct DocumentNames {
  static let bounds = ["width", "height", "min_x", "min_y", "max_x", "max_y", "mid_x", "mid_y"]

  private(set) var names: ExpressionNames
  let parameterCount: Int
  /// The constants' expressions, in order.
  private var constants: [Expression] = []

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
    var words: [Double] = []
    for p in parameters {
      guard case .choice(let choices) = p.kind else { continue }
      for (index, word) in choices.enumerated() {
        names.add("\(p.name).\(word)", in: Double(index)...Double(index))
        words.append(Double(index))
      }
    }
    self.names = names
    self.words = words
    parameterCount = parameters.count
  }

  /// The choices' words' values (their indices), after the bounds'.
  private let words: [Double]

  /// Adds a constant: `expression`, of the names before it, which takes values in `range`.
  mutating func addConstant(_ name: String, _ expression: Expression, in range: ClosedRange<Double>)
  {
    names.add(name, in: range)
    constants.append(expression)
  }

  /// The values of the names for `parameters` (numbers, in declaration order) in `bounds`.
  func values(_ parameters: [Double], in bounds: Rect) -> [Double] {
    var values =
      parameters + [
        bounds.size.width, bounds.size.height, bounds.minX, bounds.minY, bounds.maxX, bounds.maxY,
        bounds.center.x, bounds.center.y,
      ] + words
    // Proved finite over the names' ranges; a value outside them (never from `open`) gives 0.
    for constant in constants { values.append((try? constant.number(values)) ?? 0) }
    return values
  }

  /// Each of `declared`'s values in `values` as a number: a choice as the index of its word.
  static func numbers(_ values: ParameterValues, _ declared: [TransitionParameter]) -> [Double] {
    declared.map { p in
      switch (p.kind, values[p.name]) {
      case (.number, .number(let value)?): return value
      case (.choice(let words), .string(let word)?): return Double(words.firstIndex(of: word) ?? 0)
      default: return 0
      }
    }
  }

  /// Every value `p` may take in some bounds: from the least its minimum can be to the most its
  /// maximum can be, over all the bounds' sizes (by the extents' intervals).
  static func widestRange(of p: TransitionParameter) -> ClosedRange<Double> {
    if case .choice(let words) = p.kind { return 0...Double(max(words.count - 1, 0)) }
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
