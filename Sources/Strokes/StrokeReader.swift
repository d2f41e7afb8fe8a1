/// Reads a recorded stroke (docs/STROKES.md): the samples of `text` in `format`, device units
/// converted to points as `units` says. Errors name the line and what was expected there.
public enum StrokeReader {
  public static func read(_ text: String, format: StrokeFormat, units: StrokeUnits = StrokeUnits())
    throws(StrokeReadError) -> Stroke
  {
    switch format {
    case .csv: try CSVStroke.read(text)
    case .jsonl: try JSONLinesStroke.read(text)
    case .libinput: try LibinputRecord.read(text, units: units)
    case .getevent: try GeteventLog.read(text, units: units)
    }
  }
}
