extension JSONValue {
  /// The value as one line of JSON, members in order, strings escaped as the daemon escapes
  /// them. Numbers are written with up to 9 decimals, trailing zeros trimmed (`160`, `0.5`), so
  /// what a client writes reads back as the value it meant; `-0` is written `0`.
  public var jsonText: String {
    var writer = JSONWriter(capacity: 64)
    writer.value(self)
    return String(decoding: writer.bytes, as: UTF8.self)
  }
}

extension JSONWriter {
  public mutating func value(_ value: JSONValue) {
    switch value {
    case .null: raw("null")
    case .bool(let flag): bool(flag)
    case .number(let number): self.number(number, decimals: 9)
    case .string(let text): string(text)
    case .array(let elements):
      byte("[")
      for (index, element) in elements.enumerated() {
        if index > 0 { byte(",") }
        self.value(element)
      }
      byte("]")
    case .object(let members):
      byte("{")
      for (index, member) in members.enumerated() {
        if index > 0 { byte(",") }
        string(member.name)
        byte(":")
        self.value(member.value)
      }
      byte("}")
    }
  }
}
