import Primitives
import Testing
import Wire

/// The behavior of an `add_behavior` line whose behavior object ends with `fields`.
private func spring(_ fields: String) throws(RejectedRequest) -> SpringSpec? {
  let line =
    #"{"op":"add_behavior","session":"s","behavior":{"type":"spring","items":["a"],"#
    + #""target":[10,20],"# + fields + "}}"
  guard case .spring(let spec)? = (try decoded(line).op.request as? AddBehaviorRequest)?.behavior
  else { return nil }
  return spec
}

/// The error of that line.
private func springError(_ fields: String) -> ProtocolError? {
  rejection(
    #"{"op":"add_behavior","session":"s","behavior":{"type":"spring","items":["a"],"#
      + #""target":[10,20]"# + (fields.isEmpty ? "" : ",") + fields + "}}")
}

private func given(_ set: SpringParameterSet, _ values: [SpringField: Double])
  -> SpringParameterValues
{
  SpringParameterValues(set, values)
}

/// Spring behaviors (extension): the five parameter sets and every way to get one wrong.
@Suite("Spring behaviors")
struct SpringSpecTests {
  @Test("each parameter set reads as given")
  func sets() throws {
    #expect(
      try spring(#""response":0.5,"damping_ratio":0.825"#)?.parameters
        == given(.responseAndDampingRatio, [.response: 0.5, .dampingRatio: 0.825]))
    #expect(
      try spring(#""duration":0.5,"bounce":-0.3"#)?.parameters
        == given(.durationAndBounce, [.duration: 0.5, .bounce: -0.3]))
    #expect(
      try spring(#""stiffness":1500,"damping_ratio":0.5"#)?.parameters
        == given(.stiffnessAndDampingRatio, [.stiffness: 1500, .dampingRatio: 0.5]))
    #expect(
      try spring(#""mass":2,"stiffness":100,"damping":10"#)?.parameters
        == given(.stiffnessAndDamping, [.stiffness: 100, .damping: 10, .mass: 2]))
    #expect(
      try spring(#""tension":40,"friction":7"#)?.parameters
        == given(.origami, [.tension: 40, .friction: 7]))
  }

  @Test("the whole object: id, items, target, initial velocity, rules")
  func whole() throws {
    let line =
      #"{"op":"add_behavior","session":"s","behavior":{"type":"spring","id":"sp","#
      + #""items":["a","b"],"target":[160,284],"stiffness":300,"damping":20,"#
      + #""initial_velocity":[0,-1400],"action":[{"when":{"always":true},"then":[{"emit":"e"}]}]}}"#
    guard let spec = (try decoded(line).op.request as? AddBehaviorRequest)?.behavior else {
      Issue.record("not an add_behavior")
      return
    }
    #expect(
      spec
        == .spring(
          SpringSpec(
            id: "sp", items: ["a", "b"], target: Point(x: 160, y: 284),
            parameters: given(.stiffnessAndDamping, [.stiffness: 300, .damping: 20]),
            initialVelocity: Vector(dx: 0, dy: -1400),
            action: [ActionRule(when: .always, then: [.emit("e")])])))
    #expect(spec.type == .spring)
    #expect(spec.itemIDs == ["a", "b"])
  }

  @Test("no parameter set, or a set without its first field: missing_field naming it")
  func missing() {
    let none = springError("")
    #expect(none?.code == .missingField)
    #expect(none?.message.contains("'behavior.response'") == true)
    #expect(none?.message.contains("'tension' + 'friction'") == true)
    for lone in [#""damping_ratio":0.5"#, #""bounce":0"#, #""mass":1"#, #""friction":3"#] {
      #expect(springError(lone)?.code == .missingField, "\(lone)")
    }
    #expect(
      springError(#""damping_ratio":0.5"#)?.message.hasPrefix(
        "field 'behavior.damping_ratio' needs 'response' or 'stiffness' with it in a 'spring' "
          + "behavior: send a whole parameter set") == true)
    #expect(
      springError(#""response":0.5"#)
        == ProtocolError(
          .missingField,
          "field 'behavior.damping_ratio' is required with 'response' in a 'spring' behavior"))
    #expect(springError(#""duration":0.5"#)?.message.contains("'behavior.bounce'") == true)
    #expect(springError(#""tension":40"#)?.message.contains("'behavior.friction'") == true)
    let stiffnessAlone = springError(#""stiffness":100,"mass":2"#)
    #expect(stiffnessAlone?.code == .missingField)
    #expect(stiffnessAlone?.message.contains("'behavior.damping_ratio' or 'damping'") == true)
    #expect(
      rejection(
        #"{"op":"add_behavior","session":"s","behavior":{"type":"spring","items":["a"],"#
          + #""stiffness":1,"damping":1}}"#)?.message
        == "field 'behavior.target' is required for a 'spring' behavior")
  }

  @Test(
    "two sets, or fields of two sets mixed: unknown_field naming both",
    arguments: [
      (#""response":0.5,"damping_ratio":1,"duration":1,"bounce":0"#, "duration", "response"),
      (#""duration":1,"bounce":0,"stiffness":100,"damping":10"#, "stiffness", "duration"),
      (#""stiffness":100,"damping":10,"tension":40,"friction":7"#, "tension", "stiffness"),
      (#""stiffness":100,"damping":10,"damping_ratio":1"#, "damping", "damping_ratio"),
      (#""response":0.5,"damping_ratio":1,"mass":2"#, "mass", "response"),
      (#""response":0.5,"damping_ratio":1,"bounce":0"#, "bounce", "response"),
      (#""duration":0.5,"bounce":0,"damping_ratio":1"#, "damping_ratio", "duration"),
      (#""tension":40,"friction":7,"damping":1"#, "damping", "tension"),
      (#""stiffness":100,"damping":10,"friction":7"#, "friction", "stiffness"),
    ])
  func mixed(fields: String, field: String, other: String) {
    #expect(
      springError(fields)
        == ProtocolError(
          .unknownField,
          "field 'behavior.\(field)' cannot be combined with '\(other)' in a 'spring' behavior; "
            + "send one of them"))
  }

  @Test(
    "a value outside its range: out_of_range naming the field and the range",
    arguments: [
      (#""response":0,"damping_ratio":1"#, SpringField.response, "0"),
      (#""response":-1,"damping_ratio":1"#, .response, "-1"),
      (#""response":0.5,"damping_ratio":-0.1"#, .dampingRatio, "-0.1"),
      (#""duration":0,"bounce":0"#, .duration, "0"),
      (#""duration":0.5,"bounce":1.5"#, .bounce, "1.5"),
      (#""duration":0.5,"bounce":-1"#, .bounce, "-1"),
      (#""stiffness":0,"damping":1"#, .stiffness, "0"),
      (#""stiffness":1,"damping":-1"#, .damping, "-1"),
      (#""stiffness":1,"damping":1,"mass":0"#, .mass, "0"),
      (#""stiffness":1,"damping_ratio":1,"mass":-2"#, .mass, "-2"),
      (#""tension":0,"friction":1"#, .tension, "0"),
      (#""tension":1,"friction":-1"#, .friction, "-1"),
      (#""tension":1,"friction":10001"#, .friction, "10001"),
    ])
  func outOfRange(fields: String, field: SpringField, got: String) {
    #expect(
      springError(fields)
        == ProtocolError(
          .outOfRange,
          "field 'behavior.\(field.rawValue)' must be \(Limits.spring(field).phrase) (got \(got))"))
  }

  @Test("the ranges are the issue's, in words")
  func rangeWords() {
    #expect(
      springError(#""duration":0.5,"bounce":-1"#)?.message
        == "field 'behavior.bounce' must be between -0.999 and 1 (got -1)")
    #expect(
      springError(#""response":0.5,"damping_ratio":-0.1"#)?.message
        == "field 'behavior.damping_ratio' must be between 0 and 1000 (got -0.1)")
    // Positive: the lower bounds are above 0, and 0 is refused.
    for field in [SpringField.mass, .stiffness, .response, .duration, .tension] {
      #expect(!Limits.spring(field).contains(0), "\(field)")
      #expect(Limits.spring(field).contains(1), "\(field)")
    }
    #expect(Limits.spring(.damping).contains(0))
    #expect(Limits.spring(.dampingRatio).contains(0))
  }

  @Test("the initial velocity is a vector within the speed limit")
  func initialVelocity() {
    #expect(
      springError(#""stiffness":1,"damping":1,"initial_velocity":[1]"#)?.code == .wrongType)
    #expect(
      springError(#""stiffness":1,"damping":1,"initial_velocity":[0,2e6]"#)?.code == .outOfRange)
    #expect(springError(#""stiffness":1,"damping":1,"initial_velocity":null"#)?.code == .wrongType)
  }

  @Test("every set round-trips through the client encoder")
  func roundTrip() throws {
    let sets: [SpringParameterValues] = [
      given(.responseAndDampingRatio, [.response: 0.55, .dampingRatio: 0.825]),
      given(.durationAndBounce, [.duration: 0.5, .bounce: 0.3]),
      given(.durationAndBounce, [.duration: 0.1, .bounce: -0.999]),
      given(.stiffnessAndDampingRatio, [.stiffness: 1500, .dampingRatio: 0.2]),
      given(.stiffnessAndDampingRatio, [.stiffness: 200, .dampingRatio: 0, .mass: 0.5]),
      given(.stiffnessAndDamping, [.stiffness: 157.91367041742973, .damping: 17.59291886010284]),
      given(.stiffnessAndDamping, [.stiffness: 100, .damping: 10, .mass: 3]),
      given(.origami, [.tension: 40, .friction: 7]),
    ]
    for (k, set) in sets.enumerated() {
      let request = Request(
        id: .number("\(k)"),
        op: Op(
          AddBehaviorRequest(
            session: "s",
            behavior: .spring(
              SpringSpec(
                id: k.isMultiple(of: 2) ? "sp" : nil, items: ["a"], target: Point(x: 1.5, y: -2),
                parameters: set,
                initialVelocity: k.isMultiple(of: 3) ? Vector(dx: 0.1, dy: -1400) : nil)))))
      #expect(try RequestDecoder().decode(request.encodedLine) == request, "\(request.encodedLine)")
    }
  }

  @Test("set_behavior: a retarget, a whole new set, and the shared damping's ranges")
  func update() throws {
    func set(_ fields: String, for type: BehaviorType = .spring) throws -> BehaviorUpdate {
      let line = #"{"op":"set_behavior","session":"s","behavior":"b","# + fields + "}"
      guard let request = try decoded(line).op.request as? SetBehaviorRequest else {
        throw ProtocolError(.unknownOp, "not a set_behavior")
      }
      return try request.fields.update(for: type)
    }
    let retarget = try set(#""target":[5,6],"stiffness":300,"damping":20,"mass":2"#)
    #expect(retarget.target == Point(x: 5, y: 6))
    #expect(
      retarget.spring == given(.stiffnessAndDamping, [.stiffness: 300, .damping: 20, .mass: 2]))
    #expect(try set(#""target":[1,2]"#).spring == nil)
    #expect(try set(#""tension":40,"friction":7"#).spring?.set == .origami)
    do {
      _ = try set(#""damping":5000"#)
      Issue.record("a damping alone was accepted for a spring")
    } catch let error as ProtocolError {
      #expect(error.code == .missingField)
      #expect(error.message.hasPrefix("field 'damping' needs 'stiffness' with it"))
    }
    // 5000 is a spring's damping, not an attachment's.
    #expect(
      throws: ProtocolError(.outOfRange, "field 'damping' must be between 0 and 1000 (got 5000)")
    ) { try set(#""damping":5000"#, for: .attachment) }
    #expect(throws: ProtocolError.self) { try set(#""target":[1,2]"#, for: .snap) }
  }

  @Test("the stiffest spring's constants are reported, within the ranges they are sent back in")
  func reportedConstants() {
    let stiff = SpringParameters.stiffness(1e9, dampingRatio: 1000, mass: 1e6)
    #expect(Limits.spring(.damping).contains(stiff.damping))
    #expect(SpringParameterValues(stiff).parameters == stiff)
    let names = BehaviorSpec.spring(
      SpringSpec(items: ["a"], target: .zero, parameters: SpringParameterValues(stiff))
    ).stateFields.map(\.name)
    #expect(
      names.suffix(9) == [
        "mass", "stiffness", "damping", "damping_ratio", "response", "duration", "bounce",
        "tension", "friction",
      ])
  }
}
