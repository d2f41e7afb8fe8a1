/// `behaviors` (extension): a scene's behaviors in the order they were added, each with the
/// current value of every field `set_behavior` can set.
public struct BehaviorsRequest: SessionOpRequest {
  public static let name = "behaviors"
  public static let fields: [StaticString] = ["session"]
  public static let target = OpTarget.scene
  public static let changesStepCost = false
  public var session: String

  public init(session: String) { self.session = session }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(session: try fields.requiredName("session"))
  }

  public func write(to encoder: inout RequestEncoder) {}

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .behaviors(try ServerMessageDecoder.behaviorStates(fields))
  }
}
