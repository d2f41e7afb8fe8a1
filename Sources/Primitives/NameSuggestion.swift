/// Did-you-mean suggestions for misspelt names: ops, fields, transitions, sessions, parameters
/// (the daemon's error messages) and dynctl's commands. Shared by every layer that names things.

/// The allowed name closest to a misspelt one (edit distance ≤ 2), for "did you mean".
public func closestName(to name: String, among allowed: [StaticString]) -> String? {
  closestName(to: name, among: allowed.map { "\($0)" })
}

/// The allowed name closest to a misspelt one, the first of equals winning: at most 2 edits
/// away (a swapped pair of neighbours counts as one), and at most one edit per two characters
/// typed, so that a one-letter name suggests nothing.
public func closestName(to name: String, among allowed: [String]) -> String? {
  let typed = Array(name.utf8)
  guard typed.count <= 64 else { return nil }
  let limit = min(2, typed.count / 2)
  var best: (name: String, distance: Int)?
  for candidate in allowed where abs(candidate.utf8.count - typed.count) <= limit {
    let distance = editDistance(typed, Array(candidate.utf8))
    if distance <= limit, distance < best?.distance ?? .max {
      best = (candidate, distance)
    }
  }
  return best?.name
}

/// Edits between two short byte strings: insertions, deletions, substitutions and swaps of
/// neighbours (the optimal string alignment distance).
public func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var beforePrevious = [Int](repeating: 0, count: b.count + 1)
  var previous = Array(0...b.count)
  var current = [Int](repeating: 0, count: b.count + 1)
  for i in 1...a.count {
    current[0] = i
    for j in 1...b.count {
      let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
      current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
        current[j] = min(current[j], beforePrevious[j - 2] + 1)
      }
    }
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[b.count]
}
