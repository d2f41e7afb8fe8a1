/// `remove_all_behaviors`: remove every behavior. The reply is empty.
public struct RemoveAllBehaviorsRequest: SessionOpRequest {
  public static let name = "remove_all_behaviors"
  public static let fields: [StaticString] = ["session"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String

  public init(session: String) { self.session = session }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(session: try fields.requiredName("session"))
  }

  public func write(to encoder: inout RequestEncoder) {}
}
