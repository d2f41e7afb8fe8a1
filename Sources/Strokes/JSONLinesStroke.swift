import JSON

/// A JSON-lines stroke: one object a line with numbers `t` (seconds), `x` and `y` (points);
/// other members are ignored, blank lines skipped. Or a `dynctl record` trace (its first line
/// the header `{"trace":1,…}`): the samples are the gesture requests dynctl sent
/// (`{"sent":{"op":"gesture","phase":…,"x":…,"y":…,"t":…}}`) from the first `began` to its
/// `ended` or `cancelled`.
enum JSONLinesStroke {
  static func read(_ text: String) throws(StrokeReadError) -> Stroke {
    let lines = TextLines(text: text)
    let parser = JSONParser(maxDepth: 64)
    var samples: [StrokeSample] = []
    var trace = false
    var pan = PanState.before
    for (number, line) in lines.numbered where !line.trimmingSpaces.isEmpty {
      let value: JSONValue
      do throws(JSONSyntaxError) {
        value = try parser.parse(String(line))
      } catch {
        throw StrokeReadError(line: number, "expected a JSON object: \(error.message)")
      }
      guard case .object = value else {
        throw StrokeReadError(line: number, "expected a JSON object, found \(value.jsonText)")
      }
      if samples.isEmpty, !trace, value["trace"] != nil {
        trace = true
        continue
      }
      if !trace {
        samples.append(try sample(value, line: number, what: ""))
        continue
      }
      guard pan != .after, let sent = value["sent"], sent["op"]?.string == "gesture" else {
        continue
      }
      let phase = sent["phase"]?.string
      if pan == .before, phase != "began" { continue }
      pan = phase == "ended" || phase == "cancelled" ? .after : .during
      samples.append(try sample(sent, line: number, what: "the trace's gesture "))
    }
    if trace, samples.isEmpty {
      throw StrokeReadError(
        line: lines.last,
        "expected a gesture in the trace ({\"sent\":{\"op\":\"gesture\",…}} lines from a "
          + "`dynctl record … --pan` or `--samples`), found none")
    }
    return try checkedStroke(samples, lines)
  }

  private enum PanState { case before, during, after }

  private static func sample(_ object: JSONValue, line: Int, what: String) throws(StrokeReadError)
    -> StrokeSample
  {
    func number(_ name: String) throws(StrokeReadError) -> Double {
      guard let value = object[name]?.number else {
        let found = object[name].map { "found \($0.jsonText)" } ?? "it is missing"
        throw StrokeReadError(line: line, "expected a number for \(what)\"\(name)\": \(found)")
      }
      return value
    }
    return StrokeSample(t: try number("t"), x: try number("x"), y: try number("y"))
  }
}
