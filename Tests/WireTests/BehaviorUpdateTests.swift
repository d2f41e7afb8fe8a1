import Primitives
import Testing
import Wire

private func update(_ fields: String) throws(RejectedRequest) -> BehaviorUpdate? {
  let line = #"{"op":"set_behavior","session":"s","behavior":"b","# + fields + "}"
  guard let request = try decoded(line).op.request as? SetBehaviorRequest else { return nil }
  return request.update
}

/// `set_behavior`: a typed bag decoded without knowing the behavior's type, checked per type.
@Suite("set_behavior fields")
struct BehaviorUpdateTests {
  @Test func readsEveryTypedField() throws {
    let bag = try #require(
      try update(
        #""items":["a"],"mode":"items","insets":[1,2,3,4],"anchor":[5,6],"length":7,"#
          + #""frequency":2,"friction_torque":1,"range":[-1,1],"active":false,"offset":[1,1],"#
          + #""elasticity":1,"friction":0.5,"density":2,"resistance":3,"angular_resistance":4,"#
          + #""allows_rotation":true,"anchored":true,"charge":5,"#
          + #""boundaries":[{"id":"f","from":[0,0],"to":[10,0]}]"#))
    #expect(bag.items == ["a"])
    #expect(bag.mode == .items)
    #expect(bag.insets == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    #expect(bag.anchor == Point(x: 5, y: 6))
    #expect(bag.range == FloatRange(minimum: -1, maximum: 1))
    #expect(bag.active == false)
    #expect(bag.itemProperties.anchored == true)
    #expect(bag.boundaries?.count == 1)
    #expect(
      bag.fieldNames == [
        "items", "mode", "insets", "boundaries", "anchor", "length", "frequency",
        "friction_torque", "range", "active", "offset", "elasticity", "friction", "density",
        "resistance", "angular_resistance", "allows_rotation", "anchored", "charge",
      ])
  }

  @Test func checkAcceptsFieldsOfTheType() throws {
    let snap = try #require(try update(#""point":[1,2],"damping":1"#))
    #expect(throws: Never.self) { try snap.check(for: .snap) }
    let gravity = try #require(try update(#""angle":1.57,"magnitude":2"#))
    #expect(throws: Never.self) { try gravity.check(for: .gravity) }
    #expect(throws: Never.self) { try gravity.check(for: .push) }
  }

  @Test func checkRejectsFieldsOfAnotherType() throws {
    let snap = try #require(try update(#""point":[1,2]"#))
    #expect(throws: ProtocolError.self) { try snap.check(for: .gravity) }
    do {
      try snap.check(for: .gravity)
    } catch {
      #expect(error.code == .unknownField)
      #expect(
        error.message
          == "field 'point' is not settable on a 'gravity' behavior (settable: items, direction, "
          + "angle, magnitude, action)")
    }
  }

  @Test func checkAppliesTheTypesOwnRanges() throws {
    // 5 is a valid attachment damping but not a valid snap damping.
    let bag = try #require(try update(#""damping":5"#))
    #expect(throws: Never.self) { try bag.check(for: .attachment) }
    do {
      try bag.check(for: .snap)
      Issue.record("accepted")
    } catch {
      #expect(error.code == .outOfRange)
    }
    // A push may be strong; gravity may not.
    let strong = try #require(try update(#""magnitude":5000"#))
    #expect(throws: Never.self) { try strong.check(for: .push) }
    #expect(throws: ProtocolError.self) { try strong.check(for: .gravity) }
  }

  @Test func settableFieldsAreAllAcceptedByTheDecoder() throws {
    let samples: [String: String] = [
      "items": #"["a"]"#, "direction": "[0,1]", "angle": "1", "magnitude": "1",
      "mode": #""everything""#, "reference_bounds": "true", "insets": "[0,0,0,0]",
      "boundaries": "[]", "anchor": "[0,0]", "length": "1", "damping": "0.5", "frequency": "1",
      "friction_torque": "1", "range": "[0,1]", "point": "[0,0]", "active": "true",
      "offset": "[0,0]", "elasticity": "0.5", "friction": "1", "density": "1",
      "resistance": "1", "angular_resistance": "1", "allows_rotation": "false",
      "anchored": "false", "charge": "1", "position": "[1,2]", "region": #"{"radius":5}"#,
      "strength": "-2", "falloff": "2", "minimum_radius": "1", "smoothness": "0.5",
      "animation_speed": "2", "seed": "7",
      "action": #"[{"when":{"always":true},"then":[{"emit":"tick"}]}]"#, "target": "[0,0]",
      "response": "0.5", "damping_ratio": "1", "duration": "0.5", "bounce": "0",
      "stiffness": "100", "mass": "2", "tension": "40", "deceleration_rate": "0.998",
      "drag": "0.5",
    ]
    // A spring takes a whole parameter set: each field is sent with the rest of one.
    let springSets: [String: String] = [
      "response": #""damping_ratio":1"#, "damping_ratio": #""response":0.5"#,
      "duration": #""bounce":0"#, "bounce": #""duration":0.5"#, "stiffness": #""damping":1"#,
      "damping": #""stiffness":100"#, "mass": #""stiffness":100,"damping":1"#,
      "tension": #""friction":7"#, "friction": #""tension":40"#,
    ]
    for type in BehaviorType.allCases {
      for name in BehaviorUpdate.settableFields(of: type) {
        let value = try #require(samples[name], "no sample for \(name)")
        let rest = type == .spring ? springSets[name].map { "," + $0 } ?? "" : ""
        let bag = try #require(try update("\"\(name)\":\(value)" + rest))
        #expect(bag.fieldNames.contains(name))
        #expect(throws: Never.self, "\(type) \(name)") { try bag.check(for: type) }
      }
    }
  }
}

@Suite("set_behavior friction per type")
struct FrictionPerTypeTests {
  /// `friction` is read at the widest range before the type is known, then held to the type's.
  @Test func eachTypeKeepsItsOwnFrictionRange() throws {
    func update(_ friction: Double, _ more: String = "") throws -> BehaviorUpdate {
      var decoded: BehaviorUpdate?
      let request = try RequestDecoder().decode(
        #"{"op":"set_behavior","session":"s","behavior":"b","friction":"# + "\(friction)\(more)}")
      if let set = request.op.request as? SetBehaviorRequest { decoded = set.update }
      return try #require(decoded)
    }
    #expect(throws: Never.self) { try update(5_000, #","tension":40"#).check(for: .spring) }
    #expect(throws: Never.self) { try update(500_000).check(for: .decay) }
    #expect(throws: Never.self) { try update(0.5).check(for: .dynamicItem) }
    #expect(throws: ProtocolError.self) { try update(5_000).check(for: .dynamicItem) }
    #expect(throws: ProtocolError.self) {
      try update(20_000, #","tension":40"#).check(for: .spring)
    }
  }
}
