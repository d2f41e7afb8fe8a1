/// A CSV stroke: a header naming the columns `t`, `x` and `y` in any order (other columns are
/// ignored), then one sample a line: t in seconds, x and y in points. Blank lines are skipped;
/// fields are plain numbers (no quoting).
enum CSVStroke {
  /// The header: how many columns it names, and where `t`, `x` and `y` are.
  private struct Header {
    let columns: Int
    let t: Int
    let x: Int
    let y: Int
  }

  static func read(_ text: String) throws(StrokeReadError) -> Stroke {
    let lines = TextLines(text: text)
    var header: Header?
    var samples: [StrokeSample] = []
    for (number, line) in lines.numbered where !line.trimmingSpaces.isEmpty {
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard let named = header else {
        header = try Self.header(fields, line: number)
        continue
      }
      guard fields.count == named.columns else {
        throw StrokeReadError(
          line: number,
          "expected \(named.columns) columns, as the header names, found \(fields.count)")
      }
      samples.append(
        StrokeSample(
          t: try finiteNumber(fields[named.t], "t", line: number),
          x: try finiteNumber(fields[named.x], "x", line: number),
          y: try finiteNumber(fields[named.y], "y", line: number)))
    }
    return try checkedStroke(samples, lines)
  }

  private static func header(_ fields: [Substring], line: Int) throws(StrokeReadError) -> Header {
    let names = fields.map { $0.trimmingSpaces.lowercased() }
    guard let t = names.firstIndex(of: "t"), let x = names.firstIndex(of: "x"),
      let y = names.firstIndex(of: "y")
    else {
      throw StrokeReadError(
        line: line,
        "expected a header naming the columns t, x and y, found '\(names.joined(separator: ","))'")
    }
    return Header(columns: fields.count, t: t, x: x, y: y)
  }
}
