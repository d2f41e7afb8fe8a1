import Primitives

/// `set_bounds` (extension): new reference bounds, `[w, h]` or `[x, y, w, h]` as a scene's;
/// `null` removes them (an animator without reference bounds). The reply is empty.
enum SetBoundsOp {
  static let fields: [StaticString] = ["session", "bounds"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    let session = try fields.requiredName("session")
    if fields.isNull("bounds") { return .setBounds(session: session, bounds: nil) }
    guard let bounds = try fields.rect("bounds") else { throw fields.missing("bounds") }
    return .setBounds(session: session, bounds: bounds)
  }

  static func write(_ bounds: Rect?, to encoder: inout RequestEncoder) {
    if let bounds {
      encoder.rect("bounds", bounds)
    } else {
      encoder.key("bounds")
      encoder.null()
    }
  }
}
