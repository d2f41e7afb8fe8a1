/// A line a client might send, and the error code (its wire word) it must be answered with: the
/// one type of the bad-input corpora of the codec (`WireTests`), the embedded host
/// (`SessionHostTests`) and the daemon's framing-sensitive lines (`DaemonTests`).
public struct BadLine: Sendable, CustomStringConvertible {
  public let label: String
  public let bytes: [UInt8]
  public let code: String

  public init(_ label: String, _ line: String, _ code: String) {
    self.init(label, bytes: Array(line.utf8), code)
  }

  public init(_ label: String, bytes: [UInt8], _ code: String) {
    self.label = label
    self.bytes = bytes
    self.code = code
  }

  public var description: String { "\(label) → \(code)" }
}
