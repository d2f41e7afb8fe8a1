import JSON
import Primitives

/// Decodes request lines into typed `Request`s, with every check of the protocol.
///
/// Checks happen in a fixed order, so a line with several faults always gets the same error:
/// lexical and syntax checks (`bad_json`, `invalid_number`), `not_an_object`, the `id`, the `op`
/// (`missing_field`, `wrong_type`, `unknown_op`), then the op's fields: unknown names first
/// (`unknown_field`), then each field in the order the op's documentation lists them.
///
/// One decoder keeps one json-c tokener; it is not thread-safe. Decoding a line allocates only the
/// json-c tree and the Swift values of the result.
public final class RequestDecoder {
  private let parser: JSONParser

  /// Creates a decoder that rejects nesting deeper than `maxDepth`.
  public init(maxDepth: Int = Limits.maxNestingDepth) {
    parser = JSONParser(maxDepth: maxDepth)
  }

  /// Decodes one line (without its `\n`).
  public func decode(_ line: [UInt8]) throws(RejectedRequest) -> Request {
    try line.withUnsafeBytes { bytes in
      Result { () throws(RejectedRequest) -> Request in try decode(bytes) }
    }.get()
  }

  /// Decodes one line (without its `\n`) lent by the caller, such as a line still in the reader
  /// that split it.
  public func decode(_ line: UnsafeRawBufferPointer) throws(RejectedRequest) -> Request {
    var id: RequestID?
    do {
      return try parser.withRoot(line) { root throws(ProtocolError) in
        guard root.kind == .object else {
          throw ProtocolError(
            .notAnObject, "a request must be a JSON object, not \(root.kind.phrase)")
        }
        id = try Self.readID(root)
        return Request(id: id, op: try Self.readOp(root))
      }
    } catch {
      throw RejectedRequest(id: id, error: error)
    }
  }

  /// Decodes one line given as a string (for tests and tools).
  public func decode(_ line: String) throws(RejectedRequest) -> Request {
    try decode(Array(line.utf8))
  }

  private static func readID(_ root: JSONNode) throws(ProtocolError) -> RequestID? {
    guard let node = root.member("id") else { return nil }
    switch node.kind {
    case .string:
      return .string(node.string)
    case .number:
      guard node.double.isFinite else {
        throw ProtocolError(.invalidNumber, "field 'id' is not a finite number")
      }
      return .number(node.numberText)
    default:
      throw wrongType("id", expected: "a string or a number", got: node)
    }
  }

  private static func readOp(_ root: JSONNode) throws(ProtocolError) -> Op {
    guard let opNode = root.member("op") else {
      throw ProtocolError(.missingField, "field 'op' is required for every request")
    }
    guard opNode.kind == .string else {
      throw wrongType("op", expected: "a string", got: opNode)
    }
    let name = opNode.string
    guard let op = Op.byName[name] else {
      throw ProtocolError(
        .unknownOp,
        "no op is named '\(quoted(name))'" + didYouMean(name, among: Op.registry.map { $0.name }))
    }
    let fields = try ObjectReader(root, path: "", owner: "op '\(name)'")
    try fields.rejectUnknownFields(op.fields)
    return try op.read(fields)
  }
}

extension ObjectReader {
  /// Two number fields that come together (`x` and `y`, `vx` and `vy`): both or neither.
  func pair<Value>(
    _ first: StaticString, _ second: StaticString, in range: NumberRange,
    _ make: (Double, Double) -> Value
  ) throws(ProtocolError) -> Value? {
    let a = try number(first, in: range)
    let b = try number(second, in: range)
    switch (a, b) {
    case (let a?, let b?): return make(a, b)
    case (nil, nil): return nil
    case (nil, _):
      throw ProtocolError(
        .missingField, "field '\(fieldPath(first))' is required with '\(second)' in \(owner)")
    case (_, nil):
      throw ProtocolError(
        .missingField, "field '\(fieldPath(second))' is required with '\(first)' in \(owner)")
    }
  }

  /// Two number fields that are both required.
  func requiredPair<Value>(
    _ first: StaticString, _ second: StaticString, in range: NumberRange,
    _ make: (Double, Double) -> Value
  ) throws(ProtocolError) -> Value {
    make(try requiredNumber(first, in: range), try requiredNumber(second, in: range))
  }
}
