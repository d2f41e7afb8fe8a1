/// A file's lines, numbered from 1, with `\r\n` endings accepted.
struct TextLines {
  let lines: [Substring]

  init(text: String) {
    var all = text.split(separator: "\n", omittingEmptySubsequences: false)
    if all.last == "" { all.removeLast() }
    lines = all.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
  }

  /// The number of the last line (1 for an empty file): where what is missing is reported.
  var last: Int { Swift.max(1, lines.count) }

  /// Each line with its number.
  var numbered: [(number: Int, text: Substring)] {
    lines.enumerated().map { (number: $0.offset + 1, text: $0.element) }
  }
}

/// A finite number from a field's text, or an error naming the line and the field.
func finiteNumber(_ text: Substring, _ what: String, line: Int) throws(StrokeReadError) -> Double {
  let trimmed = text.trimmingSpaces
  guard let value = Double(trimmed), value.isFinite else {
    throw StrokeReadError(line: line, "expected a finite number for \(what), found '\(trimmed)'")
  }
  return value
}

extension Substring {
  var trimmingSpaces: Substring {
    var s = self
    while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
    while let c = s.last, c == " " || c == "\t" { s.removeLast() }
    return s
  }
}

/// At least two samples, a down and a lift; the error names the file's last line.
func checkedStroke(_ samples: [StrokeSample], _ lines: TextLines) throws(StrokeReadError)
  -> Stroke
{
  guard samples.count >= 2 else {
    throw StrokeReadError(
      line: lines.last,
      "expected at least two samples (where the finger went down and where it lifted), "
        + "found \(samples.count)")
  }
  return Stroke(samples)
}
