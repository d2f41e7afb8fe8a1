import Primitives

/// One sample of a recorded stroke: when (seconds, on the recording's clock) and where (points).
public struct StrokeSample: Equatable, Sendable {
  public var t: Double
  public var point: Point

  public init(t: Double, x: Double, y: Double) {
    self.t = t
    self.point = Point(x: x, y: y)
  }
}

/// A recorded stroke, its samples in the file's order: the first is where the finger went down,
/// the last where and when it lifted (a replay sends them as `began`, `changed` …, `ended`).
///
/// Times are kept as recorded, even where they repeat or go backwards: the daemon's estimator
/// has one rule for those (protocol/PROTOCOL.md, *The release-velocity estimator*, rule 2: a
/// sample older than the newest kept is dropped, one at the same time replaces it), and a replay
/// sends them for it to apply. `repeatedTimes` and `backwardTimes` count them for the summary.
public struct Stroke: Equatable, Sendable {
  public var samples: [StrokeSample]

  public init(_ samples: [StrokeSample]) { self.samples = samples }

  /// Seconds from the first sample to the last.
  public var duration: Double {
    guard let first = samples.first, let last = samples.last else { return 0 }
    return last.t - first.t
  }

  /// The smallest rectangle that holds every sample.
  public var span: Rect {
    let xs = samples.map(\.point.x)
    let ys = samples.map(\.point.y)
    guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max()
    else { return Rect(x: 0, y: 0, width: 0, height: 0) }
    return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
  }

  /// Samples whose time equals the one before.
  public var repeatedTimes: Int { pairs.filter { $0.1.t == $0.0.t }.count }
  /// Samples whose time is before the one before.
  public var backwardTimes: Int { pairs.filter { $0.1.t < $0.0.t }.count }

  private var pairs: Zip2Sequence<[StrokeSample], ArraySlice<StrokeSample>> {
    zip(samples, samples.dropFirst())
  }
}
