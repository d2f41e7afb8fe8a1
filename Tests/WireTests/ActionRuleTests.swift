import Primitives
import Testing
import Wire

/// A gravity on `a` with the action rules `rules` (a JSON array), as an `add_behavior`.
private func rules(_ rules: String) throws(RejectedRequest) -> [ActionRule]? {
  guard
    let spec =
      (try decoded(
        #"{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":["a"],"action":"#
          + rules + "}}"
      ).op.request as? AddBehaviorRequest)?.behavior
  else { return nil }
  return spec.action
}

private func rulesError(_ rules: String) -> ProtocolError? {
  rejection(
    #"{"op":"add_behavior","session":"s","behavior":{"type":"gravity","items":["a"],"action":"#
      + rules + "}}")
}

/// One rule with condition `when` and effects `then`.
private func rule(when: String, then: String = #"[{"emit":"x"}]"#) -> String {
  #"[{"when":"# + when + #","then":"# + then + "}]"
}

private let ruleSceneItems =
  #""items":[{"id":"a","center":[0,0],"size":[10,10]},{"id":"b","center":[20,0],"size":[10,10]}],"#
  + #""groups":[{"id":"g","items":["b"]}]"#

/// Action rules: `{"when", "then", "repeat"}` on every behavior type.
@Suite("Action rules")
struct ActionRuleTests {
  @Test("every condition and every effect")
  func shapes() throws {
    let read = try rules(
      #"[{"when":{"always":true},"then":[{"emit":"tick"}],"repeat":true},"#
        + #"{"when":{"item":"a","inside":[0,500,320,68]},"then":[{"remove_behavior":"b1"}]},"#
        + #"{"when":{"item":"a","outside":[-1,-2,0,0]},"then":[{"set":{"behavior":"f","#
        + #""region":{"radius":5},"strength":2}},{"emit":"left"}],"repeat":false},"#
        + #"{"when":{"item":"a","speed_below":0.5},"then":[{"emit":"slow"}]},"#
        + #"{"when":{"item":"a","speed_above":1000000},"then":[{"emit":"fast"}]}]"#)
    var set = BehaviorUpdate()
    set.strength = 2
    set.region = .radius(5)
    #expect(
      read == [
        ActionRule(when: .always, then: [.emit("tick")], repeats: true),
        ActionRule(
          when: .inside(item: "a", rect: Rect(x: 0, y: 500, width: 320, height: 68)),
          then: [.removeBehavior("b1")]),
        ActionRule(
          when: .outside(item: "a", rect: Rect(x: -1, y: -2, width: 0, height: 0)),
          then: [.set(behavior: "f", update: set), .emit("left")]),
        ActionRule(when: .speedBelow(item: "a", speed: 0.5), then: [.emit("slow")]),
        ActionRule(when: .speedAbove(item: "a", speed: 1e6), then: [.emit("fast")]),
      ])
    #expect(read?.map(\.when.item) == [nil, "a", "a", "a", "a"])
  }

  @Test("every behavior type takes action rules", arguments: BehaviorType.allCases)
  func everyType(type: BehaviorType) throws {
    let bodies: [BehaviorType: String] = [
      .gravity: #""items":["a"]"#, .collision: #""items":["a"]"#,
      .attachment: #""item":"a","anchor":[0,0]"#, .snap: #""item":"a","point":[0,0]"#,
      .push: #""items":["a"],"mode":"continuous""#, .dynamicItem: #""items":["a"]"#,
      .field: #""kind":"spring""#, .composite: #""children":[]"#,
      .spring: #""items":["a"],"target":[0,0],"duration":0.5,"bounce":0"#,
      .decay: #""items":["a"],"deceleration_rate":0.998"#,
    ]
    let body = try #require(bodies[type])
    guard
      let spec =
        (try decoded(
          #"{"op":"add_behavior","session":"s","behavior":{"type":""# + type.rawValue + #"","#
            + body + #","action":[{"when":{"always":true},"then":[{"emit":"e"}]}]}}"#
        ).op.request as? AddBehaviorRequest)?.behavior
    else {
      Issue.record("not an add_behavior")
      return
    }
    #expect(spec.action == [ActionRule(when: .always, then: [.emit("e")])])
    var cleared = spec
    cleared.action = []
    #expect(cleared.action.isEmpty && cleared.type == type)
  }

  @Test(
    "rule shapes that are refused",
    arguments: [
      (#"[{"then":[{"emit":"x"}]}]"#, ErrorCode.missingField),
      (#"[{"when":{"always":true}}]"#, .missingField),
      (#"[{"when":{"always":true},"then":[]}]"#, .outOfRange),
      (#"[{"when":{"always":true},"then":[{"emit":"x"}],"every":2}]"#, .unknownField),
      (#"[{"when":{"always":true},"then":[{"emit":"x"}],"repeat":"yes"}]"#, .wrongType),
      (#"{"when":{"always":true},"then":[{"emit":"x"}]}"#, .wrongType),
      (rule(when: "{}"), .missingField),
      (rule(when: #"{"always":false}"#), .outOfRange),
      (rule(when: #"{"always":true,"item":"a"}"#), .unknownField),
      (rule(when: #"{"always":true,"speed_below":1}"#), .unknownField),
      (rule(when: #"{"item":"a"}"#), .missingField),
      (rule(when: #"{"inside":[0,0,1,1]}"#), .missingField),
      (rule(when: #"{"item":"a","inside":[0,0,1,1],"outside":[0,0,1,1]}"#), .unknownField),
      (rule(when: #"{"item":"a","inside":[0,0,1]}"#), .wrongType),
      (rule(when: #"{"item":"a","inside":[0,0,-1,1]}"#), .outOfRange),
      (rule(when: #"{"item":"a","outside":[0,2000000,1,1]}"#), .outOfRange),
      (rule(when: #"{"item":"a","speed_below":-1}"#), .outOfRange),
      (rule(when: #"{"item":"a","speed_above":1000001}"#), .outOfRange),
      (rule(when: #"{"item":"","speed_above":1}"#), .outOfRange),
      (rule(when: #"{"item":"a","near":1}"#), .unknownField),
      (rule(when: #"{"always":true}"#, then: "[{}]"), .missingField),
      (
        rule(when: #"{"always":true}"#, then: #"[{"emit":"x","remove_behavior":"b"}]"#),
        .unknownField
      ),
      (rule(when: #"{"always":true}"#, then: #"[{"emit":""}]"#), .outOfRange),
      (rule(when: #"{"always":true}"#, then: #"[{"remove_behavior":1}]"#), .wrongType),
      (rule(when: #"{"always":true}"#, then: #"[{"set":{"behavior":"b"}}]"#), .missingField),
      (rule(when: #"{"always":true}"#, then: #"[{"set":{"magnitude":1}}]"#), .missingField),
      (
        rule(when: #"{"always":true}"#, then: #"[{"set":{"behavior":"b","colour":1}}]"#),
        .unknownField
      ),
      (
        rule(when: #"{"always":true}"#, then: #"[{"set":{"behavior":"b","action":[]}}]"#),
        .unknownField
      ),
      (rule(when: #"{"always":true}"#, then: #"[{"set":"b"}]"#), .wrongType),
      (rule(when: #"{"always":true}"#, then: #"[{"launch":"b"}]"#), .unknownField),
    ])
  func refused(action: String, code: ErrorCode) {
    #expect(rulesError(action)?.code == code, "\(String(describing: rulesError(action)))")
  }

  @Test("16 rules a behavior, 8 effects a rule")
  func counts() throws {
    let one = #"{"when":{"always":true},"then":[{"emit":"x"}]}"#
    #expect(
      try rules(
        "[" + Array(repeating: one, count: Limits.maxActionRules).joined(separator: ",") + "]")?
        .count == Limits.maxActionRules)
    #expect(
      rulesError(
        "[" + Array(repeating: one, count: Limits.maxActionRules + 1).joined(separator: ",") + "]")?
        .code == .outOfRange)
    let effect = #"{"emit":"x"}"#
    func effects(_ n: Int) -> String {
      rule(
        when: #"{"always":true}"#,
        then: "[" + Array(repeating: effect, count: n).joined(separator: ",") + "]")
    }
    #expect(
      try rules(effects(Limits.maxActionEffects))?.first?.then.count == Limits.maxActionEffects)
    #expect(rulesError(effects(Limits.maxActionEffects + 1))?.code == .outOfRange)
  }

  @Test("a rule refusing 'action' in a set says why")
  func setWithoutAction() {
    #expect(
      rulesError(rule(when: #"{"always":true}"#, then: #"[{"set":{"behavior":"b","action":[]}}]"#))
        == ProtocolError(
          .unknownField,
          "field 'behavior.action[0].then[0].set.action' is not allowed in a 'set' effect: a rule "
            + "does not change rules (set_behavior does)"))
  }

  @Test("set_behavior replaces rules; [] removes them; composites set only action")
  func setBehavior() throws {
    guard
      let set = try decoded(
        #"{"op":"set_behavior","session":"s","behavior":"c","action":[]}"#
      ).op.request as? SetBehaviorRequest
    else {
      Issue.record("not a set_behavior")
      return
    }
    #expect(set.fields.names == ["action"])
    for type in BehaviorType.allCases {
      #expect(try set.fields.update(for: type).action == [])
    }
    var items = BehaviorUpdate()
    items.items = ["a"]
    #expect(throws: ProtocolError.self) { try BehaviorFields(items).update(for: .composite) }
    #expect(BehaviorUpdate.settableFields(of: .composite) == ["action"])
  }

  @Test("in a scene, a rule watches an item of the scene, not a group")
  func sceneItems() {
    func scene(_ when: String, then: String = #"[{"emit":"x"}]"#) -> String {
      let snap = #"{"type":"snap","id":"s","item":"g","point":[0,0],"action":"#
      let action: String = rule(when: when, then: then)
      return ["{", ruleSceneItems, #","behaviors":["#, snap, action, "}]}"].joined()
    }
    #expect(sceneError(scene(#"{"item":"a","speed_below":1}"#)) == nil)
    #expect(
      sceneError(scene(#"{"item":"g","speed_below":1}"#))
        == ProtocolError(
          .invalidScene,
          "rule scene.behaviors[0].action[0] watches 'g', which is not an item of the scene (it is "
            + "a group; a rule watches an item)"))
    #expect(sceneError(scene(#"{"item":"zz","speed_below":1}"#))?.code == .invalidScene)
    // A set effect's items are items or groups of the scene.
    #expect(
      sceneError(scene(#"{"always":true}"#, then: #"[{"set":{"behavior":"x","items":["g","a"]}}]"#))
        == nil)
    #expect(
      sceneError(scene(#"{"always":true}"#, then: #"[{"set":{"behavior":"x","items":["zz"]}}]"#))?
        .code == .invalidScene)
  }

  @Test("in a scene, a set aimed at a behavior of the scene is checked for its type")
  func sceneSetChecks() {
    func scene(_ set: String) -> String {
      let gravity = #"{"type":"gravity","id":"down","items":["a"]}"#
      let composite: String =
        #"{"type":"composite","children":[{"type":"snap","id":"s","item":"a","point":[0,0]}],"#
        + #""action":[{"when":{"always":true},"then":[{"set":"# + set + "}]}]}"
      return ["{", ruleSceneItems, #","behaviors":["#, gravity, ",", composite, "]}"].joined()
    }
    #expect(sceneError(scene(#"{"behavior":"down","magnitude":2}"#)) == nil)
    #expect(sceneError(scene(#"{"behavior":"s","damping":1}"#)) == nil)
    #expect(
      sceneError(scene(#"{"behavior":"s","magnitude":2}"#))
        == ProtocolError(
          .unknownField,
          "rule scene.behaviors[1].action[0] sets 's': field 'magnitude' is not settable on a "
            + "'snap' behavior (settable: point, damping, action)"))
    #expect(sceneError(scene(#"{"behavior":"down","magnitude":5000}"#))?.code == .outOfRange)
    // A behavior the scene does not have is the daemon's to look up when the rule fires.
    #expect(
      sceneError(scene(#"{"behavior":"later","anything_settable":1}"#))?.code == .unknownField)
    #expect(sceneError(scene(#"{"behavior":"later","magnitude":5000}"#)) == nil)
  }
}
