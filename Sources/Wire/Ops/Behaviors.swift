/// `behaviors` (extension): a scene's behaviors in the order they were added, each with the
/// current value of every field `set_behavior` can set.
public struct BehaviorsRequest: SessionOnlyOpRequest {
  public static let name = "behaviors"
  public static let target = OpTarget.scene
  public static let changesStepCost = false
  public var session: String

  public init(session: String) { self.session = session }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .behaviors(try ServerMessageDecoder.behaviorStates(fields))
  }
}
