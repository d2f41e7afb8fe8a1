import CJSONC
import Glibc

/// A strict JSON parser over json-c: one value per line, nothing accepted that JSON forbids.
///
/// Strictness comes from three layers: `JSONLexicalCheck` (quotes, numbers, NaN, UTF-8, control
/// characters, NUL), json-c's `JSON_TOKENER_STRICT` with a depth limit (structure, trailing commas),
/// and a check that the whole line was consumed (only whitespace may follow the value). Numbers
/// that overflow a double (`1e999`, a 400-digit integer) pass all three and are rejected where
/// they are read. Integer literals beyond 64 bits are read as the nearest double (`HugeInteger`).
///
/// The parser keeps one json-c tokener and one scratch buffer, so parsing a line allocates nothing
/// but json-c's objects. It is not thread-safe; the daemon uses one per event loop.
public final class JSONParser {
  /// Deepest nesting of arrays and objects accepted.
  public let maxDepth: Int
  private let tokener: UnsafeMutablePointer<json_tokener>
  /// The line plus a terminating NUL: json-c completes a top-level scalar only when it sees it.
  private var scratch: [UInt8] = []

  /// Creates a parser that rejects nesting deeper than `maxDepth`.
  public init(maxDepth: Int) {
    precondition(maxDepth > 0, "the nesting limit must be positive")
    self.maxDepth = maxDepth
    guard let tokener = json_tokener_new_ex(Int32(clamping: maxDepth)) else {
      fatalError("json_tokener_new_ex failed: out of memory")
    }
    json_tokener_set_flags(tokener, JSON_TOKENER_STRICT)
    self.tokener = tokener
  }

  deinit {
    json_tokener_free(tokener)
  }

  /// Parses one line into a `JSONValue` tree.
  public func parse(_ line: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
    let copy = { (root: JSONNode) throws(JSONSyntaxError) in try JSONValue(root) }
    return try withRoot(line, orThrow: { $0 }, copy)
  }

  /// Parses one line into a `JSONValue` tree.
  public func parse(_ line: String) throws(JSONSyntaxError) -> JSONValue {
    try parse(Array(line.utf8))
  }

  /// Parses `line` and lends its root to `body`; the json-c tree is freed when `body` returns, so
  /// no `JSONNode` may escape it. A line that is not JSON throws `convert` of why, so that `body`
  /// and the parser throw one error type.
  public func withRoot<Result, Failure: Error>(
    _ line: [UInt8], orThrow convert: (JSONSyntaxError) -> Failure,
    _ body: (JSONNode) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    // `withUnsafeBytes` rethrows untyped errors: the outcome crosses it as a value.
    let outcome = line.withUnsafeBytes { bytes -> Swift.Result<Result, Failure> in
      do throws(Failure) {
        return .success(try withRoot(bytes, orThrow: convert, body))
      } catch {
        return .failure(error)
      }
    }
    return try outcome.get()
  }

  /// `withRoot` over bytes lent by the caller (a line still in a connection's buffer); they are
  /// copied once, into the parser's own NUL-terminated scratch buffer.
  public func withRoot<Result, Failure: Error>(
    _ line: UnsafeRawBufferPointer, orThrow convert: (JSONSyntaxError) -> Failure,
    _ body: (JSONNode) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let root: OpaquePointer?
    do throws(JSONSyntaxError) {
      root = try parseTree(line)
    } catch {
      throw convert(error)
    }
    defer { json_object_put(root) }
    return try body(JSONNode(root))
  }

  /// The json-c tree of `line`, which the caller frees.
  private func parseTree(_ line: UnsafeRawBufferPointer) throws(JSONSyntaxError) -> OpaquePointer? {
    guard line.count < Int(Int32.max) else {
      throw JSONSyntaxError(.malformed, "the line is too long for the JSON parser")
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: line)
    scratch.append(0)
    // The check may rewrite integers beyond 64 bits in the copy json-c reads (`HugeInteger`).
    let rewritten = try scratch.withUnsafeMutableBufferPointer {
      bytes throws(JSONSyntaxError) -> [Range<Int>] in
      try JSONLexicalCheck.check(UnsafeMutableBufferPointer(rebasing: bytes[..<line.count]))
    }
    let root = try scratch.withUnsafeBufferPointer {
      bytes throws(JSONSyntaxError) -> OpaquePointer? in
      json_tokener_reset(tokener)
      let length = bytes.count
      let object = bytes.withMemoryRebound(to: CChar.self) {
        json_tokener_parse_ex(tokener, $0.baseAddress, Int32(length))
      }
      // A valid `null` is a NULL object with success: look at the error, not at the pointer.
      let error = json_tokener_get_error(tokener)
      let end = json_tokener_get_parse_end(tokener)
      guard error == json_tokener_success else {
        json_object_put(object)
        throw describe(error, at: end, lineIsBlank: line.allSatisfy(isWhitespace))
      }
      // Strict mode already refuses trailing characters; this keeps the promise if it ever does not.
      var index = end
      while index < length - 1, isWhitespace(bytes[index]) { index += 1 }
      guard index >= length - 1 else {
        json_object_put(object)
        throw JSONSyntaxError(.malformed, "invalid JSON at column \(end + 1): text after the value")
      }
      return object
    }
    if !rewritten.isEmpty { restoreIDText(root, line: line, rewritten: rewritten) }
    return root
  }

  /// Gives a request `id` that was an integer beyond 64 bits, and so reached json-c rewritten
  /// (`HugeInteger`), the text the client wrote, which the reply echoes.
  private func restoreIDText(
    _ root: OpaquePointer?, line: UnsafeRawBufferPointer, rewritten: [Range<Int>]
  ) {
    guard json_object_get_type(root) == json_type_object else { return }
    var id: OpaquePointer?
    guard json_object_object_get_ex(root, "id", &id) != 0,
      json_object_get_type(id) == json_type_double,
      let start = HugeInteger.topLevelIDValueStart(line.assumingMemoryBound(to: UInt8.self)),
      let range = rewritten.first(where: { $0.lowerBound == start }),
      let text = strdup(String(decoding: line[range], as: UTF8.self))
    else { return }
    // The previous text (the rewritten literal) is freed by its own delete function.
    json_object_set_userdata(id, text) { _, text in free(text) }
  }

  private func describe(_ error: json_tokener_error, at end: Int, lineIsBlank: Bool)
    -> JSONSyntaxError
  {
    if lineIsBlank { return JSONSyntaxError(.malformed, "empty line; expected a JSON object") }
    switch error {
    case json_tokener_error_depth:
      return JSONSyntaxError(
        .malformed,
        "invalid JSON: nesting deeper than \(maxDepth) levels at column \(end + 1)")
    case json_tokener_continue, json_tokener_error_parse_eof:
      return JSONSyntaxError(.malformed, "invalid JSON: the line ends inside a value")
    default:
      let reason = json_tokener_error_desc(error).map { String(cString: $0) } ?? "syntax error"
      return JSONSyntaxError(.malformed, "invalid JSON at column \(end + 1): \(reason)")
    }
  }
}

/// A borrowed view of one json-c value; valid only inside `JSONParser.withRoot`.
public struct JSONNode {
  /// The json-c object; `nil` for JSON `null`.
  public let object: OpaquePointer?

  init(_ object: OpaquePointer?) {
    self.object = object
  }

  /// The kind of value, as JSON names it.
  public var kind: JSONKind {
    switch json_object_get_type(object) {
    case json_type_boolean: return .bool
    case json_type_int, json_type_double: return .number
    case json_type_string: return .string
    case json_type_array: return .array
    case json_type_object: return .object
    default: return .null
    }
  }

  /// The number as a double; for `.number` nodes only. May be infinite (`1e999`).
  public var double: Double { json_object_get_double(object) }

  /// The number exactly as the client wrote it. json-c keeps the source text of non-integers as
  /// the object's userdata (documented for `json_object_new_double_s`, which its parser uses);
  /// integers are printed back from their 64-bit value, which only turns `-0` into `0`. An integer
  /// beyond 64 bits reaches json-c as a double literal (`HugeInteger`): as the request `id` it has
  /// its own text back, anywhere else this is the rewritten literal (same value).
  public var numberText: String {
    if json_object_get_type(object) == json_type_double {
      if let text = json_object_get_userdata(object) {
        return String(cString: text.assumingMemoryBound(to: CChar.self))
      }
      var length = 0
      guard let text = json_object_to_json_string_length(object, JSON_C_TO_STRING_PLAIN, &length)
      else { return "0" }
      return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
    }
    // Integers above Int64.max are stored as uint64, and read back saturated as int64.
    let signed = json_object_get_int64(object)
    return signed == .max ? String(json_object_get_uint64(object)) : String(signed)
  }

  /// The integer a number written without fraction or exponent holds, exactly; nil for other
  /// numbers (json-c keeps integers as 64 bits; one above `Int64.max` reads back as `.max`, and
  /// `uint64` has it).
  public var int64: Int64? {
    json_object_get_type(object) == json_type_int ? json_object_get_int64(object) : nil
  }

  /// An integer node's value as unsigned 64 bits (saturated at 0 for negative ones).
  public var uint64: UInt64 { json_object_get_uint64(object) }

  public var bool: Bool { json_object_get_boolean(object) != 0 }

  /// The string's bytes (they may contain NUL, written as `\u0000`).
  public var string: String {
    let length = Int(json_object_get_string_len(object))
    guard let text = json_object_get_string(object) else { return "" }
    return String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
  }

  /// Lends the string's bytes (without a NUL; they may contain NUL) to `body`.
  public func withStringBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    let length = Int(json_object_get_string_len(object))
    return body(UnsafeRawBufferPointer(start: json_object_get_string(object), count: length))
  }

  /// The string's length in UTF-8 bytes.
  public var stringByteCount: Int { Int(json_object_get_string_len(object)) }

  public var count: Int {
    switch kind {
    case .array: return json_object_array_length(object)
    case .object: return Int(json_object_object_length(object))
    default: return 0
    }
  }

  /// The element at `index` of an array.
  public subscript(index: Int) -> JSONNode { JSONNode(json_object_array_get_idx(object, index)) }

  /// The member named `key` of an object, if present.
  public func member(_ key: StaticString) -> JSONNode? {
    var value: OpaquePointer?
    let found = key.utf8Start.withMemoryRebound(to: CChar.self, capacity: key.utf8CodeUnitCount + 1)
    {
      json_object_object_get_ex(object, $0, &value)
    }
    return found != 0 ? JSONNode(value) : nil
  }

  /// Calls `body` with each member's key (borrowed bytes, without NUL) and value, in wire order.
  public func forEachMember<E: Error>(_ body: (UnsafeRawBufferPointer, JSONNode) throws(E) -> Void)
    throws(E)
  {
    var iterator = json_object_iter_begin(object)
    var end = json_object_iter_end(object)
    while json_object_iter_equal(&iterator, &end) == 0 {
      if let name = json_object_iter_peek_name(&iterator) {
        let key = UnsafeRawBufferPointer(start: name, count: strlen(name))
        try body(key, JSONNode(json_object_iter_peek_value(&iterator)))
      }
      json_object_iter_next(&iterator)
    }
  }
}

/// The six kinds of JSON value.
public enum JSONKind: Sendable {
  case null, bool, number, string, array, object

  /// The kind with an article, for messages ("must be a number, not a string").
  public var phrase: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}
