/// Evaluating an expression against the values of its names (by slot).
///
/// Every intermediate value is checked: a division by zero, a square root of a negative number
/// or a result that is not finite throws, naming the operation, so no NaN or infinity ever leaves
/// an expression. (`ExpressionIntervals` proves beforehand that none can happen for values in
/// the names' ranges; this is the check for values outside them.)
extension Expression {
  public func number(_ values: [Double]) throws(ExpressionError) -> Double {
    switch self {
    case .number(let value):
      return value
    case .name(_, let slot):
      return values[slot]
    case .negate(let operand):
      return -(try operand.number(values))
    case .arithmetic(let op, let left, let right):
      let a = try left.number(values)
      let b = try right.number(values)
      guard let result = op.apply(a, b) else {
        throw ExpressionError("division by zero in '\(self)'")
      }
      return try finite(result)
    case .call(let function, let arguments):
      return try call(function, arguments, values)
    case .truth, .comparison, .logical, .not:
      return try condition(values) ? 1 : 0  // not reached: kinds are checked when parsed
    }
  }

  public func condition(_ values: [Double]) throws(ExpressionError) -> Bool {
    switch self {
    case .truth(let value):
      return value
    case .comparison(let op, let left, let right):
      let a = try left.number(values)
      let b = try right.number(values)
      return op.holds(a, b)
    case .logical(.and, let left, let right):
      guard try left.condition(values) else { return false }
      return try right.condition(values)
    case .logical(.or, let left, let right):
      if try left.condition(values) { return true }
      return try right.condition(values)
    case .not(let operand):
      return !(try operand.condition(values))
    case .call(.if, let arguments):
      return try arguments[0].condition(values)
        ? arguments[1].condition(values) : arguments[2].condition(values)
    default:
      return try number(values) != 0  // not reached: kinds are checked when parsed
    }
  }

  private func call(_ function: ExpressionFunction, _ arguments: [Expression], _ values: [Double])
    throws(ExpressionError) -> Double
  {
    if function == .if {
      return try arguments[0].condition(values)
        ? arguments[1].number(values) : arguments[2].number(values)
    }
    var numbers: [Double] = []
    numbers.reserveCapacity(arguments.count)
    for argument in arguments { numbers.append(try argument.number(values)) }
    guard let value = numbers.withUnsafeBufferPointer(function.value) else {
      throw function == .sqrt
        ? ExpressionError("sqrt() of a negative number (\(numbers[0])) in '\(self)'")
        : ExpressionError("'\(self)' is not a finite number")
    }
    return value
  }

  private func finite(_ value: Double) throws(ExpressionError) -> Double {
    guard value.isFinite else { throw ExpressionError("'\(self)' is not a finite number") }
    return value
  }
}

extension ArithmeticOperator {
  /// `a op b`, nil for a division by zero (not checked finite: the caller does).
  func apply(_ a: Double, _ b: Double) -> Double? {
    switch self {
    case .add: return a + b
    case .subtract: return a - b
    case .multiply: return a * b
    case .divide: return b == 0 ? nil : a / b
    }
  }
}

extension ComparisonOperator {
  /// Whether `a op b`.
  func holds(_ a: Double, _ b: Double) -> Bool {
    switch self {
    case .less: return a < b
    case .lessOrEqual: return a <= b
    case .greater: return a > b
    case .greaterOrEqual: return a >= b
    case .equal: return a == b
    case .notEqual: return a != b
    }
  }
}

extension ExpressionFunction {
  /// The function's value for its arguments' `numbers` (as many as its arity allows; not
  /// `if`, which evaluates only the branch it takes), nil where it has none: the square root
  /// of a negative number, a `lerp` that is not finite.
  func value(_ numbers: UnsafeBufferPointer<Double>) -> Double? {
    switch self {
    case .min: return numbers.min()!
    case .max: return numbers.max()!
    case .clamp: return Swift.max(numbers[1], Swift.min(numbers[2], numbers[0]))
    case .abs: return Swift.abs(numbers[0])
    case .sign: return numbers[0] > 0 ? 1 : numbers[0] < 0 ? -1 : 0
    case .floor: return numbers[0].rounded(.down)
    case .ceil: return numbers[0].rounded(.up)
    case .round: return numbers[0].rounded(.toNearestOrAwayFromZero)
    case .sqrt: return numbers[0] >= 0 ? numbers[0].squareRoot() : nil
    case .lerp:
      let value = numbers[0] + (numbers[1] - numbers[0]) * numbers[2]
      return value.isFinite ? value : nil
    case .nearest:
      let x = numbers[0]
      return numbers.dropFirst().min {
        let (da, db) = (Swift.abs($0 - x), Swift.abs($1 - x))
        return da < db || (da == db && $0 < $1)
      }!
    case .if: return nil  // not reached: `if` takes a branch
    }
  }
}

extension Expression: CustomStringConvertible {
  /// The expression as text that reads back as itself (fully parenthesized where it nests).
  public var description: String {
    switch self {
    case .number(let value):
      return value == value.rounded() && Swift.abs(value) < 1e15
        ? String(Int64(value)) : "\(value)"
    case .truth(let value): return value ? "true" : "false"
    case .name(let name, _): return name
    case .negate(let operand): return "-\(operand.parenthesized)"
    case .arithmetic(let op, let left, let right):
      return "\(left.parenthesized) \(op.rawValue) \(right.parenthesized)"
    case .comparison(let op, let left, let right):
      return "\(left.parenthesized) \(op.rawValue) \(right.parenthesized)"
    case .logical(let op, let left, let right):
      return "\(left.parenthesized) \(op.rawValue) \(right.parenthesized)"
    case .not(let operand): return "not \(operand.parenthesized)"
    case .call(let function, let arguments):
      return "\(function.rawValue)(\(arguments.map(\.description).joined(separator: ", ")))"
    }
  }

  private var parenthesized: String {
    switch self {
    case .number(let value) where value < 0: return "(\(description))"
    case .number, .truth, .name, .call: return description
    default: return "(\(description))"
    }
  }
}
