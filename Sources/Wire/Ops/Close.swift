/// `close`: end the session. The reply is empty.
public struct CloseRequest: SessionOpRequest {
  public static let name = "close"
  public static let fields: [StaticString] = ["session"]
  public static let target = OpTarget.session
  public static let changesStepCost = false
  public var session: String

  public init(session: String) { self.session = session }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(session: try fields.requiredName("session"))
  }

  public func write(to encoder: inout RequestEncoder) {}
}
