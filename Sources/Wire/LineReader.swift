import Glibc

/// Splits a byte stream, fed in chunks of any size, into `\n`-terminated lines of bounded length.
///
/// The reader remembers how far it has already searched for a newline, so a line that arrives one
/// byte at a time costs linear, not quadratic, work (libevent's `evbuffer_readln` rescans from the
/// start on every call). Consumed bytes are dropped from the front only once they are at least half
/// the buffer, which keeps that cost amortised linear too.
///
/// A line longer than the limit is reported once as `.tooLong`, as soon as the limit is passed
/// (even before its newline arrives, so memory stays bounded); after that the reader discards all
/// input and returns `nil`, because the connection is going to be closed.
public struct LineReader: Sendable {
  /// One result of `nextLine()`.
  public enum Line: Equatable, Sendable {
    /// A complete line, without its `\n` (a `\r` before it is kept: JSON treats it as whitespace).
    case line([UInt8])
    /// The line exceeded the limit; the reader has stopped.
    case tooLong
  }

  /// Longest line accepted, in bytes, without the `\n`.
  public let maxLineBytes: Int
  /// Bytes examined while searching for newlines since creation; for tests and statistics.
  /// Stays proportional to the input size however the input is chunked.
  public private(set) var scannedByteCount = 0
  /// Bytes moved while compacting the buffer since creation; also proportional to the input.
  public private(set) var movedByteCount = 0
  /// True once `.tooLong` has been returned.
  public private(set) var hasFailed = false

  private var buffer: [UInt8] = []
  /// Start of the first unreturned line in `buffer`.
  private var lineStart = 0
  /// Where the search for the next newline resumes; everything before it holds no `\n`.
  private var scanOffset = 0

  /// Creates a reader that accepts lines of at most `maxLineBytes` bytes.
  public init(maxLineBytes: Int = Limits.defaultMaxLineBytes) {
    precondition(maxLineBytes > 0, "the line limit must be positive")
    self.maxLineBytes = maxLineBytes
  }

  /// Bytes held that do not yet form a complete line.
  public var pendingByteCount: Int { buffer.count - lineStart }

  /// Adds bytes read from the connection; ignored once the reader has failed.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard !hasFailed else { return }
    buffer.append(contentsOf: bytes)
  }

  /// Adds bytes read from the connection; ignored once the reader has failed.
  public mutating func append(_ bytes: [UInt8]) {
    guard !hasFailed else { return }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete line, `.tooLong` once when the limit is passed, or `nil` when more input
  /// is needed (or the reader has failed).
  public mutating func nextLine() -> Line? {
    switch findLine() {
    case .none: return nil
    case .tooLong: return .tooLong
    case .line(let range):
      let line = Array(buffer[range])
      consumeLine(endingAt: range.upperBound)
      return .line(line)
    }
  }

  /// What `withNextLine` found.
  public enum Borrowed<Value> {
    /// A complete line, and what the body made of it.
    case line(Value)
    /// The line exceeded the limit; the reader has stopped.
    case tooLong
  }

  /// Lends the next complete line (without its `\n`) to `body` without copying it, or returns
  /// `.tooLong` once when the limit is passed, or `nil` when more input is needed. The bytes are
  /// valid only inside `body`. For readers that must not allocate per line.
  public mutating func withNextLine<Value, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Value
  ) throws(Failure) -> Borrowed<Value>? {
    switch findLine() {
    case .none: return nil
    case .tooLong: return .tooLong
    case .line(let range):
      let outcome = buffer.withUnsafeBytes { bytes in
        Result { () throws(Failure) -> Value in
          try body(UnsafeRawBufferPointer(rebasing: bytes[range]))
        }
      }
      let value = try outcome.get()
      consumeLine(endingAt: range.upperBound)
      return .line(value)
    }
  }

  /// At the end of the input: lends what is held after the last `\n` (the peer's last line,
  /// unterminated) to `body` and empties the reader; nil when nothing is held or the reader has
  /// failed.
  public mutating func withRemainder<Value>(_ body: (UnsafeRawBufferPointer) -> Value) -> Value? {
    guard !hasFailed, pendingByteCount > 0 else { return nil }
    let value = buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[lineStart...])) }
    buffer.removeAll()
    lineStart = 0
    scanOffset = 0
    return value
  }

  /// What `lendNextLine` found.
  public enum Lent: Sendable {
    case line, tooLong
  }

  /// `withNextLine` for a body that returns nothing and does not throw: no generic work per
  /// line (a connection delivers each request through it).
  public mutating func lendNextLine(_ body: (UnsafeRawBufferPointer) -> Void) -> Lent? {
    switch findLine() {
    case .none: return nil
    case .tooLong: return .tooLong
    case .line(let range):
      buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
      consumeLine(endingAt: range.upperBound)
      return .line
    }
  }

  private enum Found {
    case none, tooLong
    /// The line's bytes in `buffer`; its `\n` is at `upperBound`.
    case line(Range<Int>)
  }

  /// Finds the next line without consuming it.
  private mutating func findLine() -> Found {
    guard !hasFailed else { return .none }
    let end = buffer.count
    let newline: Int? = buffer.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress, scanOffset < end else { return nil }
      guard let found = memchr(base + scanOffset, Int32(UInt8(ascii: "\n")), end - scanOffset)
      else { return nil }
      return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
    scannedByteCount += (newline.map { $0 + 1 } ?? end) - scanOffset
    guard let newline else {
      scanOffset = end
      if end - lineStart > maxLineBytes {
        _ = fail()
        return .tooLong
      }
      return .none
    }
    if newline - lineStart > maxLineBytes {
      _ = fail()
      return .tooLong
    }
    // Searched up to the newline; a repeated call finds it again at once.
    scanOffset = newline
    return .line(lineStart..<newline)
  }

  private mutating func consumeLine(endingAt newline: Int) {
    lineStart = newline + 1
    scanOffset = lineStart
    compactIfWorthwhile()
  }

  private mutating func fail() -> Line {
    hasFailed = true
    buffer = []
    lineStart = 0
    scanOffset = 0
    return .tooLong
  }

  /// Drops returned lines from the front once they make up half the buffer, so each byte is
  /// moved at most a constant number of times on average.
  private mutating func compactIfWorthwhile() {
    if lineStart == buffer.count {
      buffer.removeAll(keepingCapacity: true)
    } else if lineStart >= 4096, lineStart * 2 >= buffer.count {
      movedByteCount += buffer.count - lineStart
      buffer.removeSubrange(0..<lineStart)
    } else {
      return
    }
    scanOffset -= lineStart
    lineStart = 0
  }
}
