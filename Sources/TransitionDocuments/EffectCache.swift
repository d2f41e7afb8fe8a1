import Expressions
import Synchronization
import Wire

/// The behavior each effect of a document last added or set, by the effect's pointer, with the
/// values of its expressions it was read for: an effect whose expressions give the same values
/// again (a rail at the menu's height, a gravity turned off) reuses what was read instead of
/// reading its JSON again. Shared by the sessions of one document (each reads and writes under
/// the lock), and bounded: one entry per effect of the document.
final class EffectCache: Sendable {
  private struct Entry: Sendable {
    let key: [Double]
    let spec: BehaviorSpec?
    let update: BehaviorUpdate?
  }

  private let entries = Mutex<[String: Entry]>([:])
  /// Each effect's expressions, in the order of their pointers.
  let expressions: [String: [Expression]]

  /// For the effects at `pointers`, whose expressions `compiled` holds by pointer: one pass
  /// over the expressions, each given to the effect whose pointer begins its own.
  init(pointers: [String], compiled: [String: Expression]) {
    let effects = Set(pointers)
    var byEffect: [String: [(String, Expression)]] = [:]
    for (pointer, expression) in compiled {
      // `/release/0/then/1/add_behavior/target/0` belongs to `/release/0/then/1/add_behavior`.
      let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false)
      guard
        let kind = tokens.indices.dropFirst(2).first(where: {
          (tokens[$0] == "add_behavior" || tokens[$0] == "set") && Int(tokens[$0 - 1]) != nil
        })
      else { continue }
      let effect = tokens[...kind].joined(separator: "/")
      if effects.contains(effect) { byEffect[effect, default: []].append((pointer, expression)) }
    }
    expressions = byEffect.mapValues { $0.sorted { $0.0 < $1.0 }.map(\.1) }
  }

  /// The values of the effect's expressions at `values`, nil when one cannot be evaluated.
  func key(_ pointer: String, _ values: [Double]) -> [Double]? {
    var key: [Double] = []
    for expression in expressions[pointer] ?? [] {
      guard let value = try? expression.number(values) else { return nil }
      key.append(value)
    }
    return key
  }

  func spec(_ pointer: String, key: [Double]) -> BehaviorSpec? {
    entries.withLock { $0[pointer] }.flatMap { $0.key == key ? $0.spec : nil }
  }

  func update(_ pointer: String, key: [Double]) -> BehaviorUpdate? {
    entries.withLock { $0[pointer] }.flatMap { $0.key == key ? $0.update : nil }
  }

  func keep(_ pointer: String, key: [Double], spec: BehaviorSpec) {
    entries.withLock { $0[pointer] = Entry(key: key, spec: spec, update: nil) }
  }

  func keep(_ pointer: String, key: [Double], update: BehaviorUpdate) {
    entries.withLock { $0[pointer] = Entry(key: key, spec: nil, update: update) }
  }
}
