import Foundation
import Testing

@testable import SessionHost

/// A scene's pan (issue 37): a gesture on a scene session grips the topmost item under the
/// finger, and the release hands the finger's velocity to it exactly, with a `handoff`.
@Suite("Host: a scene's pan")
struct HostScenePanTests {
  /// a: a square under b's corner; b: an ellipse over it; c and d: a group; e: turned 45°.
  static let scene =
    #"{"items":[{"id":"a","center":[100,100],"size":[40,40]},"#
    + #"{"id":"b","center":[130,130],"size":[40,40],"shape":"ellipse"},"#
    + #"{"id":"c","center":[60,300],"size":[20,20]},{"id":"d","center":[80,300],"size":[20,20]},"#
    + #"{"id":"e","center":[250,400],"size":[40,10],"angle":0.7853981633974483}],"#
    + #""groups":[{"id":"g","items":["c","d"]}]}"#

  func open(_ client: HostClient) throws {
    try client.expectOK(#"{"op":"open","session":"m","clock":"manual","scene":"# + Self.scene + "}")
  }

  /// Drags from `from` by (10, 10) over two frames and releases with (vx, vy); the handoffs.
  func pan(_ client: HostClient, from: (Double, Double), velocity: (Int, Int)) throws
    -> [Message]
  {
    try client.expectOK(
      #"{"op":"gesture","session":"m","phase":"began","x":\#(from.0),"y":\#(from.1),"t":0}"#)
    try client.expectOK(#"{"op":"step","session":"m"}"#)
    try client.expectOK(
      #"{"op":"gesture","session":"m","phase":"changed","x":\#(from.0 + 10),"y":\#(from.1 + 10),"#
        + #""t":0.016}"#)
    try client.expectOK(#"{"op":"step","session":"m"}"#)
    return try client.expectOK(
      #"{"op":"gesture","session":"m","phase":"ended","x":\#(from.0 + 10),"y":\#(from.1 + 10),"#
        + #""t":0.033,"vx":\#(velocity.0),"vy":\#(velocity.1)}"#
    ).events("handoff")
  }

  @Test("the item under the finger follows it and takes the release velocity exactly")
  func grips() throws {
    let rig = HostRig()
    let client = rig.connect()
    try open(client)
    let handoffs = try pan(client, from: (90, 90), velocity: (300, -200))
    #expect(handoffs.count == 1)
    let handoff = try #require(handoffs.first)
    #expect(handoff.string("item") == "a")
    #expect(handoff.object["item_velocity"] as? [Double] == [300, -200])
    #expect(handoff.object["gesture_velocity"] as? [Double] == [300, -200])
    let get = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
    #expect(get.vector("velocity", of: "a") == [300, -200])
    #expect(
      get.vector("center", of: "a") == [110, 110], "the touched point stayed under the finger")
  }

  @Test("the topmost item wins; an ellipse holds only its inside; a group member grips its group")
  func hitTest() throws {
    let rig = HostRig()
    let client = rig.connect()
    try open(client)
    // (125, 125) is in both a and b: b is later in the scene's order.
    #expect(try pan(client, from: (125, 125), velocity: (1, 0)).first?.string("item") == "b")
    // (114, 114) is in b's frame, outside its ellipse, and inside a.
    #expect(try pan(client, from: (114, 114), velocity: (1, 0)).first?.string("item") == "a")
    #expect(try pan(client, from: (55, 300), velocity: (1, 0)).first?.string("item") == "g")
    // e is turned 45°: (250 + 12, 400 + 12) is on it, (250 + 15, 400 − 15) beside it.
    #expect(try pan(client, from: (262, 412), velocity: (1, 0)).first?.string("item") == "e")
    #expect(try pan(client, from: (265, 385), velocity: (1, 0)).isEmpty)
  }

  @Test("a touch on no item, a cancel, and a removed item hand nothing over")
  func nothingHeld() throws {
    let rig = HostRig()
    let client = rig.connect()
    try open(client)
    #expect(try pan(client, from: (300, 20), velocity: (100, 0)).isEmpty)
    try client.expectOK(#"{"op":"gesture","session":"m","phase":"began","x":100,"y":100}"#)
    try client.expectOK(#"{"op":"gesture","session":"m","phase":"cancelled","x":100,"y":100}"#)
    try client.expectOK(#"{"op":"gesture","session":"m","phase":"began","x":100,"y":100}"#)
    try client.expectOK(#"{"op":"remove_item","session":"m","item":"a"}"#)
    let ended = try client.expectOK(
      #"{"op":"gesture","session":"m","phase":"ended","x":100,"y":100,"vx":5,"vy":5}"#)
    #expect(ended.events("handoff").isEmpty)
    try client.expectOK(#"{"op":"step","session":"m"}"#)
  }

  /// The carrier dynd makes for an item no behavior holds is made once, and goes with the item.
  @Test("one carrier per item, whatever the number of releases and add_velocity")
  func oneCarrier() throws {
    let rig = HostRig()
    let client = rig.connect()
    try open(client)
    for _ in 0..<5 {
      _ = try pan(client, from: (90, 90), velocity: (10, 0))
      try client.expectOK(#"{"op":"add_velocity","session":"m","item":"a","velocity":[1,0]}"#)
    }
    guard case .scene(let scene)? = rig.host.sessions["m"]?.content else {
      Issue.record("no scene session m")
      return
    }
    #expect(scene.carriers.count == 1)
    let before = scene.animator.behaviors.count
    try client.expectOK(#"{"op":"remove_item","session":"m","item":"a"}"#)
    #expect(scene.carriers.isEmpty)
    #expect(scene.animator.behaviors.count == before - 1)
  }
}
