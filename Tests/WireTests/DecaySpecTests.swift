import Primitives
import Testing
import Wire

private func decayLine(_ fields: String) -> String {
  #"{"op":"add_behavior","session":"s","behavior":{"type":"decay","items":["a"]"#
    + (fields.isEmpty ? "" : ",") + fields + "}}"
}

private func decay(_ fields: String) throws(RejectedRequest) -> DecaySpec? {
  guard
    case .decay(let spec)? = (try decoded(decayLine(fields)).op.request as? AddBehaviorRequest)?
      .behavior
  else {
    return nil
  }
  return spec
}

/// Decay behaviors (extension): one platform's parameter, and every way to get it wrong.
@Suite("Decay behaviors")
struct DecaySpecTests {
  @Test("each model reads as given, with the rest of the object")
  func models() throws {
    #expect(try decay(#""deceleration_rate":0.998"#)?.model == .scrollView(decelerationRate: 0.998))
    #expect(try decay(#""friction":1"#)?.model == .fling(friction: 1))
    #expect(try decay(#""drag":0.135"#)?.model == .frictionSimulation(drag: 0.135))
    let full = try decay(#""id":"d","deceleration_rate":0.99,"initial_velocity":[-300,2000]"#)
    #expect(
      full
        == DecaySpec(
          id: "d", items: ["a"], model: .scrollView(decelerationRate: 0.99),
          initialVelocity: Vector(dx: -300, dy: 2000)))
  }

  @Test("no parameter: missing_field naming the three")
  func missing() {
    #expect(
      rejection(decayLine(""))
        == ProtocolError(
          .missingField,
          "one of the fields 'behavior.deceleration_rate', 'friction' or 'drag' is required for "
            + "a 'decay' behavior"))
    let noItems = #"{"op":"add_behavior","session":"s","behavior":{"type":"decay","drag":0.5}}"#
    #expect(rejection(noItems)?.code == .missingField)
  }

  @Test(
    "two parameters: unknown_field naming both",
    arguments: [
      (#""deceleration_rate":0.998,"friction":1"#, "friction", "deceleration_rate"),
      (#""friction":1,"drag":0.5"#, "drag", "friction"),
      (#""drag":0.5,"deceleration_rate":0.99"#, "drag", "deceleration_rate"),
    ])
  func two(fields: String, field: String, other: String) {
    #expect(
      rejection(decayLine(fields))
        == ProtocolError(
          .unknownField,
          "field 'behavior.\(field)' cannot be combined with '\(other)' in a 'decay' behavior; "
            + "send one of them"))
  }

  @Test(
    "a value outside its range: out_of_range naming the field and the range",
    arguments: [
      (#""deceleration_rate":0"#, DecayField.decelerationRate, "0"),
      (#""deceleration_rate":1"#, .decelerationRate, "1"),
      (#""deceleration_rate":-0.5"#, .decelerationRate, "-0.5"),
      (#""friction":0"#, .friction, "0"),
      (#""friction":-1"#, .friction, "-1"),
      (#""friction":1000001"#, .friction, "1000001"),
      (#""drag":0"#, .drag, "0"),
      (#""drag":1"#, .drag, "1"),
    ])
  func outOfRange(fields: String, field: DecayField, got: String) {
    #expect(
      rejection(decayLine(fields))
        == ProtocolError(
          .outOfRange,
          "field 'behavior.\(field.rawValue)' must be \(Limits.decay(field).phrase) (got \(got))"))
  }

  @Test(
    "a deceleration rate and a drag lie in closed ranges of 6 decimals, a decay at least 0.012/s")
  func closedRanges() {
    #expect(
      rejection(decayLine(#""deceleration_rate":1"#))?.message
        == "field 'behavior.deceleration_rate' must be between 1e-06 and 0.999988 (got 1)")
    #expect(Limits.decay(.drag).contains(0.988_071))
    #expect(!Limits.decay(.drag).contains(0.988_072))
    #expect(!Limits.decay(.drag).contains(0))
    #expect(!Limits.decay(.friction).contains(0.002_857))
    for field in DecayField.allCases {
      for bound in [field.range.lowerBound, field.range.upperBound] {
        let rate = try? field.model(bound).decayRate
        #expect(rate.map { $0 >= DecayField.slowestRate } == true, "\(field) \(bound)")
      }
    }
  }

  @Test("a wrong type or an unknown field")
  func wrong() {
    #expect(rejection(decayLine(#""drag":"0.5""#))?.code == .wrongType)
    #expect(rejection(decayLine(#""drag":0.5,"target":[0,0]"#))?.code == .unknownField)
    #expect(rejection(decayLine(#""drag":0.5,"initial_velocity":[0,0,0]"#))?.code == .wrongType)
  }

  @Test("every model round-trips through the client encoder")
  func roundTrip() throws {
    let models: [DecayModel] = [
      .scrollView(decelerationRate: 0.998), .fling(friction: 4.2), .frictionSimulation(drag: 0.135),
    ]
    for (k, model) in models.enumerated() {
      let request = Request(
        id: .number("\(k)"),
        op: Op(
          AddBehaviorRequest(
            session: "s",
            behavior: .decay(
              DecaySpec(
                id: k == 0 ? nil : "d", items: ["a", "b"], model: model,
                initialVelocity: k == 1 ? nil : Vector(dx: 12.25, dy: -3000))))))
      #expect(try RequestDecoder().decode(request.encodedLine) == request, "\(request.encodedLine)")
    }
  }
}
