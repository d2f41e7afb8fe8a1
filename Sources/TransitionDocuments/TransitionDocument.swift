import Expressions
import JSON
import Primitives
import Synchronization
import Transitions
import Wire

/// A transition written as a document (JSON), not in Swift: a name, a description, parameters
/// and a scene in the protocol's own vocabulary (section 6), any number of which may be an
/// expression of the parameters and the bounds, written as a string that starts with `=`
/// (`"=width / 2"`, `"=height - drawer_height"`). docs/TRANSITION-DOCUMENTS.md gives the form.
///
/// `read` checks everything that can be checked before a session opens, and reports every
/// error at once, each with its JSON pointer: the fields, each parameter's declaration, every
/// expression (it must read, and be proved never to fail for any value of its names:
/// `Expression.interval`), and the scene itself, built at the corners of the parameter box in
/// the smallest, the largest and the standard bounds and read as `open` reads a scene.
public struct TransitionDocument: Sendable {
  public let name: String
  public let description: String
  public let parameters: [TransitionParameter]
  /// The scene as written (`=` strings still expressions), and its expressions by pointer.
  let scene: JSONValue
  let expressions: [String: Expression]
  let names: DocumentNames
  /// Its pan, release, done and values rules (each effect that adds or sets a behavior keeps
  /// what its sessions last read: `BehaviorEffect`), the names they may use, and the
  /// expressions of the behaviors their effects add and set, by pointer.
  let rules: DocumentRules
  let runtime: RuntimeNames
  let ruleExpressions: [String: Expression]
  /// The scene its sessions last opened, shared by them (`scene(_:in:)`).
  private let lastScene = LastScene()

  /// The largest document, in bytes (a document over it is refused before it is read).
  public static let maxBytes = 1 << 20
  /// The fields of a document.
  public static let fields = [
    "transition", "description", "parameters", "constants", "phases", "state", "scene",
    "actions", "pan",
    "projection", "release", "cancel", "tap", "swipe", "done", "values",
  ]

  /// The scene `open` builds in `bounds` for `values` (validated against `parameters`): the
  /// scene the document's last session opened with when the parameters' and the bounds' values
  /// are the same, else evaluated anew (`sceneSpec`).
  public func scene(_ values: ParameterValues, in bounds: Rect) throws(DocumentError) -> SceneSpec {
    let base = names.values(DocumentNames.numbers(values, parameters), in: bounds)
    if let known = lastScene.spec(for: base) { return known }
    let spec = try sceneSpec(base, bounds: bounds)
    lastScene.keep(spec, for: base)
    return spec
  }

  /// The scene with every expression evaluated at `values`, read as `open` reads a scene.
  func sceneSpec(_ values: [Double], bounds: Rect) throws(DocumentError) -> SceneSpec {
    let evaluated = try Self.evaluate(
      scene, tokens: ["scene"], expressions: expressions, at: values)
    guard case .object(var members) = evaluated else {
      throw DocumentError("/scene", "a scene is an object")
    }
    members.insert(
      JSONMember(
        name: "bounds",
        value: .array(
          [bounds.minX, bounds.minY, bounds.size.width, bounds.size.height].map(JSONValue.number))),
      at: 0)
    do throws(ProtocolError) {
      return try SceneSpec(json: .object(members))
    } catch {
      throw DocumentError(pointer(ofFieldIn: error.message) ?? "/scene", error.message)
    }
  }

  /// `value` with each `=` string replaced by its expression's value at `values`; the first
  /// expression that cannot be evaluated there is the error, at its pointer.
  static func evaluate(
    _ value: JSONValue, tokens: [String], expressions: [String: Expression], at values: [Double]
  ) throws(DocumentError) -> JSONValue {
    var failure: DocumentError?
    let evaluated = substituteExpressions(value, tokens: tokens, expressions: expressions) {
      pointer, expression in
      do throws(ExpressionError) {
        return try expression.number(values)
      } catch {
        if failure == nil { failure = DocumentError(pointer, error.message) }
        return 0
      }
    }
    if let failure { throw failure }
    return evaluated
  }

  /// `value` with each `=` string replaced by `evaluate(pointer, its expression)`.
  static func substituteExpressions(
    _ value: JSONValue, tokens: [String], expressions: [String: Expression],
    _ evaluate: (String, Expression) -> Double
  ) -> JSONValue {
    func walk(_ value: JSONValue, _ tokens: [String]) -> JSONValue {
      switch value {
      case .string(let text) where text.hasPrefix("="):
        let at = pointer(tokens)
        guard let expression = expressions[at] else { return value }
        return .number(evaluate(at, expression))
      case .array(let elements):
        return .array(elements.enumerated().map { walk($1, tokens + [String($0)]) })
      case .object(let members):
        return .object(
          members.map { JSONMember(name: $0.name, value: walk($0.value, tokens + [$0.name])) })
      default:
        return value
      }
    }
    return walk(value, tokens)
  }
}

/// The scene a document's sessions last opened with, and the base's values it was evaluated for
/// (the parameters', the bounds' and the constants': all it depends on). Sessions opened with
/// the same values, as most are, share it instead of evaluating the scene's expressions and
/// reading its JSON again. One entry: it never grows.
private final class LastScene: Sendable {
  private let last = Mutex<(key: [Double], spec: SceneSpec)?>(nil)

  /// The scene kept for `base`, compared bit for bit (`-0` is not `0`), if it is the one kept.
  func spec(for base: [Double]) -> SceneSpec? {
    last.withLock { last in
      guard let last, last.key.count == base.count,
        zip(last.key, base).allSatisfy({ $0.bitPattern == $1.bitPattern })
      else { return nil }
      return last.spec
    }
  }

  func keep(_ spec: SceneSpec, for base: [Double]) {
    last.withLock { $0 = (base, spec) }
  }
}
