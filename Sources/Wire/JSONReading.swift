import JSON

/// The JSON library's faults as the protocol's errors, and its parser as the codecs use it.
extension ProtocolError {
  /// `bad_json` or `invalid_number`, with the parser's message.
  public init(_ syntax: JSONSyntaxError) {
    switch syntax.kind {
    case .malformed: self.init(.badJSON, syntax.message)
    case .nonFiniteNumber: self.init(.invalidNumber, syntax.message)
    }
  }
}

extension JSONParser {
  /// A parser with the protocol's nesting limit.
  public convenience init() {
    self.init(maxDepth: Limits.maxNestingDepth)
  }

  /// `withRoot` for a body that throws the protocol's errors, as a line's faults are.
  func withRoot<Result>(
    _ line: [UInt8], _ body: (JSONNode) throws(ProtocolError) -> Result
  ) throws(ProtocolError) -> Result {
    try withRoot(line, orThrow: ProtocolError.init, body)
  }

  func withRoot<Result>(
    _ line: UnsafeRawBufferPointer, _ body: (JSONNode) throws(ProtocolError) -> Result
  ) throws(ProtocolError) -> Result {
    try withRoot(line, orThrow: ProtocolError.init, body)
  }
}

extension JSONValue {
  /// A copy of a node's tree, its faults thrown as `convert` makes them.
  init(_ node: JSONNode, orThrow convert: (JSONSyntaxError) -> ProtocolError)
    throws(ProtocolError)
  {
    do throws(JSONSyntaxError) {
      self = try JSONValue(node)
    } catch {
      throw convert(error)
    }
  }
}

extension JSONNode {
  /// The first character of the string a name must not contain (`NameCharacters`), or nil.
  var forbiddenNameCharacter: UInt32? {
    withStringBytes { NameCharacters.firstForbidden($0) }
  }
}
