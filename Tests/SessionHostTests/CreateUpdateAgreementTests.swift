import Foundation
import Testing

/// A behavior's settable fields reach the engine by one path (`BehaviorFactory.apply`), whether
/// they come with the behavior (`open`'s scene, `add_behavior`) or later (`set_behavior`): the
/// `behaviors` op reads the same values back either way.
@Suite("Behaviors: created with values or set afterwards")
struct CreateUpdateAgreementTests {
  static let items =
    #""items":[{"id":"a","center":[100,100],"size":[20,20]},"#
    + #"{"id":"b","center":[200,100],"size":[30,30]},{"id":"c","center":[240,200],"size":[40,40]}]"#

  /// Per type (and attachment kind): the fields a behavior is made from, and settable fields off their defaults.
  static let cases: [(name: String, made: String, settable: String)] = [
    ("gravity", #""type":"gravity","items":["a"]"#, #""angle":0.5,"magnitude":2"#),
    (
      "collision", #""type":"collision","items":["a","b"]"#,
      #""mode":"items","insets":[1,2,3,4],"#
        + #""boundaries":[{"id":"shelf","from":[0,200],"to":[320,200]}]"#
    ),
    (
      "attachment", #""type":"attachment","item":"b","anchor":[200,50]"#,
      #""length":33,"damping":0.7,"frequency":3,"friction_torque":4"#
    ),
    (
      "sliding attachment",
      #""type":"attachment","kind":"sliding","item":"b","anchor":[200,50],"axis":[1,0]"#,
      #""range":[-5,5],"friction_torque":4"#
    ),
    ("snap", #""type":"snap","item":"c","point":[240,300]"#, #""damping":0.25"#),
    (
      "push", #""type":"push","items":["b"],"mode":"continuous""#,
      #""angle":1,"magnitude":3,"offset":[1,2],"active":false"#
    ),
    (
      "dynamic_item", #""type":"dynamic_item","items":["a"]"#,
      #""elasticity":0.6,"friction":0.7,"density":2.5,"resistance":1500,"#
        + #""angular_resistance":2.5,"allows_rotation":false,"anchored":true,"charge":-3"#
    ),
    (
      "field", #""type":"field","kind":"noise","items":["a"]"#,
      #""position":[10,20],"strength":2,"falloff":1,"minimum_radius":3,"smoothness":0.3,"#
        + #""animation_speed":2,"seed":7"#
    ),
  ]

  @Test("the values read back are the same", arguments: cases.map(\.name))
  func sameValues(_ name: String) throws {
    let c = try #require(Self.cases.first { $0.name == name })
    let rig = HostRig()
    let client = rig.connect()
    try client.expectOK(
      #"{"op":"open","session":"made","clock":"manual","scene":{"# + Self.items
        + #","behaviors":[{"id":"x","# + c.made + "," + c.settable + "}]}}")
    try client.expectOK(
      #"{"op":"open","session":"set","clock":"manual","scene":{"# + Self.items
        + #","behaviors":[{"id":"x","# + c.made + "}]}}")
    let bare = try behavior(client, "set")
    try client.expectOK(#"{"op":"set_behavior","session":"set","behavior":"x","# + c.settable + "}")
    let made = try behavior(client, "made")
    let set = try behavior(client, "set")
    #expect(made == set, "\(made) against \(set)")
    // The settable values are off the defaults, so the comparison says something.
    #expect(made != bare)
  }

  private func behavior(_ client: HostClient, _ session: String) throws -> NSDictionary {
    let reply = try client.expectOK(#"{"op":"behaviors","session":""# + session + #""}"#).reply
    let entries = try #require(reply.object["behaviors"] as? [[String: Any]])
    return NSDictionary(dictionary: try #require(entries.first))
  }
}
