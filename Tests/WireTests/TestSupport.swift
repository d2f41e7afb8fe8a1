import Wire

/// Decodes `line` and returns the error it was rejected with, or `nil` if it decoded.
func rejection(_ line: String) -> ProtocolError? {
  rejection(Array(line.utf8))
}

/// Decodes `bytes` and returns the error it was rejected with, or `nil` if it decoded.
func rejection(_ bytes: [UInt8]) -> ProtocolError? {
  do {
    _ = try RequestDecoder().decode(bytes)
    return nil
  } catch {
    return error.error
  }
}

/// Decodes a line that must be valid; returns `nil` (and the test fails on the `#require`) if not.
func decoded(_ line: String) throws(RejectedRequest) -> Request {
  try RequestDecoder().decode(line)
}

/// The encoder's output as a string.
func text(_ encoder: MessageEncoder) -> String {
  String(decoding: encoder.bytes, as: UTF8.self)
}

/// A small deterministic random generator (SplitMix64), so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
