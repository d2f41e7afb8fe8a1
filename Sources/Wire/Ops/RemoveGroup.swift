/// `remove_group` (extension): remove an item group by id; its members move on their own. The
/// reply is empty.
public struct RemoveGroupRequest: SessionOpRequest {
  public static let name = "remove_group"
  public static let fields: [StaticString] = ["session", "group"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String
  public var group: String

  public init(session: String, group: String) {
    self.session = session
    self.group = group
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(session: try fields.requiredName("session"), group: try fields.requiredName("group"))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.word("group", group)
  }
}
