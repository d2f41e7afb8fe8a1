import JSON
import Primitives

/// The fields of a `set_behavior` (or an action rule's `set`) as the request gave them, kept
/// until the behavior's type is known: then `update(for:)` reads them with that type's decoders
/// (`BehaviorUpdate`). Only the names are checked on arrival: each is settable on some type, and
/// there is at least one.
public struct BehaviorFields: Equatable, Sendable {
  /// The fields as one JSON object, numbers exactly as the client wrote them.
  public let text: String
  /// The field names, in wire order.
  public let names: [String]
  /// Where the object sits in its request, for messages ("" for the request itself).
  let path: String

  /// Keeps the members of `fields` but those in `excluding`, which were read already; `what`
  /// names the request for the `missing_field` error when none is left.
  init(_ fields: ObjectReader, excluding: [StaticString], what: String) throws(ProtocolError) {
    var writer = JSONWriter(capacity: 128)
    var names: [String] = []
    writer.byte("{")
    fields.node.forEachMember { (key, value) in
      guard !excluding.contains(where: { equals($0, key) }) else { return }
      let name = String(decoding: key, as: UTF8.self)
      if !names.isEmpty { writer.byte(",") }
      names.append(name)
      writer.string(name)
      writer.byte(":")
      writer.node(value)
    }
    writer.byte("}")
    guard !names.isEmpty else {
      throw ProtocolError(
        .missingField,
        "\(what) needs at least one field to set besides 'behavior'"
          + (fields.path.isEmpty ? "" : " (in '\(fields.path)')"))
    }
    self.text = String(decoding: writer.bytes, as: UTF8.self)
    self.names = names
    self.path = fields.path
  }

  /// The fields of `update`, as a client sends them (the encoder's order).
  public init(_ update: BehaviorUpdate) {
    var encoder = RequestEncoder()
    encoder.object { $0.update(update) }
    self.text = String(decoding: encoder.bytes, as: UTF8.self)
    self.names = BehaviorFields.names(in: text)
    self.path = ""
  }

  /// Two are equal when they hold the same fields, written alike, wherever they sit.
  public static func == (a: Self, b: Self) -> Bool { a.text == b.text }

  /// The `items` the fields give, read as every type that has them reads them: what a scene
  /// checks of a rule whose target it does not hold.
  public func items() throws(ProtocolError) -> [String]? {
    guard names.contains("items") else { return nil }
    return try read { (fields) throws(ProtocolError) in try fields.behaviorItems() }
  }

  /// The fields read for a behavior of `type`: `unknown_field` for a field the type does not
  /// have, and each value checked with the type's decoder and range.
  public func update(for type: BehaviorType) throws(ProtocolError) -> BehaviorUpdate {
    let settable = BehaviorUpdate.settableFields(of: type)
    for name in names where !settable.contains(name) {
      throw ProtocolError(
        .unknownField,
        "field '\(quoted(name))' is not settable on a '\(type.rawValue)' behavior (settable: "
          + "\(settable.joined(separator: ", ")))")
    }
    return try read(owner: "a '\(type.rawValue)' behavior") { (fields) throws(ProtocolError) in
      try BehaviorUpdate(fields, for: type)
    }
  }

  private func read<Value>(
    owner: String = "a behavior", _ body: (ObjectReader) throws(ProtocolError) -> Value
  ) throws(ProtocolError) -> Value {
    let parser = JSONParser(maxDepth: Limits.maxNestingDepth)
    return try parser.withRoot(Array(text.utf8), orThrow: ProtocolError.init) {
      (node) throws(ProtocolError) in
      try body(ObjectReader(node, path: path, owner: owner))
    }
  }

  private static func names(in text: String) -> [String] {
    guard case .object(let members)? = try? JSONParser(maxDepth: 8).parse(text) else { return [] }
    return members.map(\.name)
  }
}
