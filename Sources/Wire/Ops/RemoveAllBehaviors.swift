/// `remove_all_behaviors`: remove every behavior. The reply is empty.
enum RemoveAllBehaviorsOp {
  static let fields: [StaticString] = ["session"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .removeAllBehaviors(session: try fields.requiredName("session"))
  }
}
