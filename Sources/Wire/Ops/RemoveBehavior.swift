/// `remove_behavior`: remove a behavior by id. The reply is empty.
public struct RemoveBehaviorRequest: SessionOpRequest {
  public static let name = "remove_behavior"
  public static let fields: [StaticString] = ["session", "behavior"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String
  public var behavior: String

  public init(session: String, behavior: String) {
    self.session = session
    self.behavior = behavior
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"), behavior: try fields.requiredName("behavior"))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("behavior", behavior)
  }
}
