import Primitives

/// `tap`: a tap at a point.
public struct TapRequest: Equatable, Sendable {
  public var session: String
  public var point: Point

  public init(session: String, point: Point) {
    self.session = session
    self.point = point
  }
}

/// The reply's `taken` (extension) says whether the transition took the tap.
extension TapRequest: SessionOpRequest {
  public static let name = "tap"
  public static let fields: [StaticString] = ["session", "x", "y"]
  public static let target = OpTarget.transition
  public static let changesStepCost = false

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"),
      point: try fields.requiredPair("x", "y", in: Limits.coordinate, Point.init))
  }

  public func write(to encoder: inout RequestEncoder) {
    encoder.number("x", point.x)
    encoder.number("y", point.y)
  }

  /// `tap` and `swipe`: `taken`, absent from a daemon without the extension.
  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    guard fields.has("taken") else { return .empty }
    return .input(taken: try fields.bool("taken"))
  }
}
