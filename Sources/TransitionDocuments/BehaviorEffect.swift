import Expressions
import JSON
import Synchronization
import Wire

/// An effect that adds a behavior (`Read` is a `BehaviorSpec`) or sets one's fields (a
/// `BehaviorUpdate`): its JSON, where it is in the document, its expressions, and what the
/// document's sessions last read from it with the values of its expressions it was read for.
/// An effect whose expressions give the same values again (a rail at the menu's height, a
/// gravity turned off) reuses what was read instead of reading its JSON again. One object per
/// effect of the document, however many rules `do` its action: shared by the sessions of the
/// document (each reads and writes under the lock), and bounded: one entry per effect. An
/// effect whose expressions read only the parameters, the bounds and the constants reads the
/// same for all of a session, which keeps it by the effect's `index` (`DocumentTransition`).
final class BehaviorEffect<Read: Sendable>: Sendable {
  /// What was read for `key`: its expressions' values (and any other numbers the reading
  /// depends on), in order.
  final class Entry: Sendable {
    let key: [Double]
    let read: Read

    init(key: [Double], read: Read) {
      self.key = key
      self.read = read
    }

    /// `body`'s result for what was read, lent to it: not copied (a behavior's spec or update
    /// is large, and a copy retains each of its fields).
    func with<Result, Failure>(_ body: (Read) throws(Failure) -> Result) throws(Failure)
      -> Result
    {
      try body(read)
    }
  }

  /// The behavior added, or the fields set (without `behavior`), `=` strings expressions.
  let json: JSONValue
  let pointer: String
  /// Its number among the document's effects that add or set a behavior (0, 1, …).
  let index: Int
  /// Its expressions, in the order of their pointers.
  let expressions: [FlatExpression]
  /// The highest slot its expressions read (`FlatExpression.highestSlot`), nil when none reads
  /// a name.
  let highestSlot: Int?
  /// Whether its expressions read only the names before slot `base` of `init` (the
  /// parameters', the bounds' and the constants'): fixed for a session.
  let readsOnlyBase: Bool
  private let last = Mutex<Entry?>(nil)

  /// The effect at `pointer`, numbered `index`, whose expressions `compiled` holds by their
  /// pointers (those under `pointer`); the names of the parameters, the bounds and the
  /// constants have the slots before `base`.
  init(_ json: JSONValue, at pointer: String, index: Int, compiled: [String: Expression], base: Int)
  {
    self.json = json
    self.pointer = pointer
    self.index = index
    expressions = compiled.sorted { $0.key < $1.key }.map { FlatExpression($0.value) }
    highestSlot = expressions.compactMap(\.highestSlot).max()
    readsOnlyBase = (highestSlot ?? -1) < base
  }

  /// Writes the values of its expressions at `values` into `key` (emptied first, its storage
  /// kept): false when one cannot be evaluated.
  func key(_ values: [Double], into key: inout [Double]) -> Bool {
    key.removeAll(keepingCapacity: true)
    for expression in expressions {
      guard let value = expression.number(values) else { return false }
      key.append(value)
    }
    return true
  }

  /// What was last read, if it was read for the values of its expressions at `values`
  /// followed by the numbers `also`: compared one by one as they are evaluated, without
  /// building the key (`key(_:into:)`), which only a new reading needs.
  func known(_ values: [Double], also: [Double]) -> Entry? {
    guard let entry = last.withLock({ $0 }),
      entry.key.count == expressions.count + also.count
    else { return nil }
    for (index, expression) in expressions.enumerated() {
      guard expression.number(values) == entry.key[index] else { return nil }
    }
    for (index, number) in also.enumerated()
    where entry.key[expressions.count + index] != number {
      return nil
    }
    return entry
  }

  /// Keeps `read`, read for `key`, in place of what was kept before.
  func keep(_ read: Read, for key: [Double]) -> Entry {
    let entry = Entry(key: key, read: read)
    last.withLock { $0 = entry }
    return entry
  }
}
