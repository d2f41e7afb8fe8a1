/// Constants of the protocol itself.
public enum WireProtocol {
  /// The protocol version reported by `hello` (protocol/PROTOCOL.md is version 1: its title and
  /// “hello”).
  public static let version = 1
  /// The `server` name reported by `hello`.
  public static let serverName = "dynd"
  /// Decimals written for positions, sizes and velocities (at most 3:
  /// protocol/PROTOCOL.md, “4. Values: numbers, names, geometry”).
  public static let linearDecimals = 3
  /// Decimals written for times (`t`): 6, a microsecond, so that a frame of any rate names its
  /// own time (1/144 s is 0.006944, not the nearest millisecond).
  public static let timeDecimals = 6
  /// Decimals written for angles and angular velocities, and for transition `values`
  /// (protocol/PROTOCOL.md, “4. Values: numbers, names, geometry”: at most 6).
  public static let angularDecimals = 6
}
