import Primitives

extension NumberRange {
  /// The wire range equal to one of the engine's (`PropertyRanges`), so that the protocol
  /// accepts exactly what the engine keeps.
  public init(_ engineRange: ClosedRange<Double>) {
    self = .closed(engineRange.lowerBound, engineRange.upperBound)
  }
}
