import Primitives

/// The `params` of `open`: named values for the transition, validated later by the transition.
///
/// Kept in wire order (not a dictionary) so that anything derived from them, such as the first
/// unknown parameter reported, is the same on every run.
public struct TransitionParams: Equatable, Sendable {
  /// The parameters in the order the client sent them; names are unique.
  public var entries: [TransitionParam]

  public init(_ entries: [TransitionParam] = []) {
    self.entries = entries
  }

  /// The value of the parameter `name`, if given.
  public subscript(name: String) -> ParameterValue? {
    entries.first { $0.name == name }?.value
  }

  public var isEmpty: Bool { entries.isEmpty }
}

/// One transition parameter.
public struct TransitionParam: Equatable, Sendable {
  public var name: String
  public var value: ParameterValue

  public init(name: String, value: ParameterValue) {
    self.name = name
    self.value = value
  }
}

extension TransitionParams {
  /// Reads `params`: an object of at most `Limits.maxParams` names (`NameCharacters`), each a
  /// number, a boolean or a name-like string.
  init(_ fields: ObjectReader) throws(ProtocolError) {
    guard fields.node.count <= Limits.maxParams else {
      throw ProtocolError(
        .outOfRange,
        "field '\(fields.path)' must have at most \(Limits.maxParams) entries "
          + "(got \(fields.node.count))")
    }
    var entries: [TransitionParam] = []
    try fields.node.forEachMember { (key, value) throws(ProtocolError) in
      let name = String(decoding: key, as: UTF8.self)
      let path = "\(fields.path).\(quoted(name))"
      guard Limits.nameBytes.contains(key.count) else {
        throw ProtocolError(
          .outOfRange,
          "parameter names in '\(fields.path)' must be 1 to \(Limits.nameBytes.upperBound) bytes "
            + "(got \(key.count))")
      }
      if let scalar = NameCharacters.firstForbidden(key) {
        throw ProtocolError(
          .outOfRange, "a parameter name in '\(fields.path)' \(NameCharacters.fault(scalar))")
      }
      switch value.kind {
      case .number:
        let number = try readNumber(
          value, path: path, in: .closed(-.greatestFiniteMagnitude, .greatestFiniteMagnitude))
        entries.append(TransitionParam(name: name, value: .number(number)))
      case .bool:
        entries.append(TransitionParam(name: name, value: .bool(value.bool)))
      case .string:
        entries.append(TransitionParam(name: name, value: .string(try readName(value, path: path))))
      default:
        throw wrongType(path, expected: "a number, a boolean or a string", got: value)
      }
    }
    self.entries = entries
  }
}
