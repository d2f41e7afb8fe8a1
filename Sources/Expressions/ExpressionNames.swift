/// The names an expression may use, each with its slot in the values it is evaluated against and
/// the range of values it may take (what `ExpressionIntervals` proves safety over).
public struct ExpressionNames: Sendable {
  public struct Entry: Sendable {
    public let name: String
    public let range: ClosedRange<Double>
  }

  public private(set) var entries: [Entry] = []
  private var slots: [String: Int] = [:]

  public init() {}

  /// Adds `name`, which takes values in `range`; its slot is the next one.
  @discardableResult
  public mutating func add(_ name: String, in range: ClosedRange<Double>) -> Int {
    if let slot = slots[name] { return slot }
    slots[name] = entries.count
    entries.append(Entry(name: name, range: range))
    return entries.count - 1
  }

  public func slot(of name: String) -> Int? { slots[name] }

  /// The names closest to `name`, for a message (at most three, by edit distance ≤ 2).
  func suggestions(for name: String) -> [String] {
    entries.map(\.name)
      .map { ($0, editDistance($0, name)) }
      .filter { $0.1 <= 2 }
      .sorted { $0.1 < $1.1 }
      .prefix(3)
      .map(\.0)
  }
}

/// The Levenshtein distance between two names.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a.utf8)
  let b = Array(b.utf8)
  var previous = Array(0...b.count)
  for i in 1...max(a.count, 1) where !a.isEmpty {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...max(b.count, 1) where !b.isEmpty {
      current[j] = Swift.min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return a.isEmpty ? b.count : previous[b.count]
}
