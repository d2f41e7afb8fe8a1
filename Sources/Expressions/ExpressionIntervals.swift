/// What an expression may give when each name takes any value in its range, by interval
/// arithmetic: sound (every value it can give is inside the interval), and the proof that it can
/// never fail. Where some value in the ranges could divide by zero, take the square root of a
/// negative number or overflow, it throws, naming the sub-expression and the interval that
/// breaks it, so a document is refused when it is defined rather than when a client opens it.
///
/// An `if` whose condition compares a name with a constant narrows that name's range in each
/// branch: `if(x > 0, y / x, 0)` divides by x only where x > 0 (and is still refused when y / x
/// can overflow: write `y / max(x, 0.001)`).
extension Expression {
  public func interval(_ ranges: [ClosedRange<Double>]) throws(ExpressionError)
    -> ClosedRange<Double>
  {
    switch self {
    case .number(let value):
      return value...value
    case .name(_, let slot):
      return ranges[slot]
    case .negate(let operand):
      let x = try operand.interval(ranges)
      return -x.upperBound...(-x.lowerBound)
    case .arithmetic(let op, let left, let right):
      let a = try left.interval(ranges)
      let b = try right.interval(ranges)
      switch op {
      case .add: return try bounded(a.lowerBound + b.lowerBound, a.upperBound + b.upperBound)
      case .subtract: return try bounded(a.lowerBound - b.upperBound, a.upperBound - b.lowerBound)
      case .multiply: return try product(a, b)
      case .divide:
        guard b.lowerBound > 0 || b.upperBound < 0 else {
          throw ExpressionError(
            "'\(right)' may be 0 (it takes values in \(phrase(b))), so '\(self)' may divide by "
              + "zero; keep it away from 0, e.g. max(\(right), 0.001)")
        }
        return try product(a, 1 / b.upperBound...(1 / b.lowerBound))
      }
    case .call(let function, let arguments):
      return try call(function, arguments, ranges)
    case .truth, .comparison, .logical, .not:
      let (canHold, canFail) = try possible(ranges)
      return (canFail ? 0 : 1)...(canHold ? 1 : 0)
    }
  }

  /// Whether the condition can hold, and whether it can fail, for values in the ranges.
  public func possible(_ ranges: [ClosedRange<Double>]) throws(ExpressionError)
    -> (canHold: Bool, canFail: Bool)
  {
    switch self {
    case .truth(let value):
      return (value, !value)
    case .comparison(let op, let left, let right):
      let a = try left.interval(ranges)
      let b = try right.interval(ranges)
      switch op {
      case .less: return (a.lowerBound < b.upperBound, a.upperBound >= b.lowerBound)
      case .lessOrEqual: return (a.lowerBound <= b.upperBound, a.upperBound > b.lowerBound)
      case .greater: return (a.upperBound > b.lowerBound, a.lowerBound <= b.upperBound)
      case .greaterOrEqual: return (a.upperBound >= b.lowerBound, a.lowerBound < b.upperBound)
      case .equal:
        let overlap = a.lowerBound <= b.upperBound && b.lowerBound <= a.upperBound
        let single = a.lowerBound == a.upperBound && b == a
        return (overlap, !single)
      case .notEqual:
        let overlap = a.lowerBound <= b.upperBound && b.lowerBound <= a.upperBound
        let single = a.lowerBound == a.upperBound && b == a
        return (!single, overlap)
      }
    case .logical(let op, let left, let right):
      let a = try left.possible(ranges)
      let b = try right.possible(ranges)
      return op == .and
        ? (a.canHold && b.canHold, a.canFail || b.canFail)
        : (a.canHold || b.canHold, a.canFail && b.canFail)
    case .not(let operand):
      let a = try operand.possible(ranges)
      return (a.canFail, a.canHold)
    case .call(.if, let arguments):
      let (yes, no) = try arguments[0].possible(ranges)
      var result = (canHold: false, canFail: false)
      if yes {
        let a = try arguments[1].possible(arguments[0].narrowed(ranges, holds: true))
        result = (result.canHold || a.canHold, result.canFail || a.canFail)
      }
      if no {
        let b = try arguments[2].possible(arguments[0].narrowed(ranges, holds: false))
        result = (result.canHold || b.canHold, result.canFail || b.canFail)
      }
      return result
    default:
      return (true, true)  // not reached: kinds are checked when parsed
    }
  }

  private func call(
    _ function: ExpressionFunction, _ arguments: [Expression], _ ranges: [ClosedRange<Double>]
  ) throws(ExpressionError) -> ClosedRange<Double> {
    if function == .if {
      let (yes, no) = try arguments[0].possible(ranges)
      var low = Double.infinity
      var high = -Double.infinity
      if yes {
        let a = try arguments[1].interval(arguments[0].narrowed(ranges, holds: true))
        (low, high) = (Swift.min(low, a.lowerBound), Swift.max(high, a.upperBound))
      }
      if no {
        let b = try arguments[2].interval(arguments[0].narrowed(ranges, holds: false))
        (low, high) = (Swift.min(low, b.lowerBound), Swift.max(high, b.upperBound))
      }
      return low...high
    }
    var xs: [ClosedRange<Double>] = []
    for argument in arguments { xs.append(try argument.interval(ranges)) }
    let x = xs[0]
    switch function {
    case .min: return xs.map(\.lowerBound).min()!...xs.map(\.upperBound).min()!
    case .max: return xs.map(\.lowerBound).max()!...xs.map(\.upperBound).max()!
    case .nearest:
      let candidates = xs.dropFirst()
      return candidates.map(\.lowerBound).min()!...candidates.map(\.upperBound).max()!
    case .clamp:
      let (low, high) = (xs[1], xs[2])
      return Swift.max(
        low.lowerBound, Swift.min(high.lowerBound, x.lowerBound))...Swift.max(
          low.upperBound, Swift.min(high.upperBound, x.upperBound))
    case .abs:
      if x.lowerBound >= 0 { return x }
      if x.upperBound <= 0 { return -x.upperBound...(-x.lowerBound) }
      return 0...Swift.max(-x.lowerBound, x.upperBound)
    case .sign: return sign(x.lowerBound)...sign(x.upperBound)
    case .floor: return x.lowerBound.rounded(.down)...x.upperBound.rounded(.down)
    case .ceil: return x.lowerBound.rounded(.up)...x.upperBound.rounded(.up)
    case .round:
      return x.lowerBound.rounded(
        .toNearestOrAwayFromZero)...x.upperBound.rounded(.toNearestOrAwayFromZero)
    case .sqrt:
      guard x.lowerBound >= 0 else {
        throw ExpressionError(
          "'\(arguments[0])' may be negative (it takes values in \(phrase(x))), so '\(self)' "
            + "may take the square root of a negative number")
      }
      return x.lowerBound.squareRoot()...x.upperBound.squareRoot()
    case .lerp:
      let (a, b, t) = (xs[0], xs[1], xs[2])
      let span = try bounded(b.lowerBound - a.upperBound, b.upperBound - a.lowerBound)
      let scaled = try product(span, t)
      return try bounded(a.lowerBound + scaled.lowerBound, a.upperBound + scaled.upperBound)
    case .if: return x  // handled above
    }
  }

  /// The ranges with the name a `name OP constant` condition compares narrowed to where the
  /// condition holds (or fails); other conditions narrow nothing.
  func narrowed(_ ranges: [ClosedRange<Double>], holds: Bool) -> [ClosedRange<Double>] {
    guard case .comparison(var op, var left, var right) = self else { return ranges }
    if left.constant != nil, case .name = right {
      swap(&left, &right)
      op = op.mirrored
    }
    guard case .name(_, let slot) = left, let c = right.constant else { return ranges }
    if !holds { op = op.negated }
    let r = ranges[slot]
    var low = r.lowerBound
    var high = r.upperBound
    switch op {
    case .less: high = Swift.min(high, c.nextDown)
    case .lessOrEqual: high = Swift.min(high, c)
    case .greater: low = Swift.max(low, c.nextUp)
    case .greaterOrEqual: low = Swift.max(low, c)
    case .equal: (low, high) = (Swift.max(low, c), Swift.min(high, c))
    case .notEqual: return ranges
    }
    guard low <= high else { return ranges }  // the branch cannot be taken: nothing to narrow
    var narrowed = ranges
    narrowed[slot] = low...high
    return narrowed
  }

  private func product(_ a: ClosedRange<Double>, _ b: ClosedRange<Double>)
    throws(ExpressionError) -> ClosedRange<Double>
  {
    let corners = [
      a.lowerBound * b.lowerBound, a.lowerBound * b.upperBound,
      a.upperBound * b.lowerBound, a.upperBound * b.upperBound,
    ]
    return try bounded(corners.min()!, corners.max()!)
  }

  private func bounded(_ low: Double, _ high: Double) throws(ExpressionError)
    -> ClosedRange<Double>
  {
    guard low.isFinite, high.isFinite else {
      throw ExpressionError("'\(self)' may not be a finite number for some values of its names")
    }
    return low...high
  }

  private func sign(_ value: Double) -> Double { value > 0 ? 1 : value < 0 ? -1 : 0 }
}

/// An interval as a message writes it.
func phrase(_ range: ClosedRange<Double>) -> String {
  "[\(short(range.lowerBound)), \(short(range.upperBound))]"
}

private func short(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
}

extension ComparisonOperator {
  /// The operator with its operands swapped: `c < x` is `x > c`.
  var mirrored: Self {
    switch self {
    case .less: return .greater
    case .lessOrEqual: return .greaterOrEqual
    case .greater: return .less
    case .greaterOrEqual: return .lessOrEqual
    case .equal, .notEqual: return self
    }
  }

  /// The operator that holds exactly where this one fails.
  var negated: Self {
    switch self {
    case .less: return .greaterOrEqual
    case .lessOrEqual: return .greater
    case .greater: return .lessOrEqual
    case .greaterOrEqual: return .less
    case .equal: return .notEqual
    case .notEqual: return .equal
    }
  }
}
