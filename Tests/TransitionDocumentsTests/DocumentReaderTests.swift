import Foundation
import JSON
import Primitives
import Testing
import TransitionDocuments
import Transitions
import Wire

/// A card across the screen, a parameter of the bounds and one in points.
let cardDocument = #"""
  {
    "transition": "card",
    "description": "A card in the middle of the screen.",
    "parameters": [
      {"name": "card_height", "default": 200, "min": 40, "max": "=height", "unit": "pt", "source": "a test"},
      {"name": "inset", "default": 20, "min": 0, "max": 100, "unit": "pt"}
    ],
    "scene": {
      "items": [{"id": "card", "center": ["=mid_x", "=mid_y"], "size": ["=max(width - 2 * inset, 10)", "=card_height"]}],
      "behaviors": [{"type": "dynamic_item", "id": "material", "items": ["card"], "allows_rotation": false}]
    }
  }
  """#

func read(_ text: String) throws(DocumentErrors) -> TransitionDocument {
  try TransitionDocument.read(text: Array(text.utf8))
}

func errors(_ text: String) -> [DocumentError] {
  do {
    _ = try read(text)
    return []
  } catch {
    return error.errors
  }
}

/// The card document with `old` replaced by `new`.
func card(_ old: String, _ new: String) -> String {
  cardDocument.split(separator: old, omittingEmptySubsequences: false).joined(separator: new)
}

@Suite("Transition documents: reading and checking")
struct DocumentReaderTests {
  @Test("a document reads, and its scene is laid out in the bounds it opens in")
  func reads() throws {
    let document = try read(cardDocument)
    #expect(document.name == "card")
    #expect(document.parameters.map(\.name) == ["card_height", "inset"])
    #expect(document.parameters[0].relative?.maximum == .ofBounds("height"))
    let phone = Rect(x: 0, y: 0, width: 412, height: 915)
    let values = try ParameterValues(
      ["card_height": .number(300)], declared: document.parameters, in: phone.size)
    let scene = try document.scene(values, in: phone)
    #expect(scene.bounds == phone)
    #expect(scene.items.first?.center == Point(x: 206, y: 457.5))
    #expect(scene.items.first?.size == Size(width: 372, height: 300))
    #expect(scene.behaviors.count == 1)
  }

  /// Sessions opened with the same values share the scene last laid out; any other value, the
  /// bounds' included, lays it out anew.
  @Test("the scene a document's sessions share follows their parameters and bounds")
  func sharedScene() throws {
    let document = try read(cardDocument)
    let phone = Rect(x: 0, y: 0, width: 412, height: 915)
    let shifted = Rect(x: 10, y: 0, width: 412, height: 915)
    let wide = Rect(x: 10, y: 0, width: 600, height: 915)
    func scene(height: Double, inset: Double = 20, in bounds: Rect) throws -> SceneSpec {
      let values = try ParameterValues(
        ["card_height": .number(height), "inset": .number(inset)],
        declared: document.parameters, in: bounds.size)
      return try document.scene(values, in: bounds)
    }
    for _ in 0..<2 {
      let tall = try scene(height: 300, in: phone)
      #expect(tall.items.first?.size == Size(width: 372, height: 300))
      #expect(try scene(height: 300, in: phone).items.first?.size == tall.items.first?.size)
      #expect(try scene(height: 100, in: phone).items.first?.size == Size(width: 372, height: 100))
      #expect(
        try scene(height: 100, inset: 50, in: phone).items.first?.size
          == Size(width: 312, height: 100))
      let moved = try scene(height: 100, in: shifted)
      #expect(moved.bounds == shifted)
      #expect(moved.items.first?.center == Point(x: 216, y: 457.5))
      let widened = try scene(height: 100, in: wide)
      #expect(widened.bounds == wide)
      #expect(widened.items.first?.size == Size(width: 560, height: 100))
    }
  }

  /// Each bad document gives each of its errors at once, with its pointer.
  @Test("every error at once, each with its JSON pointer")
  func badDocuments() {
    #expect(
      errors(card(#""description""#, #""colour": 1, "description""#))
        == [
          DocumentError(
            "/colour",
            "unknown field (a document has: "
              + TransitionDocument.fields.joined(separator: ", ") + ")")
        ])
    let two = errors(
      card(#""=mid_x""#, #""=mid_z""#).split(separator: #""=card_height""#).joined(
        separator: #""=card_height / (inset - 20)""#))
    #expect(two.map(\.pointer) == ["/scene/items/0/center/0", "/scene/items/0/size/1"])
    #expect(two[0].message.hasPrefix("unknown name 'mid_z' (did you mean 'mid_x', 'mid_y'"))
    #expect(two[1].message.contains("may divide by zero"))
    #expect(
      errors(card(#""default": 200"#, #""default": 900"#)).first
        == DocumentError(
          "/parameters/0/default",
          "the default (900) is outside 40 … 568 in the standard 320×568 bounds"))
    #expect(
      errors(card(#""name": "inset""#, #""name": "width""#)).map(\.pointer).contains(
        "/parameters/1/name"))
    #expect(
      errors(card(#""items": [{"#, #""bounds": [320, 568], "items": [{"#)).first?.pointer
        == "/scene/bounds")
    #expect(
      errors(card(#""max": "=height""#, #""max": "=height / (width - 100)""#)).first?.pointer
        == "/parameters/0/max")
    #expect(errors("[1]").first?.message.hasPrefix("a document is an object") == true)
    #expect(errors("{").first?.message.hasPrefix("not JSON") == true)
    let huge = String(repeating: " ", count: TransitionDocument.maxBytes) + "{}"
    #expect(errors(huge).first?.message.hasPrefix("a document is at most 1048576 bytes") == true)
  }

  /// A size that is fine at the defaults but not at a corner of the box is found there.
  @Test("the scene is read at the corners of the parameter box and of the bounds")
  func corners() {
    // At the smallest bounds (100 wide) and inset 100, the card is 100 − 200 = −100 wide: one
    // error for the field, at the first corner that breaks it.
    let found = errors(card(#""=max(width - 2 * inset, 10)""#, #""=width - 2 * inset""#))
    #expect(found.count == 1)
    #expect(found.first?.pointer == "/scene/items/0/size/0")
    #expect(
      found.first?.message
        == "field 'scene.items[0].size[0]' must be between 1 and 100000 (got -100) (in 100×100 "
        + "bounds, with card_height 100, inset 100)")
    // Held above 1 pt, it reads everywhere.
    #expect(errors(cardDocument).isEmpty)
  }

  @Test("a scene the daemon would refuse is refused with the field's pointer")
  func sceneErrors() {
    let unknownItem = errors(
      card(#""items": ["card"], "allows_rotation""#, #""items": ["cart"], "allows_rotation""#))
    #expect(unknownItem.first?.pointer == "/scene/behaviors/0")
    #expect(unknownItem.first?.message.contains("'cart'") == true)
    let elasticity = errors(card(#""allows_rotation": false"#, #""elasticity": 20"#))
    #expect(elasticity.first?.pointer == "/scene/behaviors/0/elasticity")
  }

  /// The rules' errors, each with its pointer: an item the scene lacks, a condition that does
  /// not read or is a number, a behavior an effect adds that `add_behavior` would refuse.
  @Test("pan, release, done and values are checked with their pointers")
  func ruleErrors() {
    func with(_ rules: String) -> [DocumentError] {
      let end = cardDocument.lastIndex(of: "}")!
      return errors(String(cardDocument[..<end]) + ", " + rules + "}")
    }
    #expect(
      with(#""pan": {"items": ["cart"], "axis": "z"}"#).map(\.pointer) == [
        "/pan/items/0", "/pan/axis",
      ])
    let release = with(
      #""release": [{"when": "release.vx", "then": [{"add_behavior": {"type": "spring", "id": "s", "items": ["card"], "target": [0, 0]}}]}]"#
    )
    #expect(release.map(\.pointer) == ["/release/0/when", "/release/0/then/0/add_behavior"])
    #expect(release[0].message == "this is a number, where a condition is needed")
    let done = with(#""done": [{"outcome": 7}, {"at_rest": true, "outcome": "ok", "colour": 1}]"#)
    #expect(done.map(\.pointer) == ["/done/0", "/done/0/outcome", "/done/1/colour"])
    #expect(
      with(#""values": [{"name": "alpha", "value": "card.x / release.vx"}]"#).first?.message
        .contains("may divide by zero") == true)
    #expect(with(#""values": [{"name": "alpha", "value": "clamp(card.x / width, 0, 1)"}]"#).isEmpty)
  }

  /// Many errors are counted past the first 50, each found once, in time linear in the
  /// document; a key with brackets of its own is a pointer token as it stands.
  @Test("errors past the first 50 are counted; odd keys do not break the pointers")
  func manyErrors() throws {
    let centers = (0..<5_000).map { _ in #"{"id":"a","center":["=q",1],"size":[1,1]}"# }
    let text = #"{"transition":"t","scene":{"items":["# + centers.joined(separator: ",") + "]}}"
    let started = ContinuousClock.now
    do {
      _ = try read(text)
      Issue.record("accepted")
    } catch {
      #expect(error.errors.count == DocumentErrors.maxListed)
      #expect(error.total == 5_000)
    }
    #expect(ContinuousClock.now - started < .seconds(5))
    let odd = errors(
      #"{"transition":"t","scene":{"items":[],"a[0]]x[":1,"b[1]":2}}"#)
    #expect(odd.first?.pointer == "/scene/a[0]]x[")
  }
}

extension String {
  fileprivate func replacingFirst(_ old: String, with new: String) -> String {
    guard let range = range(of: old) else { return self }
    return replacingCharacters(in: range, with: new)
  }
}
