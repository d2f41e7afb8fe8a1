/// Did-you-mean suggestions for misspelt names: ops, fields, transitions, sessions, parameters
/// (the daemon's error messages) and dynctl's commands. Shared by every layer that names things.

/// `; did you mean 'x'?` when an allowed name is close to `name` (`closestName`), else nothing:
/// the ending of the daemon's messages for unknown ops, fields, sessions and parameters.
public func didYouMean(_ name: String, among allowed: [String]) -> String {
  closestName(to: name, among: allowed).map { "; did you mean '\($0)'?" } ?? ""
}

/// The allowed name closest to a misspelt one, the first of equals winning: at most 2 edits
/// away (a swapped pair of neighbours counts as one), and at most one edit per two characters
/// typed, so that a one-letter name suggests nothing. Each comparison costs at most
/// 5 × (length + 1) steps (`editDistance(_:_:atMost:)`), so a list of a thousand 64-byte
/// names is searched in well under a millisecond.
public func closestName(to name: String, among allowed: [String]) -> String? {
  let typed = Array(name.utf8)
  guard typed.count <= 64 else { return nil }
  let limit = min(2, typed.count / 2)
  var best: (name: String, distance: Int)?
  for candidate in allowed where abs(candidate.utf8.count - typed.count) <= limit {
    let bound = min(limit, (best?.distance ?? limit + 1) - 1)
    guard bound >= 0 else { break }
    if let distance = editDistance(typed, Array(candidate.utf8), atMost: bound) {
      best = (candidate, distance)
    }
  }
  return best?.name
}

/// Edits between two short byte strings: insertions, deletions, substitutions and swaps of
/// neighbours (the optimal string alignment distance).
public func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
  editDistance(a, b, atMost: max(a.count, b.count))!
}

/// `editDistance(a, b)` when it is at most `limit`, else nil. Only the cells within `limit` of
/// the diagonal are computed (any other is farther than `limit`), and the search stops once two
/// rows in a row are all beyond it.
public func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
  guard abs(a.count - b.count) <= limit else { return nil }
  let far = limit + 1
  if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
  var beforePrevious = [Int](repeating: far, count: b.count + 2)
  var previous = (0...b.count + 1).map { min($0, far) }
  var current = [Int](repeating: far, count: b.count + 2)
  var previousMinimum = 0
  for i in 1...a.count {
    let low = max(1, i - limit)
    let high = min(b.count, i + limit)
    current[low - 1] = low == 1 ? min(i, far) : far
    current[high + 1] = far
    var minimum = current[low - 1]
    if low <= high {
      for j in low...high {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        var cell = min(previous[j] + 1, current[j - 1] + 1, substitution)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          cell = min(cell, beforePrevious[j - 2] + 1)
        }
        current[j] = min(cell, far)
        minimum = min(minimum, current[j])
      }
    }
    if minimum >= far, previousMinimum >= far { return nil }
    previousMinimum = minimum
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[b.count] <= limit ? previous[b.count] : nil
}
