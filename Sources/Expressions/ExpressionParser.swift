/// Reads an expression's text (`Expression`'s grammar) against the names it may use.
///
/// ```
/// expression := or
/// or         := and ("or" and)*
/// and        := not ("and" not)*
/// not        := "not" not | comparison
/// comparison := sum (("<" | "<=" | ">" | ">=" | "==" | "!=") sum)?
/// sum        := product (("+" | "-") product)*
/// product    := unary (("*" | "/") unary)*
/// unary      := "-" unary | atom
/// atom       := number | "true" | "false" | "pi" | name
///             | function "(" expression ("," expression)* ")" | "(" expression ")"
/// ```
/// Kinds are checked as it reads: arithmetic and comparisons take numbers, `and`/`or`/`not` take
/// conditions, `if` takes a condition and two branches of one kind.
public struct ExpressionParser {
  private let text: [UInt8]
  private let names: ExpressionNames
  private var position = 0
  private var nodes = 0
  private var depth = 0

  /// Parses `text`, which must give a value of `kind`.
  public static func parse(_ text: String, names: ExpressionNames, as kind: ExpressionKind)
    throws(ExpressionError) -> Expression
  {
    guard text.utf8.count <= ExpressionLimits.maxLength else {
      throw ExpressionError(
        "an expression is at most \(ExpressionLimits.maxLength) bytes (this one has "
          + "\(text.utf8.count))")
    }
    var parser = ExpressionParser(text: Array(text.utf8), names: names)
    let expression = try parser.orExpression()
    parser.skipSpace()
    guard parser.position == parser.text.count else {
      throw ExpressionError(
        "unexpected '\(parser.rest)' after a complete expression", at: parser.position)
    }
    guard expression.kind == kind else {
      throw ExpressionError("this is \(expression.kind.phrase), where \(kind.phrase) is needed")
    }
    return expression
  }

  private init(text: [UInt8], names: ExpressionNames) {
    self.text = text
    self.names = names
  }

  // MARK: Levels

  private mutating func orExpression() throws(ExpressionError) -> Expression {
    var left = try andExpression()
    while keyword("or") {
      left = try logical(.or, left, try andExpression())
    }
    return left
  }

  private mutating func andExpression() throws(ExpressionError) -> Expression {
    var left = try notExpression()
    while keyword("and") {
      left = try logical(.and, left, try notExpression())
    }
    return left
  }

  private mutating func notExpression() throws(ExpressionError) -> Expression {
    let start = position
    if keyword("not") {
      let operand = try nested { (p: inout ExpressionParser) throws(ExpressionError) in
        try p.notExpression()
      }
      try expect(operand, .condition, "'not'", at: start)
      return try node(.not(operand))
    }
    return try comparison()
  }

  private mutating func comparison() throws(ExpressionError) -> Expression {
    let left = try sum()
    skipSpace()
    let start = position
    for op in [ComparisonOperator.lessOrEqual, .greaterOrEqual, .equal, .notEqual, .less, .greater]
    where take(op.rawValue) {
      let right = try sum()
      try expect(left, .number, "'\(op.rawValue)'", at: start)
      try expect(right, .number, "'\(op.rawValue)'", at: start)
      skipSpace()
      for next in ["<", ">", "=="] where peek(next) {
        throw ExpressionError(
          "comparisons do not chain: write 'a < b and b < c'", at: position)
      }
      return try node(.comparison(op, left, right))
    }
    return left
  }

  private mutating func sum() throws(ExpressionError) -> Expression {
    var left = try product()
    while true {
      skipSpace()
      let start = position
      let op: ArithmeticOperator
      if take("+") { op = .add } else if take("-") { op = .subtract } else { return left }
      left = try arithmetic(op, left, try product(), at: start)
    }
  }

  private mutating func product() throws(ExpressionError) -> Expression {
    var left = try unary()
    while true {
      skipSpace()
      let start = position
      let op: ArithmeticOperator
      if take("*") { op = .multiply } else if take("/") { op = .divide } else { return left }
      left = try arithmetic(op, left, try unary(), at: start)
    }
  }

  private mutating func unary() throws(ExpressionError) -> Expression {
    skipSpace()
    let start = position
    if take("-") {
      let operand = try nested { (p: inout ExpressionParser) throws(ExpressionError) in
        try p.unary()
      }
      try expect(operand, .number, "'-'", at: start)
      if let value = operand.constant { return try node(.number(-value)) }
      return try node(.negate(operand))
    }
    return try atom()
  }

  private mutating func atom() throws(ExpressionError) -> Expression {
    skipSpace()
    let start = position
    guard position < text.count else {
      throw ExpressionError("the expression ends where a value is expected", at: position)
    }
    let byte = text[position]
    if byte == UInt8(ascii: "(") {
      position += 1
      let inner = try nested { (p: inout ExpressionParser) throws(ExpressionError) in
        try p.orExpression()
      }
      try close(")", opened: start)
      return inner
    }
    if isDigit(byte) || byte == UInt8(ascii: ".") { return try node(.number(try number())) }
    guard isNameStart(byte) else {
      throw ExpressionError("unexpected '\(rest)' where a value is expected", at: position)
    }
    let name = self.name()
    if name == "true" || name == "false" { return try node(.truth(name == "true")) }
    if name == "pi" { return try node(.number(Double.pi)) }
    if ["and", "or", "not"].contains(name) {
      throw ExpressionError("'\(name)' is a keyword where a value is expected", at: start)
    }
    skipSpace()
    if take("(") { return try call(name, at: start) }
    guard let slot = names.slot(of: name) else {
      if ExpressionFunction(rawValue: name) != nil {
        throw ExpressionError("'\(name)' is a function: write \(name)(…)", at: start)
      }
      let near = names.suggestions(for: name)
      throw ExpressionError(
        "unknown name '\(name)'"
          + (near.isEmpty
            ? "" : " (did you mean \(near.map { "'\($0)'" }.joined(separator: ", "))?)"),
        at: start)
    }
    return try node(.name(name, slot: slot))
  }

  private mutating func call(_ name: String, at start: Int) throws(ExpressionError) -> Expression {
    guard let function = ExpressionFunction(rawValue: name) else {
      let known = ExpressionFunction.allCases.map(\.rawValue).joined(separator: ", ")
      throw ExpressionError("unknown function '\(name)' (there are: \(known))", at: start)
    }
    var arguments: [Expression] = []
    skipSpace()
    if !peek(")") {
      repeat {
        arguments.append(
          try nested { (p: inout ExpressionParser) throws(ExpressionError) in
            try p.orExpression()
          })
        skipSpace()
      } while take(",")
    }
    try close(")", opened: start)
    guard function.arity.contains(arguments.count) else {
      let arity = function.arity
      let wanted =
        arity.lowerBound == arity.upperBound
        ? "\(arity.lowerBound)" : "\(arity.lowerBound) to \(arity.upperBound)"
      throw ExpressionError(
        "\(name)() takes \(wanted) arguments, not \(arguments.count)", at: start)
    }
    if function == .if {
      try expect(arguments[0], .condition, "the first argument of if()", at: start)
      guard arguments[1].kind == arguments[2].kind else {
        throw ExpressionError(
          "the branches of if() give \(arguments[1].kind.phrase) and \(arguments[2].kind.phrase)",
          at: start)
      }
    } else {
      for argument in arguments {
        try expect(argument, .number, "\(name)()", at: start)
      }
    }
    return try node(.call(function, arguments))
  }

  // MARK: Nodes

  private mutating func arithmetic(
    _ op: ArithmeticOperator, _ left: Expression, _ right: Expression, at start: Int
  ) throws(ExpressionError) -> Expression {
    try expect(left, .number, "'\(op.rawValue)'", at: start)
    try expect(right, .number, "'\(op.rawValue)'", at: start)
    return try node(.arithmetic(op, left, right))
  }

  private mutating func logical(_ op: LogicalOperator, _ left: Expression, _ right: Expression)
    throws(ExpressionError) -> Expression
  {
    try expect(left, .condition, "'\(op.rawValue)'", at: position)
    try expect(right, .condition, "'\(op.rawValue)'", at: position)
    return try node(.logical(op, left, right))
  }

  private mutating func node(_ expression: Expression) throws(ExpressionError) -> Expression {
    nodes += 1
    guard nodes <= ExpressionLimits.maxNodes else {
      throw ExpressionError(
        "an expression has at most \(ExpressionLimits.maxNodes) numbers, names and operators",
        at: position)
    }
    return expression
  }

  private mutating func nested(
    _ body: (inout ExpressionParser) throws(ExpressionError) -> Expression
  ) throws(ExpressionError) -> Expression {
    depth += 1
    defer { depth -= 1 }
    guard depth <= ExpressionLimits.maxDepth else {
      throw ExpressionError(
        "an expression nests at most \(ExpressionLimits.maxDepth) deep", at: position)
    }
    return try body(&self)
  }

  private func expect(
    _ expression: Expression, _ kind: ExpressionKind, _ context: String, at offset: Int
  ) throws(ExpressionError) {
    guard expression.kind == kind else {
      throw ExpressionError(
        "\(context) takes \(kind.phrase), not \(expression.kind.phrase)", at: offset)
    }
  }

  // MARK: Tokens

  private mutating func number() throws(ExpressionError) -> Double {
    let start = position
    while position < text.count, isDigit(text[position]) || text[position] == UInt8(ascii: ".") {
      position += 1
    }
    if position < text.count,
      text[position] == UInt8(ascii: "e") || text[position] == UInt8(ascii: "E")
    {
      position += 1
      if position < text.count,
        text[position] == UInt8(ascii: "-") || text[position] == UInt8(ascii: "+")
      {
        position += 1
      }
      while position < text.count, isDigit(text[position]) { position += 1 }
    }
    let word = String(decoding: text[start..<position], as: UTF8.self)
    guard let value = Double(word), value.isFinite else {
      throw ExpressionError("'\(word)' is not a finite number", at: start)
    }
    return value
  }

  private mutating func name() -> String {
    let start = position
    while position < text.count {
      let byte = text[position]
      if isNameStart(byte) || isDigit(byte) {
        position += 1
      } else if byte == UInt8(ascii: "."), position + 1 < text.count,
        isNameStart(text[position + 1])
      {
        position += 1
      } else {
        break
      }
    }
    return String(decoding: text[start..<position], as: UTF8.self)
  }

  private mutating func keyword(_ word: String) -> Bool {
    skipSpace()
    let bytes = Array(word.utf8)
    guard text.count - position >= bytes.count,
      Array(text[position..<position + bytes.count]) == bytes
    else { return false }
    let end = position + bytes.count
    if end < text.count, isNameStart(text[end]) || isDigit(text[end]) { return false }
    position = end
    return true
  }

  private mutating func take(_ token: String) -> Bool {
    guard peek(token) else { return false }
    position += token.utf8.count
    return true
  }

  private func peek(_ token: String) -> Bool {
    let bytes = Array(token.utf8)
    return text.count - position >= bytes.count
      && Array(text[position..<position + bytes.count]) == bytes
  }

  private mutating func close(_ token: String, opened: Int) throws(ExpressionError) {
    skipSpace()
    guard take(token) else {
      throw ExpressionError(
        "'\(String(decoding: text[opened...opened], as: UTF8.self))' at \(opened) is not closed "
          + "(found '\(rest)')", at: position)
    }
  }

  private mutating func skipSpace() {
    while position < text.count, text[position] == UInt8(ascii: " ") || text[position] == 9 {
      position += 1
    }
  }

  private var rest: String {
    position < text.count
      ? String(decoding: text[position..<Swift.min(text.count, position + 12)], as: UTF8.self)
      : "the end"
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  private func isNameStart(_ byte: UInt8) -> Bool {
    (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) || byte == UInt8(ascii: "_")
  }
}
