/// `get`: the session's time, running state and items, with sizes, shapes and (extension) the
/// transition's details.
public struct GetRequest: SessionOnlyOpRequest {
  public static let name = "get"
  public static let target = OpTarget.session
  public static let changesStepCost = false
  public var session: String

  public init(session: String) { self.session = session }

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .get(
      t: try fields.number("t"), running: try fields.bool("running"),
      items: try ServerMessageDecoder.itemStates(fields, "items"),
      details: try ServerMessageDecoder.sessionDetails(fields))
  }
}

extension MessageEncoder {
  /// `get`: `t`, `running` and the items with their sizes and shapes.
  public mutating func getReply(
    id: RequestID?, t: Double, running: Bool, items: [ItemState],
    details: SessionDetails = SessionDetails()
  ) {
    reply(
      id: id,
      [
        .number("t", t, decimals: WireProtocol.timeDecimals), .bool("running", running),
        .items("items", items, size: true, shape: true),
      ]
        + details.fields)
  }
}
