import Primitives
import Testing
import Wire

/// The fields of a `set_behavior` decoding `fields`, kept as sent.
private func fields(_ fields: String) throws(RejectedRequest) -> BehaviorFields? {
  let line = #"{"op":"set_behavior","session":"s","behavior":"b","# + fields + "}"
  return (try decoded(line).op.request as? SetBehaviorRequest)?.fields
}

/// `fields` read for a behavior of `type`.
private func update(_ text: String, for type: BehaviorType) throws -> BehaviorUpdate {
  try #require(try fields(text)).update(for: type)
}

/// `set_behavior`: the fields are kept as sent, then read once, for the behavior's type.
@Suite("set_behavior fields")
struct BehaviorUpdateTests {
  @Test func keepsTheFieldsAsSentInWireOrder() throws {
    let kept = try #require(try fields(#""damping":0.50,"point":[1,2e0]"#))
    #expect(kept.names == ["damping", "point"])
    #expect(kept.text == #"{"damping":0.50,"point":[1,2e0]}"#)
  }

  @Test func readsEachTypesFields() throws {
    let collision = try update(
      #""items":["a"],"mode":"items","insets":[1,2,3,4],"#
        + #""boundaries":[{"id":"f","from":[0,0],"to":[10,0]}]"#, for: .collision)
    #expect(collision.items == ["a"])
    #expect(collision.mode == .items)
    #expect(collision.insets == EdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    #expect(collision.boundaries?.count == 1)
    let attachment = try update(
      #""anchor":[5,6],"length":7,"frequency":2,"friction_torque":1,"range":[-1,1]"#,
      for: .attachment)
    #expect(attachment.anchor == Point(x: 5, y: 6))
    #expect(attachment.range == FloatRange(minimum: -1, maximum: 1))
    let push = try update(#""active":false,"offset":[1,1]"#, for: .push)
    #expect(push.active == false)
    let item = try update(
      #""elasticity":1,"friction":0.5,"density":2,"resistance":3,"angular_resistance":4,"#
        + #""allows_rotation":true,"anchored":true,"charge":5"#, for: .dynamicItem)
    #expect(item.itemProperties.anchored == true)
    #expect(item.itemProperties.friction == 0.5)
  }

  @Test func aSpringReadsItsParameterSetWhole() throws {
    let spring = try update(#""target":[3,4],"stiffness":100,"damping":10"#, for: .spring)
    #expect(spring.target == Point(x: 3, y: 4))
    #expect(spring.spring?.set == .stiffnessAndDamping)
    #expect(spring.spring?.values[.damping] == 10)
    #expect(spring.damping == nil)
    let origami = try update(#""tension":40,"friction":7"#, for: .spring)
    #expect(origami.spring?.values[.friction] == 7)
    #expect(origami.itemProperties.friction == nil)
    #expect(try update(#""target":[0,0]"#, for: .spring).spring == nil)
  }

  @Test func aDecayReadsItsOneParameter() throws {
    #expect(try update(#""friction":5000"#, for: .decay).decay == .fling(friction: 5000))
    #expect(try update(#""drag":0.5"#, for: .decay).decay == .frictionSimulation(drag: 0.5))
  }

  @Test func refusesAFieldTheTypeDoesNotHave() throws {
    do {
      _ = try update(#""point":[1,2]"#, for: .gravity)
      Issue.record("accepted")
    } catch let error as ProtocolError {
      #expect(error.code == .unknownField)
      #expect(
        error.message
          == "field 'point' is not settable on a 'gravity' behavior (settable: items, direction, "
          + "angle, magnitude, action)")
    }
  }

  @Test func appliesTheTypesOwnRanges() throws {
    // 5 is a valid attachment damping but not a valid snap damping.
    #expect(try update(#""damping":5"#, for: .attachment).damping == 5)
    #expect(throws: ProtocolError.self) { try update(#""damping":5"#, for: .snap) }
    // A push may be strong; gravity may not.
    #expect(try update(#""magnitude":5000"#, for: .push).magnitude == 5000)
    #expect(throws: ProtocolError.self) { try update(#""magnitude":5000"#, for: .gravity) }
  }

  /// Before the type is known only the names are checked: a value wrong for every type is
  /// refused when the type is known, with the path of the field.
  @Test func valuesAreCheckedOnlyWithTheType() throws {
    let kept = try #require(try fields(#""damping":"soft""#))
    do {
      _ = try kept.update(for: .snap)
      Issue.record("accepted")
    } catch {
      #expect(error.code == .wrongType)
      #expect(error.message.contains("'damping'"))
    }
  }

  @Test func namesNoTypeHasAreRefusedOnArrival() throws {
    do {
      _ = try fields(#""dampin":1"#)
      Issue.record("accepted")
    } catch {
      #expect(error.error.code == .unknownField)
    }
    do {
      _ = try decoded(#"{"op":"set_behavior","session":"s","behavior":"b"}"#)
      Issue.record("accepted")
    } catch {
      #expect(error.error.code == .missingField)
    }
  }

  @Test func settableFieldsAreAllReadForTheirType() throws {
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
        let read = try update("\"\(name)\":\(value)" + rest, for: type)
        #expect(read != BehaviorUpdate(), "\(type) \(name)")
        // What a client encodes from the update reads back the same.
        #expect(try BehaviorFields(read).update(for: type) == read, "\(type) \(name)")
      }
    }
  }
}

@Suite("set_behavior friction per type")
struct FrictionPerTypeTests {
  /// `friction` is read in the range of the behavior's own type, and nothing wider.
  @Test func eachTypeKeepsItsOwnFrictionRange() throws {
    #expect(throws: Never.self) { try update(#""friction":5000,"tension":40"#, for: .spring) }
    #expect(throws: Never.self) { try update(#""friction":500000"#, for: .decay) }
    #expect(throws: Never.self) { try update(#""friction":0.5"#, for: .dynamicItem) }
    #expect(throws: ProtocolError.self) { try update(#""friction":5000"#, for: .dynamicItem) }
    #expect(throws: ProtocolError.self) {
      try update(#""friction":20000,"tension":40"#, for: .spring)
    }
  }
}
