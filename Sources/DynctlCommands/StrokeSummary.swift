import JSON
import Strokes

extension Stroke {
  /// What `--samples` read, in a line: sample count, duration, start and end, span, and the
  /// times that repeat or go backwards with what the estimator does with them.
  func summary(of file: String, as format: StrokeFormat) -> String {
    func n(_ value: Double) -> String { JSONValue.number((value * 1000).rounded() / 1000).jsonText }
    let first = samples[0].point
    let last = samples[samples.count - 1].point
    var line =
      "read \(samples.count) samples (\(format.rawValue)) from \(file): \(n(duration)) s, "
      + "(\(n(first.x)), \(n(first.y))) to (\(n(last.x)), \(n(last.y))), "
      + "span \(n(span.size.width)) × \(n(span.size.height)) pt"
    if repeatedTimes + backwardTimes > 0 {
      line +=
        "; times: \(repeatedTimes) repeated, \(backwardTimes) going back (sent as recorded: the "
        + "platform estimator keeps the later of two equal times and drops a sample older than "
        + "the newest)"
    }
    return line
  }
}
