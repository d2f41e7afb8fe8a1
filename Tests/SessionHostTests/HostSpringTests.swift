import Foundation
import Primitives
import Testing

/// A manual scene of one 20 × 20 item `a` at (0, 0) under `behavior`.
private func openScene(_ client: HostClient, _ behavior: String) throws {
  try client.expectOK(
    #"{"op":"open","session":"m","clock":"manual","scene":{"bounds":null,"items":[{"id":"a","#
      + #""center":[0,0],"size":[20,20]}],"behaviors":["# + behavior + "]}}")
}

/// The `behaviors` entry `index` of session `m`.
private func entry(_ client: HostClient, _ index: Int = 0) throws -> [String: Any] {
  let reply = try client.expectOK(#"{"op":"behaviors","session":"m"}"#).reply
  let entries = try #require(reply.object["behaviors"] as? [[String: Any]])
  return entries[index]
}

private func number(_ entry: [String: Any], _ key: String) -> Double? {
  (entry[key] as? NSNumber)?.doubleValue
}

/// Item `a`'s center and velocity, as `get` reports them.
private func state(_ client: HostClient) throws -> (center: Point, velocity: Vector) {
  let reply = try client.expectOK(#"{"op":"get","session":"m"}"#).reply
  let c = try #require(reply.vector("center", of: "a"))
  let v = try #require(reply.vector("velocity", of: "a"))
  return (Point(x: c[0], y: c[1]), Vector(dx: v[0], dy: v[1]))
}

/// Spring behaviors through the embedded host: landing, the `behaviors` report, retargeting.
@Suite("Host: springs")
struct HostSpringTests {
  @Test("a spring carries its item exactly onto the target, and the animator pauses")
  func lands() throws {
    let rig = HostRig()
    let client = rig.connect()
    try openScene(
      client,
      #"{"type":"spring","id":"s","items":["a"],"target":[100,50],"duration":0.5,"bounce":0.3,"#
        + #""initial_velocity":[0,-800]}"#)
    let step = try client.expectOK(#"{"op":"step","session":"m","count":240}"#)
    #expect(step.events("pause").count == 1)
    let (center, velocity) = try state(client)
    #expect(center == Point(x: 100, y: 50))
    #expect(velocity == .zero)
    rig.expectFinite()
  }

  @Test("behaviors reports SwiftUI's two documented conversions")
  func conversions() throws {
    let rig = HostRig()
    let client = rig.connect()
    try openScene(
      client,
      #"{"type":"spring","id":"s","items":["a"],"target":[0,0],"duration":0.5,"bounce":0.3}"#)
    try client.expectOK(
      #"{"op":"add_behavior","session":"m","behavior":{"type":"spring","id":"t","items":[],"#
        + #""target":[0,0],"stiffness":100,"damping":10}}"#)
    let first = try entry(client, 0)
    #expect(number(first, "mass") == 1)
    #expect(abs(number(first, "stiffness")! - 157.9) < 0.05)
    #expect(abs(number(first, "damping")! - 17.6) < 0.05)
    #expect(abs(number(first, "bounce")! - 0.3) < 1e-6)
    #expect(abs(number(first, "duration")! - 0.5) < 1e-6)
    let second = try entry(client, 1)
    #expect(abs(number(second, "duration")! - 0.63) < 0.005)
    #expect(abs(number(second, "response")! - 0.63) < 0.005)
    #expect(number(second, "bounce") == 0.5)
    #expect(number(second, "damping_ratio") == 0.5)
    #expect(
      Array(second.keys).sorted()
        == [
          "bounce", "damping", "damping_ratio", "duration", "friction", "id", "items", "mass",
          "response", "stiffness", "target", "tension", "type",
        ])
  }

  /// Issue 38: the README promises the spring "in every other platform's terms"; Origami's are
  /// tension and friction (Rebound's conversion inverted, for the spring of mass 1 that moves
  /// the same way), which open back into the same spring.
  @Test("behaviors gives Origami's tension and friction, which give the same spring back")
  func origami() throws {
    let rig = HostRig()
    let client = rig.connect()
    try openScene(
      client, #"{"type":"spring","id":"s","items":["a"],"target":[0,0],"tension":40,"friction":10}"#
    )
    try client.expectOK(
      #"{"op":"add_behavior","session":"m","behavior":{"type":"spring","id":"t","items":[],"#
        + #""target":[0,0],"stiffness":400,"damping":40,"mass":2}}"#)
    let given = try entry(client, 0)
    #expect(number(given, "tension") == 40)
    #expect(number(given, "friction") == 10)
    #expect(abs(number(given, "stiffness")! - 230.2) < 1e-9)
    #expect(number(given, "damping") == 31)
    let heavy = try entry(client, 1)
    // k/m = 200, c/m = 20: tension (200 − 194) / 3.62 + 30, friction (20 − 25) / 3 + 8.
    #expect(number(heavy, "tension") == 31.657459)
    #expect(number(heavy, "friction") == 6.333333)
    try client.expectOK(
      #"{"op":"set_behavior","session":"m","behavior":"t","tension":31.657459,"#
        + #""friction":6.333333}"#)
    let back = try entry(client, 1)
    #expect(abs(number(back, "damping_ratio")! - number(heavy, "damping_ratio")!) < 1e-6)
    #expect(abs(number(back, "response")! - number(heavy, "response")!) < 1e-6)
  }

  @Test("a retarget in flight continues from the item's position and velocity")
  func retarget() throws {
    let rig = HostRig()
    let client = rig.connect()
    try openScene(
      client,
      #"{"type":"spring","id":"s","items":["a"],"target":[300,0],"stiffness":200,"#
        + #""damping_ratio":0.6}"#)
    try client.expectOK(#"{"op":"step","session":"m","count":12}"#)
    let before = try state(client)
    #expect(before.velocity.dx > 100, "the item is in flight")
    try client.expectOK(
      #"{"op":"set_behavior","session":"m","behavior":"s","target":[0,200],"#
        + #""response":0.4,"damping_ratio":0.9}"#)
    // Nothing moves at the retarget itself.
    let now = try state(client)
    #expect(now.center == before.center)
    #expect(now.velocity == before.velocity)
    // One frame later the item is where the new spring, started from that state, puts it.
    try client.expectOK(#"{"op":"step","session":"m","count":1}"#)
    let after = try state(client)
    let expected = SpringMotion(
      .response(0.4, dampingRatio: 0.9), from: before.center, velocity: before.velocity,
      to: Point(x: 0, y: 200)
    ).state(at: 1.0 / 60)
    #expect(abs(after.center.x - expected.position.x) < 0.01, "\(after) vs \(expected)")
    #expect(abs(after.center.y - expected.position.y) < 0.01, "\(after) vs \(expected)")
    #expect(abs(after.velocity.dx - expected.velocity.dx) < 0.05, "\(after) vs \(expected)")
    #expect(abs(after.velocity.dy - expected.velocity.dy) < 0.05, "\(after) vs \(expected)")
    let report = try entry(client)
    #expect((report["target"] as? [NSNumber])?.map(\.doubleValue) == [0, 200])
    #expect(abs(number(report, "response")! - 0.4) < 1e-6)
    rig.expectFinite()
  }

  @Test("set_behavior on a spring takes one whole parameter set, in range")
  func badUpdates() throws {
    let rig = HostRig()
    let client = rig.connect()
    try openScene(
      client, #"{"type":"spring","id":"s","items":["a"],"target":[1,1],"duration":1,"bounce":0}"#)
    let partial = try client.expectError(
      "missing_field", #"{"op":"set_behavior","session":"m","behavior":"s","bounce":0.2}"#)
    #expect(partial.errorMessage?.contains("'bounce'") == true)
    try client.expectError(
      "unknown_field",
      #"{"op":"set_behavior","session":"m","behavior":"s","duration":1,"bounce":0,"mass":2}"#)
    try client.expectError(
      "out_of_range",
      #"{"op":"set_behavior","session":"m","behavior":"s","stiffness":0,"damping":1}"#)
    try client.expectError(
      "unknown_field", #"{"op":"set_behavior","session":"m","behavior":"s","magnitude":1}"#)
    try client.expectError(
      "unknown_field", #"{"op":"set_behavior","session":"m","behavior":"s","drag":0.5}"#)
  }
}
