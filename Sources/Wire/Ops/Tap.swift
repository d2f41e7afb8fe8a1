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
enum TapOp {
  static let fields: [StaticString] = ["session", "x", "y"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .tap(
      TapRequest(
        session: try fields.requiredName("session"),
        point: try fields.requiredPair("x", "y", in: Limits.coordinate, Point.init)))
  }

  static func write(_ tap: TapRequest, to encoder: inout RequestEncoder) {
    encoder.number("x", tap.point.x)
    encoder.number("y", tap.point.y)
  }

  /// `tap` and `swipe`: `taken`, absent from a daemon without the extension.
  static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    guard fields.has("taken") else { return .empty }
    return .input(taken: try fields.bool("taken"))
  }
}
