import Primitives

/// `set_bounds` (extension): new reference bounds, `[w, h]` or `[x, y, w, h]` as a scene's;
/// `null` removes them (an animator without reference bounds). The reply is empty.
public struct SetBoundsRequest: SessionOpRequest {
  public static let name = "set_bounds"
  public static let fields: [StaticString] = ["session", "bounds"]
  public static let target = OpTarget.scene
  public static let changesStepCost = true
  public var session: String
  /// nil: no reference bounds.
  public var bounds: Rect?

  public init(session: String, bounds: Rect?) {
    self.session = session
    self.bounds = bounds
  }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    let session = try fields.requiredName("session")
    if fields.isNull("bounds") { return Self(session: session, bounds: nil) }
    guard let bounds = try fields.rect("bounds") else { throw fields.missing("bounds") }
    return Self(session: session, bounds: bounds)
  }

  public func write(to encoder: inout RequestEncoder) {
    if let bounds {
      encoder.rect("bounds", bounds)
    } else {
      encoder.key("bounds")
      encoder.null()
    }
  }
}
