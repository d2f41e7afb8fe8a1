/// `remove_behavior`: remove a behavior by id. The reply is empty.
enum RemoveBehaviorOp {
  static let fields: [StaticString] = ["session", "behavior"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .removeBehavior(
      session: try fields.requiredName("session"), behavior: try fields.requiredName("behavior"))
  }

  static func write(behavior: String, to encoder: inout RequestEncoder) {
    encoder.word("behavior", behavior)
  }
}
