/// `add_group` (extension): add an item group; its members move as one rigid body from then on.
/// The reply is empty.
enum AddGroupOp {
  static let fields: [StaticString] = ["session", "group"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    let session = try fields.requiredName("session")
    let group = try fields.requiredObject("group", owner: "a group")
    return .addGroup(session: session, group: try GroupSpec(group))
  }

  static func write(_ group: GroupSpec, to encoder: inout RequestEncoder) {
    encoder.key("group")
    encoder.object {
      $0.word("id", group.id)
      $0.names("items", group.items)
    }
  }
}
