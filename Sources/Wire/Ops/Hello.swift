/// `hello`: the daemon describes itself. No fields; the reply carries `protocol`, `server`,
/// `version`, `transitions` and (extension) `parameters`.
public struct HelloRequest: OpRequest {
  public static let name = "hello"
  public static let fields: [StaticString] = []
  public static let target = OpTarget.daemon
  public static let changesStepCost = false
  public var targetSession: String? { nil }

  public init() {}

  public static func read(_ fields: ObjectReader) throws(ProtocolError) -> Self { Self() }

  public func write(to encoder: inout RequestEncoder) {}

  public static func readReply(_ fields: MessageFields) throws(ProtocolError) -> ReplyBody {
    .hello(
      protocol: try fields.integer("protocol"), server: try fields.string("server"),
      version: try fields.string("version"), transitions: try fields.strings("transitions"),
      parameters: try ServerMessageDecoder.parameterTables(fields))
  }
}

extension MessageEncoder {
  /// `hello`: `protocol`, `server`, `version`, `transitions`.
  public mutating func helloReply(id: RequestID?, version: String, transitions: [String]) {
    helloReply(
      id: id, protocol: WireProtocol.version, server: WireProtocol.serverName, version: version,
      transitions: transitions, parameters: [])
  }

  mutating func helloReply(
    id: RequestID?, protocol proto: Int, server: String, version: String, transitions: [String],
    parameters: [ParameterTable]
  ) {
    var fields: [ReplyField] = [
      .integer("protocol", proto), .string("server", server), .string("version", version),
      .strings("transitions", transitions),
    ]
    if !parameters.isEmpty {
      fields.append(ReplyField("parameters", ParameterTable.encodedReplyValue(parameters)))
    }
    reply(id: id, fields)
  }
}
