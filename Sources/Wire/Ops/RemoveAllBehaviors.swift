/// `remove_all_behaviors`: remove every behavior. The reply is empty.
public struct RemoveAllBehaviorsRequest: SessionOnlyOpRequest {
  public static let name = "remove_all_behaviors"
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String

  public init(session: String) { self.session = session }
}
