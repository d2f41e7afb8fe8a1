import Expressions
import JSON
import Primitives
import Transitions

/// What a document says about gestures and outcomes (docs/TRANSITION-DOCUMENTS.md): which items
/// a pan grips and along which axis, the rules that choose what the release starts, the rules
/// that end a cycle with a `done`, and the values reported with frames.
struct DocumentRules: Sendable {
  /// The items a pan may grip (nil: any), and the axis it is locked to (nil: none).
  var panItems: [String]?
  var panAxis: Axis?
  /// Past these limits of the gripped item's center along the axis, the finger's travel is
  /// shown by UIScrollView's rubber band (`RubberBand`, c = 0.55) over `dimension`: expressions
  /// of the parameters and the bounds.
  var rubberBand: (from: Expression, to: Expression, dimension: Expression)?
  /// Checked in order at a tap; the first whose `when` holds applies its `then` (the tap is
  /// taken), and the done rules are checked again after it.
  var tap: [ReleaseRule] = []
  /// Checked in order at the release; the first whose `when` holds (or has none) is applied.
  var release: [ReleaseRule] = []
  /// Checked in order after every frame that follows a release, until one holds.
  var done: [DoneRule] = []
  var values: [ValueRule] = []

  enum Axis: String, Sendable { case x, y }

  struct ReleaseRule: Sendable {
    var when: Expression?
    var then: [Effect]
  }

  struct DoneRule: Sendable {
    /// The condition, if any; with `atRest` the animator must also have come to rest.
    var when: Expression?
    var atRest: Bool
    var outcome: String
    var then: [Effect]
  }

  struct ValueRule: Sendable {
    var name: String
    var value: Expression
  }

  enum Effect: Sendable {
    /// A behavior object (the protocol's, section 6) whose `=` strings are expressions, at
    /// `pointer` in the document.
    case addBehavior(JSONValue, pointer: String)
    case removeBehavior(String)
  }
}

/// The names a document's rules may use besides the parameters and the bounds: the release,
/// and each item whose id is a name, after them in this order.
struct RuntimeNames: Sendable {
  let names: ExpressionNames
  /// The items named, in slot order.
  let items: [String]

  static let release = [
    "release.x", "release.y", "release.vx", "release.vy", "start.x", "start.y", "projection.x",
    "projection.y", "tap.x", "tap.y",
  ]
  static let itemFields = ["x", "y", "vx", "vy", "min_x", "max_x", "min_y", "max_y"]

  init(_ base: DocumentNames, items: [String]) {
    var names = base.names
    let coordinate = -2e6...2e6
    let speed = -1e6...1e6
    for name in Self.release {
      names.add(name, in: name.contains(".v") ? speed : coordinate)
    }
    var named: [String] = []
    // An item named like a release's values (`tap`, …) would share their names: it is not
    // named in expressions.
    let taken = Set(Self.release.map { String($0.prefix { $0 != "." }) })
    for id in items where Self.isName(id) && !taken.contains(id) {
      named.append(id)
      for field in Self.itemFields {
        names.add("\(id).\(field)", in: field.hasPrefix("v") ? speed : coordinate)
      }
    }
    self.names = names
    self.items = named
  }

  /// Whether an item id can be written in an expression (`card.x`).
  static func isName(_ id: String) -> Bool {
    guard let first = id.utf8.first,
      (97...122).contains(first) || (65...90).contains(first) || first == 95
    else { return false }
    return id.utf8.allSatisfy {
      (97...122).contains($0) || (65...90).contains($0) || (48...57).contains($0) || $0 == 95
    }
  }
}
