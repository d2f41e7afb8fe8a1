/// `add_group` (extension): add an item group; its members move as one rigid body from then on.
/// The reply is empty.
public struct AddGroupRequest: SessionOpRequest {
  public static let name = "add_group"
  public static let fields: [StaticString] = ["session", "group"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String
  public var group: GroupSpec

  public init(session: String, group: GroupSpec) {
    self.session = session
    self.group = group
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    let session = try fields.requiredName("session")
    let group = try fields.requiredObject("group", owner: "a group")
    return Self(session: session, group: try GroupSpec(group))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.key("group")
    encoder.object {
      $0.word("id", group.id)
      $0.names("items", group.items)
    }
  }
}
