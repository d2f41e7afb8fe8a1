/// An expression of a transition's parameters and bounds: the tiny, total language in which a
/// transition document (and a built-in transition's bounds-relative defaults and ranges) writes a
/// number or a condition.
///
/// ```
/// height * 0.5            clamp(travel / height, 0, 1)        if(vy < -speed, 1, 0)
/// min(width, 400) - margin                  vy < -open_speed or travel >= height * fraction
/// ```
///
/// Numbers, names (`snake_case`, dotted for runtime values: `release.vy`), `+ - * /`, unary `-`,
/// the comparisons `< <= > >= == !=` (not chained), `and`, `or`, `not`, `true`, `false`,
/// parentheses, and the
/// functions of `ExpressionFunction`. There are no loops, no recursion and no user functions, so
/// every expression ends, in time linear in its size. Every value is a finite double or a
/// boolean: a division by zero or a result that is not finite is an error, never a NaN, and
/// `ExpressionIntervals` proves before use that none can happen for any value the names may take.
public indirect enum Expression: Equatable, Sendable {
  case number(Double)
  /// `true` or `false`: a condition that always holds, or never does.
  case truth(Bool)
  /// A name, resolved to its slot in the `ExpressionNames` it was parsed against.
  case name(String, slot: Int)
  case negate(Expression)
  case arithmetic(ArithmeticOperator, Expression, Expression)
  case comparison(ComparisonOperator, Expression, Expression)
  case logical(LogicalOperator, Expression, Expression)
  case not(Expression)
  case call(ExpressionFunction, [Expression])

  /// What the expression gives: a number or a condition.
  public var kind: ExpressionKind {
    switch self {
    case .number, .name, .negate, .arithmetic: return .number
    case .truth, .comparison, .logical, .not: return .condition
    case .call(let function, let arguments):
      return function == .if ? arguments[1].kind : .number
    }
  }

  /// The constant value, when the expression is a plain number.
  public var constant: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The highest slot of the names it reads, nil when it reads none: while the values of the
  /// slots up to it stay the same, so does its value.
  public var highestSlot: Int? {
    switch self {
    case .number, .truth: return nil
    case .name(_, let slot): return slot
    case .negate(let operand), .not(let operand): return operand.highestSlot
    case .arithmetic(_, let left, let right), .comparison(_, let left, let right),
      .logical(_, let left, let right):
      return [left.highestSlot, right.highestSlot].compactMap { $0 }.max()
    case .call(_, let arguments): return arguments.compactMap(\.highestSlot).max()
    }
  }
}

public enum ExpressionKind: Sendable {
  case number
  case condition

  var phrase: String { self == .number ? "a number" : "a condition" }
}

public enum ArithmeticOperator: String, Sendable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
}

public enum ComparisonOperator: String, Sendable {
  case less = "<"
  case lessOrEqual = "<="
  case greater = ">"
  case greaterOrEqual = ">="
  case equal = "=="
  case notEqual = "!="
}

public enum LogicalOperator: String, Sendable {
  case and, or
}

/// The functions an expression may call, each total on finite numbers except where its interval
/// rule refuses (`sqrt` of a negative).
public enum ExpressionFunction: String, CaseIterable, Sendable {
  /// `min(a, b, …)`, `max(a, b, …)`: two or more numbers.
  case min, max
  /// `clamp(x, low, high)`: x held in [low, high] (low when low > high).
  case clamp
  case abs, sign, floor, ceil, round, sqrt
  /// `lerp(a, b, t)`: a + (b − a)·t.
  case lerp
  /// `nearest(x, a, b, …)`: of a, b, …, the one nearest to x (the least of those as near):
  /// the detent a projection lands on.
  case nearest
  /// `if(condition, then, else)`: either branch's kind, both the same.
  case `if`

  /// How many arguments it takes.
  var arity: ClosedRange<Int> {
    switch self {
    case .min, .max: return 2...16
    case .nearest: return 2...17
    case .clamp, .lerp, .if: return 3...3
    case .abs, .sign, .floor, .ceil, .round, .sqrt: return 1...1
    }
  }
}

/// Why an expression cannot be read or used: the message, and where in the text (0-based UTF-8
/// offset) when it is a syntax error.
public struct ExpressionError: Error, Equatable, Sendable {
  public let message: String
  public let offset: Int?

  public init(_ message: String, at offset: Int? = nil) {
    self.message = message
    self.offset = offset
  }
}

/// The limits that keep every expression small and quick.
public enum ExpressionLimits {
  /// The longest expression text, in UTF-8 bytes.
  public static let maxLength = 1_000
  /// The most nodes (numbers, names, operators, calls) in one expression.
  public static let maxNodes = 256
  /// The deepest nesting of parentheses, calls and operators.
  public static let maxDepth = 32
}
