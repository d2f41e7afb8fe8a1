/// The recorded-stroke formats dynd reads (docs/STROKES.md).
public enum StrokeFormat: String, CaseIterable, Sendable {
  /// Comma-separated `t,x,y` under a header naming the columns (any order).
  case csv
  /// JSON lines `{"t":…,"x":…,"y":…}`, or a `dynctl record` trace (its gesture).
  case jsonl
  /// The YAML `libinput record` writes.
  case libinput
  /// What Android's `adb shell getevent -lt` prints.
  case getevent

  /// The format a file's extension names: `.csv`; `.jsonl`, `.ndjson`, `.json`; `.yml`,
  /// `.yaml`; `.getevent`. Nil for any other (then the format must be named).
  public init?(path: String) {
    guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
    switch path[path.index(after: dot)...].lowercased() {
    case "csv": self = .csv
    case "jsonl", "ndjson", "json": self = .jsonl
    case "yml", "yaml": self = .libinput
    case "getevent": self = .getevent
    default: return nil
    }
  }
}

/// Why a samples file could not be read: the line (1-based) and what was expected there.
public struct StrokeReadError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The line the reader stopped at; for what is missing at the end, the last line.
  public var line: Int
  public var message: String

  public init(line: Int, _ message: String) {
    self.line = line
    self.message = message
  }

  public var description: String { "line \(line): \(message)" }
}
