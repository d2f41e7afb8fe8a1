/// A parsed JSON value, for clients and tests (the daemon decodes requests without this tree).
///
/// Objects keep their members in wire order; a key sent twice keeps the last value (json-c).
/// Numbers are doubles and always finite: `JSONParser` rejects NaN, Infinity and overflow.
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([JSONMember])

  /// The value of the member named `key` of an object, or `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.name == key }?.value
  }

  /// The element at `index` of an array, or `nil`.
  public subscript(index: Int) -> JSONValue? {
    guard case .array(let elements) = self, elements.indices.contains(index) else { return nil }
    return elements[index]
  }

  /// The number, if this is one.
  public var number: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The string, if this is one.
  public var string: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The boolean, if this is one.
  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// Copies a json-c tree; throws `invalid_number` for a number that overflowed to infinity.
  public init(_ node: JSONNode, path: @autoclosure () -> String = "") throws(JSONSyntaxError) {
    switch node.kind {
    case .null: self = .null
    case .bool: self = .bool(node.bool)
    case .number:
      guard node.double.isFinite else {
        throw JSONSyntaxError(
          .nonFiniteNumber, "\(path().isEmpty ? "the value" : "'\(path())'") is not a finite number"
        )
      }
      self = .number(node.double)
    case .string: self = .string(node.string)
    case .array:
      var elements: [JSONValue] = []
      elements.reserveCapacity(node.count)
      for index in 0..<node.count {
        elements.append(try JSONValue(node[index], path: "\(path())[\(index)]"))
      }
      self = .array(elements)
    case .object:
      var members: [JSONMember] = []
      members.reserveCapacity(node.count)
      try node.forEachMember { (key, value) throws(JSONSyntaxError) in
        let name = String(decoding: key, as: UTF8.self)
        let value = try JSONValue(value, path: path().isEmpty ? name : "\(path()).\(name)")
        members.append(JSONMember(name: name, value: value))
      }
      self = .object(members)
    }
  }
}

/// One member of a JSON object.
public struct JSONMember: Equatable, Sendable {
  public var name: String
  public var value: JSONValue

  public init(name: String, value: JSONValue) {
    self.name = name
    self.value = value
  }
}
