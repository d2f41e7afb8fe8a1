/// Constants of the protocol itself.
public enum WireProtocol {
  /// The protocol version reported by `hello` (protocol/PROTOCOL.md is version 1: its title and
  /// “hello”).
  public static let version = 1
  /// The `server` name reported by `hello`.
  public static let serverName = "dynd"
  /// Decimals written for positions, sizes, velocities and times (at most 3:
  /// protocol/PROTOCOL.md, “4. Values: numbers, names, geometry”).
  public static let linearDecimals = 3
  /// Decimals written for angles and angular velocities, and for transition `values`
  /// (protocol/PROTOCOL.md, “4. Values: numbers, names, geometry”: at most 6).
  public static let angularDecimals = 6
}
