/// `debug`: with each frame of the session this connection receives, also send the behaviors as
/// geometry (or stop, with `enable` false). With `enable` true the reply carries the geometry now.
enum DebugOp {
  static let fields: [StaticString] = ["session", "enable"]

  static func read(_ fields: ObjectReader) throws(ProtocolError) -> Op {
    .debug(session: try fields.requiredName("session"), enable: try fields.bool("enable") ?? true)
  }

  static func write(enable: Bool, to encoder: inout RequestEncoder) {
    if !enable { encoder.bool("enable", false) }
  }

  static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    guard fields.has("debug") else { return .empty }
    return .debug(try ServerMessageDecoder.debugGeometry(try fields.object("debug")))
  }
}
