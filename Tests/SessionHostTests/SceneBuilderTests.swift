import Dynamics
import Foundation
import JSON
import Primitives
import SceneBuilding
import Testing
import Wire

/// `SceneBuilder`, the builder dynbench uses, makes the scene a session makes from the same
/// spec: stepped alike, every item ends where the session's does.
@Suite("Scene builder: as a session builds it")
struct SceneBuilderTests {
  /// Every behavior type, a composite, a group and a field, with values off their defaults.
  static let scene =
    #"{"items":[{"id":"a","center":[60,80],"size":[30,30]},"#
    + #"{"id":"b","center":[160,90],"size":[40,20],"shape":"ellipse","angle":0.3},"#
    + #"{"id":"c","center":[240,120],"size":[30,30],"shape":"path","#
    + #""path":[[-15,-15],[15,-15],[0,15]]},"#
    + #"{"id":"d","center":[100,300],"size":[20,20]},{"id":"e","center":[130,300],"size":[20,20]}],"#
    + #""groups":[{"id":"pair","items":["d","e"]}],"#
    + #""behaviors":[{"type":"gravity","items":["a","b","pair"],"angle":1.4,"magnitude":0.8},"#
    + #"{"type":"collision","items":["a","b","c","pair"],"reference_bounds":true,"#
    + #""boundaries":[{"id":"shelf","from":[0,400],"to":[320,420]}]},"#
    + #"{"type":"composite","children":[{"type":"attachment","item":"c","anchor":[240,40],"#
    + #""length":70,"damping":0.4,"frequency":2},"#
    + #"{"type":"push","items":["b"],"mode":"instantaneous","angle":0.5}]},"#
    + #"{"type":"snap","item":"a","point":[200,200],"damping":0.2},"#
    + #"{"type":"dynamic_item","items":["a","b"],"elasticity":0.7,"density":2,"#
    + #""resistance":0.5,"angular_resistance":3},"#
    + #"{"type":"field","kind":"vortex","items":["pair"],"position":[120,300],"strength":0.5}]}"#

  @Test("items end where a session's end after the same steps")
  func sameAsSession() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(#"{"op":"open","session":"s","clock":"manual","scene":"# + Self.scene + "}")
    try client.expectOK(#"{"op":"step","session":"s","count":90,"dt":0.016666666666666666}"#)
    let reply = try client.expectOK(#"{"op":"get","session":"s"}"#).reply
    let sessionItems = try #require(reply.object["items"] as? [[String: Any]])

    let built = try SceneBuilder.build(SceneSpec(json: JSONParser().parse(Self.scene)))
    for _ in 0..<90 { _ = built.animator.step(1.0 / 60) }

    #expect(built.items.map(\.identifier) == sessionItems.map { $0["id"] as? String })
    for (item, state) in zip(built.items, sessionItems) {
      let center = try #require(state["center"] as? [Double])
      let angle = try #require((state["angle"] as? NSNumber)?.doubleValue)
      // The wire writes positions with 3 decimals and angles with 6 (PROTOCOL.md, "Output decimals").
      #expect(abs(item.center.x - center[0]) < 6e-4, "\(item.identifier)")
      #expect(abs(item.center.y - center[1]) < 6e-4, "\(item.identifier)")
      #expect(abs(item.angle - angle) < 6e-7, "\(item.identifier)")
    }
    // The scene moved: a builder that built nothing would not pass.
    #expect(built.items.contains { abs($0.center.y - 80) > 10 })
  }
}
