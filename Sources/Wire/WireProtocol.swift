/// Constants of the protocol itself.
public enum WireProtocol {
  /// The protocol version reported by `hello` (PROTOCOL-CORE is version 1).
  public static let version = 1
  /// The `server` name reported by `hello`.
  public static let serverName = "dynd"
  /// Decimals written for positions, sizes, velocities and times (PROTOCOL-CORE: at most 3).
  public static let linearDecimals = 3
  /// Decimals written for angles and angular velocities, and for transition `values`
  /// (PROTOCOL-CORE: at most 6 for angles).
  public static let angularDecimals = 6
}
