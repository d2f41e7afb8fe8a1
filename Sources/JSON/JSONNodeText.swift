extension JSONWriter {
  /// Writes `node` back as JSON text: members in wire order, numbers exactly as the client wrote
  /// them (`JSONNode.numberText`), strings escaped as the daemon escapes them. A request keeps
  /// part of itself this way when it can only be read later (`set_behavior`'s fields, read once
  /// the behavior's type is known).
  public mutating func node(_ node: JSONNode) {
    switch node.kind {
    case .null: raw("null")
    case .bool: bool(node.bool)
    case .number: bytes.append(contentsOf: node.numberText.utf8)
    case .string: string(node.string)
    case .array:
      byte("[")
      for index in 0..<node.count {
        if index > 0 { byte(",") }
        self.node(node[index])
      }
      byte("]")
    case .object:
      byte("{")
      var first = true
      node.forEachMember { (key, value) in
        if !first { byte(",") }
        first = false
        string(String(decoding: key, as: UTF8.self))
        byte(":")
        self.node(value)
      }
      byte("}")
    }
  }
}
