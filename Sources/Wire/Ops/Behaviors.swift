/// `behaviors` (extension): a scene's behaviors in the order they were added, each with the
/// current value of every field `set_behavior` can set.
enum BehaviorsOp {
  static let fields: [StaticString] = ["session"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .behaviors(session: try fields.requiredName("session"))
  }

  static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .behaviors(try ServerMessageDecoder.behaviorStates(fields))
  }
}
