import JSON

/// `define` (extension): a transition document registered for new sessions
/// (docs/TRANSITION-DOCUMENTS.md). The document is kept as sent; the daemon reads and checks it
/// (every error at once, each with its JSON pointer). The reply is empty.
public struct DefineRequest: Equatable, Sendable {
  /// The document, one JSON object as the client wrote it.
  public var document: String

  /// `document` must be a JSON object's text.
  public init(document: String) {
    self.document = document
  }
}

extension DefineRequest: OpRequest {
  public static let name = "define"
  public static let fields: [StaticString] = ["document"]
  public static let target = OpTarget.daemon
  public static let changesStepCost = false
  public var targetSession: String? { nil }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    guard let node = fields.node.member("document") else { throw fields.missing("document") }
    guard node.kind == .object else {
      throw wrongType(
        fields.fieldPath("document"), expected: "an object (a transition document)", got: node)
    }
    var writer = JSONWriter(capacity: 1024)
    writer.node(node)
    return Self(document: String(decoding: writer.bytes, as: UTF8.self))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.raw("document", document)
  }
}
