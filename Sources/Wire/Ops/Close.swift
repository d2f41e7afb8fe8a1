/// `close`: end the session. The reply is empty.
enum CloseOp {
  static let fields: [StaticString] = ["session"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .close(session: try fields.requiredName("session"))
  }
}
