/// An expression laid out flat for evaluation: its nodes in one array of plain values, each
/// naming its operands by their index, so that evaluating it retains nothing (an `Expression`
/// is a tree of boxes, each reference counted as the walk goes through it). What a document's
/// rules evaluate at every gesture and frame.
///
/// It gives what `Expression.number` and `condition` give, in the same order (and, or and `if`
/// evaluate only what they need), and nil where they throw; their errors say why. A class, so
/// that a rule hands it on with one reference.
public final class FlatExpression: Sendable {
  private enum Node: Sendable {
    case number(Double)
    case truth(Bool)
    case name(slot: Int)
    case negate(Int)
    case arithmetic(ArithmeticOperator, Int, Int)
    case comparison(ComparisonOperator, Int, Int)
    case logical(LogicalOperator, Int, Int)
    case not(Int)
    /// The function and its arguments' nodes, `arguments[first..<first + count]`.
    case call(ExpressionFunction, first: Int, count: Int)
  }

  /// Each node after its operands: the whole expression last.
  private let nodes: [Node]
  private let arguments: [Int]
  /// The highest slot of the names it reads (`Expression.highestSlot`).
  public let highestSlot: Int?

  public init(_ expression: Expression) {
    highestSlot = expression.highestSlot
    var layout = Layout()
    layout.lay(expression)
    nodes = layout.nodes
    arguments = layout.arguments
  }

  private struct Layout {
    var nodes: [Node] = []
    var arguments: [Int] = []

    /// Appends `expression`'s nodes; returns the index of its own.
    @discardableResult
    mutating func lay(_ expression: Expression) -> Int {
      let node: Node
      switch expression {
      case .number(let value): node = .number(value)
      case .truth(let value): node = .truth(value)
      case .name(_, let slot): node = .name(slot: slot)
      case .negate(let operand): node = .negate(lay(operand))
      case .arithmetic(let op, let left, let right):
        let a = lay(left)
        node = .arithmetic(op, a, lay(right))
      case .comparison(let op, let left, let right):
        let a = lay(left)
        node = .comparison(op, a, lay(right))
      case .logical(let op, let left, let right):
        let a = lay(left)
        node = .logical(op, a, lay(right))
      case .not(let operand): node = .not(lay(operand))
      case .call(let function, let operands):
        let laid = operands.map { lay($0) }
        node = .call(function, first: arguments.count, count: laid.count)
        arguments += laid
      }
      nodes.append(node)
      return nodes.count - 1
    }
  }

  /// Its value at `values` (by slot), nil where `Expression.number` throws.
  public func number(_ values: [Double]) -> Double? {
    walk(values) { $0.number($0.root) }
  }

  /// Whether it holds at `values` (by slot), nil where `Expression.condition` throws.
  public func condition(_ values: [Double]) -> Bool? {
    walk(values) { $0.condition($0.root) }
  }

  private func walk<T>(_ values: [Double], _ body: (Walk) -> T?) -> T? {
    nodes.withUnsafeBufferPointer { nodes in
      arguments.withUnsafeBufferPointer { arguments in
        values.withUnsafeBufferPointer { values in
          body(Walk(nodes: nodes, arguments: arguments, values: values))
        }
      }
    }
  }

  /// One evaluation: the nodes, the call arguments and the names' values, borrowed.
  private struct Walk {
    let nodes: UnsafeBufferPointer<Node>
    let arguments: UnsafeBufferPointer<Int>
    let values: UnsafeBufferPointer<Double>

    var root: Int { nodes.count - 1 }

    func number(_ index: Int) -> Double? {
      switch nodes[index] {
      case .number(let value):
        return value
      case .name(let slot):
        return values[slot]
      case .negate(let operand):
        return number(operand).map { -$0 }
      case .arithmetic(let op, let left, let right):
        guard let a = operand(left), let b = operand(right), let result = op.apply(a, b),
          result.isFinite
        else { return nil }
        return result
      case .call(.if, let first, _):
        guard let holds = condition(arguments[first]) else { return nil }
        return number(arguments[first + (holds ? 1 : 2)])
      case .call(let function, let first, let count):
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: count) { numbers in
          for i in 0..<count {
            guard let value = number(arguments[first + i]) else { return nil }
            numbers.initializeElement(at: i, to: value)
          }
          return function.value(UnsafeBufferPointer(numbers))
        }
      case .truth, .comparison, .logical, .not:
        return condition(index).map { $0 ? 1 : 0 }  // not reached: kinds are checked when parsed
      }
    }

    /// `number(index)`, a name's or a number's without a call.
    @inline(__always)
    func operand(_ index: Int) -> Double? {
      switch nodes[index] {
      case .name(let slot): return values[slot]
      case .number(let value): return value
      default: return number(index)
      }
    }

    func condition(_ index: Int) -> Bool? {
      switch nodes[index] {
      case .truth(let value):
        return value
      case .comparison(let op, let left, let right):
        guard let a = operand(left), let b = operand(right) else { return nil }
        return op.holds(a, b)
      case .logical(let op, let left, let right):
        guard let a = condition(left) else { return nil }
        // `and` ends at a false, `or` at a true.
        return a == (op == .or) ? a : condition(right)
      case .not(let operand):
        return condition(operand).map { !$0 }
      case .call(.if, let first, _):
        guard let holds = condition(arguments[first]) else { return nil }
        return condition(arguments[first + (holds ? 1 : 2)])
      default:
        return number(index).map { $0 != 0 }  // not reached: kinds are checked when parsed
      }
    }
  }
}
