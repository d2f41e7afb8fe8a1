/// `add_behavior`: add a behavior; the reply carries its id as `behavior`.
public struct AddBehaviorRequest: SessionOpRequest {
  public static let name = "add_behavior"
  public static let fields: [StaticString] = ["session", "behavior"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String
  public var behavior: BehaviorSpec

  public init(session: String, behavior: BehaviorSpec) {
    self.session = session
    self.behavior = behavior
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    let session = try fields.requiredName("session")
    let behavior = try fields.requiredObject("behavior", owner: "a behavior")
    return Self(session: session, behavior: try BehaviorSpec(behavior))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.key("behavior")
    encoder.behavior(behavior)
  }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .addBehavior(behavior: try fields.string("behavior"))
  }
}

extension MessageEncoder {
  /// `add_behavior`: the behavior's id as `behavior` (`id` is the request's).
  public mutating func addBehaviorReply(id: RequestID?, behavior: String) {
    reply(id: id, [.string("behavior", behavior)])
  }
}
