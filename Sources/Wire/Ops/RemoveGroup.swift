/// `remove_group` (extension): remove an item group by id; its members move on their own. The
/// reply is empty.
enum RemoveGroupOp {
  static let fields: [StaticString] = ["session", "group"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .removeGroup(
      session: try fields.requiredName("session"), group: try fields.requiredName("group"))
  }

  static func write(group: String, to encoder: inout RequestEncoder) {
    encoder.word("group", group)
  }
}
