/// `remove_item`: remove an item by id. The reply is empty.
enum RemoveItemOp {
  static let fields: [StaticString] = ["session", "item"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .removeItem(
      session: try fields.requiredName("session"), item: try fields.requiredName("item"))
  }

  static func write(item: String, to encoder: inout RequestEncoder) {
    encoder.word("item", item)
  }
}
