/// A resting height of a sheet: its name (the `done` outcome) and how much of the sheet shows
/// above the bottom edge of the bounds, in points.
public struct Detent: Equatable, Sendable {
  public let name: String
  public let height: Double

  public init(_ name: String, height: Double) {
    self.name = name
    self.height = height
  }
}

/// A sheet's detents, lowest first. Their names say nothing of their order: each is a height.
public struct Detents: Equatable, Sendable {
  public let all: [Detent]

  /// `detents` sorted lowest first; nil unless there is at least one and no two are at the
  /// same height (which of them would the sheet rest at?).
  public init?(_ detents: [Detent]) {
    let sorted = detents.sorted { $0.height < $1.height }
    guard !sorted.isEmpty, zip(sorted, sorted.dropFirst()).allSatisfy({ $0.height < $1.height })
    else { return nil }
    all = sorted
  }

  /// From the lowest detent to the highest: where the sheet moves 1:1 with the finger.
  public var span: ClosedRange<Double> { all.first!.height...all.last!.height }

  /// The detent nearest to `height`; of two as near, the lower one.
  public func nearest(to height: Double) -> Detent {
    all.min { abs($0.height - height) < abs($1.height - height) }!
  }

  public func named(_ name: String) -> Detent? { all.first { $0.name == name } }
}
