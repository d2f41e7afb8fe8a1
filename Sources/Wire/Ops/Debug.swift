/// `debug`: with each frame of the session this connection receives, also send the behaviors as
/// geometry (or stop, with `enable` false). With `enable` true the reply carries the geometry now.
public struct DebugRequest: SessionOpRequest {
  public static let name = "debug"
  public static let fields: [StaticString] = ["session", "enable"]
  public static let target = OpTarget.session
  public static let changesStepCost = false
  public var session: String
  /// False stops the geometry.
  public var enable: Bool

  public init(session: String, enable: Bool = defaultEnable) {
    self.session = session
    self.enable = enable
  }

  public static let defaultEnable = true
  public static var defaults: [FieldDefault] { [FieldDefault("enable", .bool(defaultEnable))] }

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self {
    Self(
      session: try fields.requiredName("session"),
      enable: try fields.bool("enable") ?? defaultEnable)
  }

  public func write(to encoder: inout RequestEncoder) {
    if enable != Self.defaultEnable { encoder.bool("enable", enable) }
  }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    guard fields.has("debug") else { return .empty }
    return .debug(try ServerMessageDecoder.debugGeometry(try fields.object("debug")))
  }
}
