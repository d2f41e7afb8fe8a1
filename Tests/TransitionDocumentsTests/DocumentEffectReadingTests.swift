import Foundation
import Primitives
import Testing
import TransitionDocuments
import Transitions

/// A session reads and resolves each `set` of the parameters, the bounds and the constants alone
/// once: the first `DocumentTransition.updatesReadAtOpen` of a document's when it opens, the rest
/// at their first use. Either way the effects apply as written, in order.
@Suite("Transition documents: set effects read once a session")
struct DocumentEffectReadingTests {
  /// A box under a gravity of magnitude 0 (so of angle 0, as UIKit's: along x) and three tap
  /// rules (left, middle, right third): each `do`es 8 actions of 8 `set`s of the gravity's
  /// magnitude, the last of them `last[rule]`.
  static func document(actions: Bool, last: [Double]) -> String {
    var actionsJSON: [String] = []
    var rules: [String] = []
    for rule in 0..<3 {
      var effects: [String] = []
      if actions {
        for action in 0..<8 {
          let name = "a\(rule)_\(action)"
          let sets = (0..<8).map { set -> String in
            let magnitude =
              action == 7 && set == 7 ? last[rule] : Double(rule * 64 + action * 8 + set) / 100
            return #"{"set": {"behavior": "g", "magnitude": \#(magnitude)}}"#
          }
          actionsJSON.append(#""\#(name)": [\#(sets.joined(separator: ", "))]"#)
          effects.append(#"{"do": "\#(name)"}"#)
        }
      } else {
        effects.append(#"{"set": {"behavior": "g", "magnitude": \#(last[rule])}}"#)
      }
      let when = rule == 2 ? "" : #""when": "tap.x < \#(100 * (rule + 1))", "#
      rules.append(#"{\#(when)"then": [\#(effects.joined(separator: ", "))]}"#)
    }
    return """
      {"transition": "many-sets",
       "scene": {"items": [{"id": "box", "center": [160, 100], "size": [20, 20]}],
                 "behaviors": [{"type": "gravity", "id": "g", "items": ["box"], "magnitude": 0}]},
       \(actions ? #""actions": {\#(actionsJSON.joined(separator: ", "))},"# : "")
       "tap": [\(rules.joined(separator: ", "))]}
      """
  }

  static func transition(_ text: String) throws -> DocumentTransition {
    let document = try TransitionDocument.read(text: Array(text.utf8))
    let bounds = TransitionBounds.standard
    let values = try ParameterValues([:], declared: document.parameters, in: bounds.size)
    return try DocumentTransition(
      document, scene: document.scene(values, in: bounds), values: values, bounds: bounds)
  }

  /// The box's centers over 20 frames after each tap at `xs`.
  static func frames(_ t: Transition, taps xs: [Double]) -> [Point] {
    var centers: [Point] = []
    for x in xs {
      #expect(t.tap(at: Point(x: x, y: 400)))
      for _ in 0..<20 {
        t.animator.step(1.0 / 60)
        centers.append(t.items[0].center)
      }
    }
    return centers
  }

  @Test("192 sets through actions, 64 of them past those read at open, give what 3 sets give")
  func readAtOpenAndAtFirstUse() throws {
    #expect(DocumentTransition.updatesReadAtOpen == 128, "the right third's rule is read at use")
    let last = [0.5, 0.75, 1.25]
    let many = try Self.transition(Self.document(actions: true, last: last))
    let few = try Self.transition(Self.document(actions: false, last: last))
    // Right (read at its first use), middle, right again (kept), left (read at open).
    let taps = [250.0, 150, 250, 50]
    let expected = Self.frames(few, taps: taps)
    #expect(Self.frames(many, taps: taps) == expected)
    #expect(expected[19].x > 160 + 10, "the gravity the right third's last set gives moves it")
  }
}
