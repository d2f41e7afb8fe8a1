/// `watch`: also send this session's events to this connection. The reply carries the items
/// (without sizes) and, as extensions, `t`, `running` and `outcome`.
public struct WatchRequest: SessionOnlyOpRequest {
  public static let name = "watch"
  public static let target = OpTarget.session
  public static let changesStepCost = false
  public var session: String

  public init(session: String) { self.session = session }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .watch(
      t: try fields.number("t"), running: try fields.bool("running"),
      outcome: try fields.nullableString("outcome"),
      items: try ServerMessageDecoder.itemStates(fields, "items"))
  }
}

extension MessageEncoder {
  /// `watch`: the items (without sizes), then `t`, `running` and `outcome` (null when none).
  public mutating func watchReply(
    id: RequestID?, t: Double, running: Bool, outcome: String?, items: [ItemState]
  ) {
    reply(
      id: id,
      [
        .items("items", items, size: false), .number("t", t, decimals: WireProtocol.timeDecimals),
        .bool("running", running),
        ReplyField("outcome", outcome.map { .string($0) } ?? .null),
      ])
  }
}
