import Dynamics
import Foundation
import Primitives
import Testing

@testable import SessionHost
@testable import Transitions

/// Decay behaviors through the embedded host, and the projection a handoff reports for them.
@Suite("Host: decays")
struct HostDecayTests {
  @Test("a decay stops its item at the platform's resting point; behaviors reports its model")
  func restsAtProjection() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"m","clock":"manual","scene":{"bounds":null,"items":[{"id":"a","#
        + #""center":[0,0],"size":[20,20]}],"behaviors":[{"type":"decay","id":"d","items":["a"],"#
        + #""deceleration_rate":0.998,"initial_velocity":[1200,-300]}]}}"#)
    let step = try client.expectOK(#"{"op":"step","session":"m","count":600}"#)
    #expect(step.events("pause").count == 1)
    let reply = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
    let center = try #require(reply.vector("center", of: "a"))
    let expected = DecayMotion(
      .scrollView(decelerationRate: 0.998), from: .zero, velocity: Vector(dx: 1200, dy: -300)
    ).restingPoint
    #expect(abs(center[0] - expected.x) < 0.001, "\(center) vs \(expected)")
    #expect(abs(center[1] - expected.y) < 0.001, "\(center) vs \(expected)")
    let behaviors = try client.expectOK(#"{"op":"behaviors","session":"m"}"#).reply
    let entry = try #require((behaviors.object["behaviors"] as? [[String: Any]])?.first)
    #expect((entry["deceleration_rate"] as? NSNumber)?.doubleValue == 0.998)
    #expect((entry["initial_velocity"] as? [NSNumber])?.map(\.doubleValue) == [1200, -300])
    try client.expectOK(#"{"op":"set_behavior","session":"m","behavior":"d","friction":2}"#)
    let changed = try client.expectOK(#"{"op":"behaviors","session":"m"}"#).reply
    let now = try #require((changed.object["behaviors"] as? [[String: Any]])?.first)
    #expect((now["friction"] as? NSNumber)?.doubleValue == 2)
    #expect(now["deceleration_rate"] == nil)
    try client.expectError(
      "unknown_field",
      #"{"op":"set_behavior","session":"m","behavior":"d","friction":2,"drag":0.5}"#)
    try client.expectError(
      "out_of_range", #"{"op":"set_behavior","session":"m","behavior":"d","drag":1}"#)
    rig.expectFinite()
  }

  @Test("fling: the handoff's projection is where the decay it hands the card to stops it")
  func flingReportsItsProjection() throws {
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"f","clock":"manual","transition":"fling","params":{"friction":2}}"#
    )
    try client.expectOK(#"{"op":"gesture","session":"f","phase":"began","x":160,"y":284,"t":0}"#)
    try client.expectOK(#"{"op":"step","session":"f","count":1}"#)
    try client.expectOK(
      #"{"op":"gesture","session":"f","phase":"changed","x":170,"y":264,"t":0.05}"#)
    try client.expectOK(#"{"op":"step","session":"f","count":1}"#)
    let ended = try client.expectOK(
      #"{"op":"gesture","session":"f","phase":"ended","x":170,"y":264,"t":0.06,"vx":600,"vy":-1200}"#
    )
    let handoff = try #require(ended.events("handoff").first)
    #expect(handoff.object["item_velocity"] as? [Double] == [600, -1200])
    let at = try #require(
      try client.expectOK(#"{"op":"get","session":"f"}"#).reply.vector("center", of: "card"))
    let expected = DecayMotion(
      .fling(friction: 2), from: Point(x: at[0], y: at[1]), velocity: Vector(dx: 600, dy: -1200)
    ).restingPoint
    let projection = try #require(handoff.object["projection"] as? [Double])
    #expect(handoff.object["decay"] as? [String: Double] == ["friction": 2])
    #expect(abs(projection[0] - expected.x) < 0.002 && abs(projection[1] - expected.y) < 0.002)
    let run = try client.expectOK(#"{"op":"step","session":"f","count":600}"#)
    #expect(run.events("done").map { $0.string("outcome") } == ["stopped"])
    let rest = try #require(
      try client.expectOK(#"{"op":"get","session":"f"}"#).reply.vector("center", of: "card"))
    #expect(rest == projection, "the card rests on the projection, as the wire rounds both")
    rig.expectFinite()
  }

  @Test("a handoff's projection is the resting point of the decay that moves the item")
  func projection() throws {
    let animator = DynamicAnimator(referenceBounds: nil)
    let card = try DynamicItem(
      identifier: "card", center: Point(x: 160, y: 400), size: Size(width: 40, height: 40))
    let other = try DynamicItem(
      identifier: "other", center: Point(x: 0, y: 0), size: Size(width: 40, height: 40))
    let model = DecayModel.frictionSimulation(drag: 0.135)
    let decay = try DecayBehavior(
      items: [card], model: model, initialVelocity: Vector(dx: 0, dy: -2000))
    animator.addBehavior(decay)
    animator.addBehavior(GravityBehavior(items: [other]))
    let expected = DecayMotion(model, from: card.center, velocity: Vector(dx: 0, dy: -2000))
      .restingPoint
    #expect(animator.decayProjection(of: "card")?.projection == expected)
    #expect(animator.decayProjection(of: "card")?.decay == model)
    #expect(animator.decayProjection(of: "other") == nil)
    // A spring later in the tree moves the item instead: no projection.
    animator.addBehavior(try SpringBehavior(items: [card], target: .zero))
    #expect(animator.decayProjection(of: "card") == nil)
  }
}
