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
