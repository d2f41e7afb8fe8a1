/// `add_item`: add an item to a scene session. The reply is empty.
enum AddItemOp {
  static let fields: [StaticString] = ["session", "item"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    let session = try fields.requiredName("session")
    let item = try fields.requiredObject("item", owner: "an item")
    return .addItem(session: session, item: try ItemSpec(item))
  }

  static func write(_ item: ItemSpec, to encoder: inout RequestEncoder) {
    encoder.key("item")
    encoder.item(item)
  }
}
