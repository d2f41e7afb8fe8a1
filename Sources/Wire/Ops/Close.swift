/// `close`: end the session. The reply is empty.
public struct CloseRequest: SessionOnlyOpRequest {
  public static let name = "close"
  public static let target = OpTarget.session
  public static let changesStepCost = false
  public var session: String

  public init(session: String) { self.session = session }
}
