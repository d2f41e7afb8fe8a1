import Foundation
import Testing
import TransitionDocuments
import Wire

@testable import SessionHost

/// Transition documents in the host (issue 37): defined, listed by `hello` with their tables,
/// opened by name in any bounds, dragged, and kept by their sessions when redefined.
@Suite("Host: transition documents")
struct HostDocumentTests {
  static let card = #"""
    {"transition": "card", "description": "A card you can throw.",
     "parameters": [{"name": "inset", "default": 20, "min": 0, "max": "=width / 4", "unit": "pt", "source": "a test"}],
     "scene": {"items": [{"id": "card", "center": ["=mid_x", "=mid_y"], "size": ["=width - 2 * inset", "=height / 3"]}],
               "behaviors": [{"type": "dynamic_item", "id": "material", "items": ["card"], "allows_rotation": false},
                             {"type": "decay", "id": "coast", "items": ["card"], "deceleration_rate": 0.998}]}}
    """#

  static func document(_ text: String = card) throws -> TransitionDocument {
    try TransitionDocument.read(text: Array(text.utf8))
  }

  @Test("hello lists a document with its table; open lays it out in its bounds; a drag hands over")
  func opens() throws {
    let rig = HostRig()
    try rig.host.define(try Self.document(), source: "a test")
    let client = rig.connect()
    let hello = try client.expectOK(#"{"op":"hello"}"#).reply
    #expect((hello.object["transitions"] as? [String])?.last == "card")
    let tables = try #require(hello.object["parameters"] as? [String: Any])
    let inset = try #require((tables["card"] as? [[String: Any]])?.first)
    #expect(inset["name"] as? String == "inset")
    #expect(inset["max"] as? Double == 80)
    #expect(inset["of_bounds"] as? [String: String] == ["max": "width / 4"])
    let opened = try client.expectOK(
      #"{"op":"open","session":"c","transition":"card","clock":"manual","bounds":[412,915],"#
        + #""params":{"inset":100}}"#
    ).reply
    #expect(opened.vector("center", of: "card") == [206, 457.5])
    #expect(opened.vector("size", of: "card") == [212, 305])
    let get = try client.expectOK(#"{"op":"get","session":"c"}"#).reply
    #expect((get.object["params"] as? [String: Any])?["inset"] as? Double == 100)
    try client.expectOK(#"{"op":"gesture","session":"c","phase":"began","x":206,"y":457,"t":0}"#)
    try client.expectOK(#"{"op":"step","session":"c"}"#)
    let ended = try client.expectOK(
      #"{"op":"gesture","session":"c","phase":"ended","x":210,"y":457,"t":0.05,"vx":800,"vy":0}"#)
    let handoff = try #require(ended.events("handoff").first)
    #expect(handoff.string("item") == "card")
    #expect(handoff.object["item_velocity"] as? [Double] == [800, 0])
    #expect(handoff.object["decay"] as? [String: Double] == ["deceleration_rate": 0.998])
    // Refused as the daemon refuses a parameter: beyond width / 4 of 320.
    try client.expectError(
      "out_of_range", #"{"op":"open","transition":"card","params":{"inset":100}}"#)
  }

  @Test("a taken name is refused, naming both sources; a session keeps its document")
  func names() throws {
    let rig = HostRig()
    try rig.host.define(try Self.document(), source: "cards/card.json")
    do {
      try rig.host.define(try Self.document(), source: "define by pid 7")
      Issue.record("a taken name was accepted")
    } catch let error as ProtocolError {
      #expect(
        error.message
          == "transition 'card' of define by pid 7 is refused: the name is taken by the document "
          + "of cards/card.json")
    }
    let sheet = try Self.document(
      Self.card.replacingOccurrences(of: #""transition": "card""#, with: #""transition": "sheet""#))
    #expect(throws: ProtocolError.self) { try rig.host.define(sheet, source: "x") }
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"c","transition":"card","clock":"manual"}"#)
    // Reloaded without it: new sessions cannot open it, the running one goes on.
    #expect(rig.host.replaceDocuments([]).isEmpty)
    try client.expectError("unknown_transition", #"{"op":"open","transition":"card"}"#)
    try client.expectOK(#"{"op":"step","session":"c"}"#)
    let list = try client.expectOK(#"{"op":"list"}"#).reply
    let sessions = try #require(list.object["sessions"] as? [[String: Any]])
    #expect(sessions.first?["transition"] as? String == "card")
  }

  @Test("define: a document for new sessions, refused with every error and its pointer")
  func define() throws {
    let rig = HostRig()
    let client = rig.connect()
    let document = Self.card.split(separator: "\n").joined(separator: " ")
    try client.expectOK(#"{"op":"define","id":1,"document":"# + document + "}")
    try client.expectOK(#"{"op":"open","session":"c","transition":"card","clock":"manual"}"#)
    let taken = try client.expectError(
      "invalid_scene", #"{"op":"define","id":2,"document":"# + document + "}")
    #expect(
      taken.errorMessage?.contains("the name is taken by the document of define by pid") == true)
    let bad = try client.expectError(
      "invalid_scene",
      #"{"op":"define","id":3,"document":{"transition":"x","colour":1,"scene":{"items":[]}}}"#)
    #expect(
      bad.errorMessage
        == "the document has 1 error: /colour: unknown field (a document has: "
        + TransitionDocument.fields.joined(separator: ", ") + ")")
    try client.expectError("wrong_type", #"{"op":"define","id":4,"document":[]}"#)
    try client.expectError("missing_field", #"{"op":"define","id":5}"#)
  }

  @Test("a daemon holds at most 256 documents: the next is busy")
  func bounded() throws {
    let rig = HostRig()
    for n in 0..<TransitionCatalog.maxDocuments {
      try rig.host.define(
        try Self.document(
          Self.card.replacingOccurrences(
            of: #""transition": "card""#, with: #""transition": "c\#(n)""#)),
        source: "a test")
    }
    do {
      try rig.host.define(try Self.document(), source: "a test")
      Issue.record("a document beyond the most was accepted")
    } catch let error as ProtocolError {
      #expect(error.code == .busy)
    }
  }
}
