/// One field of a reply body, for replies beyond the typed ones of `MessageEncoder`.
///
/// ```swift
/// encoder.reply(id: request.id, [.string("session", name), .items("items", states, size: true)])
/// ```
public struct ReplyField: Sendable {
  public var name: String
  public var value: ReplyValue

  public init(_ name: String, _ value: ReplyValue) {
    self.name = name
    self.value = value
  }

  public static func string(_ name: String, _ value: String) -> ReplyField {
    ReplyField(name, .string(value))
  }

  /// A number with `decimals` decimals (default: those of positions and times).
  public static func number(
    _ name: String, _ value: Double, decimals: Int = WireProtocol.linearDecimals
  ) -> ReplyField {
    ReplyField(name, .number(value, decimals: decimals))
  }

  public static func integer(_ name: String, _ value: Int) -> ReplyField {
    ReplyField(name, .integer(value))
  }

  public static func bool(_ name: String, _ value: Bool) -> ReplyField {
    ReplyField(name, .bool(value))
  }

  public static func strings(_ name: String, _ values: [String]) -> ReplyField {
    ReplyField(name, .strings(values))
  }

  /// Item states, with their sizes when `size` is true and their shapes (other than
  /// rectangles) when `shape` is.
  public static func items(
    _ name: String, _ states: [ItemState], size: Bool, shape: Bool = false
  ) -> ReplyField {
    ReplyField(name, .items(states, size: size, shape: shape))
  }
}

/// A value in a reply body.
public enum ReplyValue: Sendable {
  case null
  case bool(Bool)
  case integer(Int)
  /// Written with at most `decimals` decimals (0…9); non-finite is written `0` and counted.
  case number(Double, decimals: Int)
  case string(String)
  case strings([String])
  case items([ItemState], size: Bool, shape: Bool)
  case array([ReplyValue])
  case object([ReplyField])
  /// JSON text this encoder wrote before, appended verbatim (a value that seldom changes and is
  /// costly to write again, such as hello's parameter tables).
  case encoded([UInt8])
}
