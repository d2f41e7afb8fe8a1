/// `add_behavior`: add a behavior; the reply carries its id as `behavior`.
enum AddBehaviorOp {
  static let fields: [StaticString] = ["session", "behavior"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    let session = try fields.requiredName("session")
    let behavior = try fields.requiredObject("behavior", owner: "a behavior")
    return .addBehavior(session: session, behavior: try BehaviorSpec(behavior))
  }

  static func write(_ behavior: BehaviorSpec, to encoder: inout RequestEncoder) {
    encoder.key("behavior")
    encoder.behavior(behavior)
  }

  static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .addBehavior(behavior: try fields.string("behavior"))
  }
}

extension MessageEncoder {
  /// `add_behavior`: the behavior's id as `behavior` (`id` is the request's).
  public mutating func addBehaviorReply(id: RequestID?, behavior: String) {
    reply(id: id, [.string("behavior", behavior)])
  }
}
