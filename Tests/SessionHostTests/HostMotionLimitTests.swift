import Dynamics
import Foundation
import Primitives
import Testing

/// Opens session `m`: one 20 × 20 item `a` at `center` under `behavior`, no bounds.
private func open(_ client: HostClient, center: String = "[0,0]", _ behavior: String) throws {
  try client.expectOK(
    #"{"op":"open","session":"m","clock":"manual","scene":{"bounds":null,"items":[{"id":"a","#
      + #""center":"# + center + #","size":[20,20]}],"behaviors":["# + behavior + "]}}")
}

/// Item `a`'s center and velocity in every frame of `step`.
private func frames(_ step: Exchange) throws -> [(center: [Double], velocity: [Double])] {
  try step.events("frame").map {
    (try #require($0.vector("center", of: "a")), try #require($0.vector("velocity", of: "a")))
  }
}

/// Checks every frame against the speed limit (with the 3-decimal rounding of the wire), the
/// coordinate limit, and Box2D's 200 pt a step (2 steps a frame at 60 Hz); returns the largest
/// speed and coordinate seen.
private func expectWithinLimits(
  _ frames: [(center: [Double], velocity: [Double])], from start: [Double],
  stepsPerFrame: Double = 2,
  sourceLocation: SourceLocation = #_sourceLocation
) -> (speed: Double, coordinate: Double) {
  var last = start
  var most = (speed: 0.0, coordinate: 0.0)
  for frame in frames {
    let speed = hypot(frame.velocity[0], frame.velocity[1])
    let travel = hypot(frame.center[0] - last[0], frame.center[1] - last[1])
    let coordinate = max(abs(frame.center[0]), abs(frame.center[1]))
    #expect(speed <= DynamicAnimator.maxSpeed + 0.002, "\(frame)", sourceLocation: sourceLocation)
    #expect(
      travel <= stepsPerFrame * 200 + 0.002, "\(frame) from \(last)", sourceLocation: sourceLocation
    )
    #expect(coordinate <= DynamicItem.maximumCoordinate, "\(frame)", sourceLocation: sourceLocation)
    most = (max(most.speed, speed), max(most.coordinate, coordinate))
    last = frame.center
  }
  return most
}

/// Issue 39, point 7: closed-form motions keep to the engine's speed limit and the coordinate
/// space, and what `behaviors` reports of them can be sent back.
@Suite("Host: springs and decays within the limits")
struct HostMotionLimitTests {
  @Test("a decay that would never stop is refused; the slowest one stops inside the space")
  func slowestDecay() throws {
    let rig = HostRig()
    let client = rig.connect()
    // The issue's reproducer: rate 1 − 1e-16 from 1e6 pt/s carried the item to 2.99e8 pt.
    try client.expectOK(
      #"{"op":"open","session":"x","clock":"manual","scene":{"bounds":null,"items":[]}}"#)
    for field in [
      "\"deceleration_rate\":0.9999999999999999", "\"drag\":0.9999999", "\"friction\":1e-6",
    ] {
      try client.expectError(
        "out_of_range",
        #"{"op":"add_behavior","session":"x","behavior":{"type":"decay","items":[],"# + field
          + "}}")
    }
    for field in DecayField.allCases {
      let slowest =
        field == .friction ? field.range.lowerBound : field.range.upperBound
      _ = try client.request(#"{"op":"close","session":"m"}"#)
      try open(
        client, center: "[-999990,0]",
        #"{"type":"decay","id":"d","items":["a"],"\#(field.rawValue)":\#(slowest),"#
          + #""initial_velocity":[1000000,-1000000]}"#)
      let step = try client.expectOK(#"{"op":"step","session":"m","count":1000,"dt":0.6}"#)
      let most = expectWithinLimits(try frames(step), from: [-999_990, 0], stepsPerFrame: 72)
      // Started at the speed limit; y reached the edge and was held there.
      #expect(most.speed > 23_000 && most.coordinate == 1e6, "\(field): \(most)")
      rig.expectFinite()
    }
  }

  @Test("springs at the edges of their ranges move no faster than the speed limit")
  func stiffSprings() throws {
    let rig = HostRig()
    let client = rig.connect()
    let sets = [
      #""stiffness":1e9,"damping_ratio":0,"mass":1e-6"#,
      #""stiffness":1e9,"damping":0,"mass":1e-6"#,
      #""stiffness":1e-6,"damping":0,"mass":1e6"#,
      #""response":0.001,"damping_ratio":0.001"#,
      #""duration":1000,"bounce":1"#,
      #""tension":10000,"friction":0"#,
    ]
    // Thrown toward the target from the far corner, and away from it, past the edges.
    for set in sets {
      for (velocity, fastest) in [("[1000000,-1000000]", 23_999.0), ("[-1000000,1000000]", 0)] {
        _ = try client.request(#"{"op":"close","session":"m"}"#)
        try open(
          client, center: "[-1000000,1000000]",
          #"{"type":"spring","id":"s","items":["a"],"target":[1000000,-1000000],"# + set
            + #","initial_velocity":"# + velocity + "}")
        let step = try client.expectOK(#"{"op":"step","session":"m","count":300}"#)
        let most = expectWithinLimits(try frames(step), from: [-1_000_000, 1_000_000])
        #expect(most.speed >= fastest, "\(set) \(velocity): \(most)")
        rig.expectFinite()
      }
    }
  }

  @Test("the issue's spring: what behaviors reports is accepted back")
  func issueSpringRoundTrip() throws {
    let rig = HostRig()
    let client = rig.connect()
    try open(
      client,
      #"{"type":"spring","id":"s","items":["a"],"target":[0,0],"stiffness":1e9,"#
        + #""damping_ratio":1000,"mass":1e6}"#)
    let entry = try behaviorEntry(client)
    try client.expectOK(sendBack(entry, ["mass", "stiffness", "damping"]))
  }

  @Test("every spring set's corners and random points: behaviors → set_behavior → the same spring")
  func springRoundTrips() throws {
    let rig = HostRig()
    let client = rig.connect()
    try open(
      client,
      #"{"type":"spring","id":"s","items":["a"],"target":[0,0],"response":1,"damping_ratio":1}"#)
    var random = SplitMix64(seed: 39)
    for set in SpringParameterSet.allCases {
      let fields = set.requiredFields + set.optionalFields
      for values in samples(fields.map(\.range), random: 12, using: &random) {
        let given = Dictionary(uniqueKeysWithValues: zip(fields, values))
        let expected = try set.parameters { given[$0] }
        let sent = zip(fields, values).map { "\"\($0.rawValue)\":\($1)" }.joined(separator: ",")
        try client.expectOK(
          #"{"op":"set_behavior","session":"m","behavior":"s","target":[0,0],"# + sent + "}")
        let entry = try behaviorEntry(client)
        try client.expectOK(sendBack(entry, ["mass", "stiffness", "damping"]))
        let back = try behaviorEntry(client)
        for (name, value) in [
          ("mass", expected.mass), ("stiffness", expected.stiffness), ("damping", expected.damping),
        ] {
          let reported = try #require((back[name] as? NSNumber)?.doubleValue)
          // The same spring, within the 6 decimals it is shown with.
          #expect(
            abs(reported - value) <= 5e-7 + value * 1e-15,
            "\(set) \(given): \(name) \(reported) vs \(value)")
          // Sent again, it stays (to the last bit a 6-decimal rounding of a value near 1e10 moves).
          let before = try #require((entry[name] as? NSNumber)?.doubleValue)
          #expect(abs(before - reported) <= reported * 1e-15, "\(set) \(given): \(name) moved")
        }
      }
    }
  }

  @Test("every decay model's bounds and random points: behaviors → set_behavior → the same decay")
  func decayRoundTrips() throws {
    let rig = HostRig()
    let client = rig.connect()
    try open(client, #"{"type":"decay","id":"d","items":["a"],"friction":1}"#)
    var random = SplitMix64(seed: 39)
    for field in DecayField.allCases {
      for values in samples([field.range], random: 20, using: &random) {
        let value = values[0]
        try client.expectOK(
          #"{"op":"set_behavior","session":"m","behavior":"d","\#(field.rawValue)":\#(value)}"#)
        let entry = try behaviorEntry(client)
        try client.expectOK(sendBack(entry, [field.rawValue]))
        let back = try #require(
          (try behaviorEntry(client)[field.rawValue] as? NSNumber)?.doubleValue)
        #expect(abs(back - value) <= 5e-7, "\(field) \(value) → \(back)")
        #expect(field.range.contains(back))
      }
    }
  }
}

/// The first `behaviors` entry of session `m`.
private func behaviorEntry(_ client: HostClient) throws -> [String: Any] {
  let reply = try client.expectOK(#"{"op":"behaviors","session":"m"}"#).reply
  return try #require((reply.object["behaviors"] as? [[String: Any]])?.first)
}

/// A `set_behavior` of `entry`'s behavior sending `fields` exactly as reported.
private func sendBack(_ entry: [String: Any], _ fields: [String]) throws -> String {
  let id = try #require(entry["id"] as? String)
  let values = try fields.map { field in
    "\"\(field)\":\(try #require((entry[field] as? NSNumber)?.doubleValue))"
  }
  return #"{"op":"set_behavior","session":"m","behavior":""# + id + #"","#
    + values.joined(separator: ",") + "}"
}

/// Every corner of the box of `ranges` (an open bound nudged inside), then `random` points in it
/// (log-uniform across ranges spanning decades).
private func samples(
  _ ranges: [ParameterRange], random count: Int, using random: inout SplitMix64
) -> [[Double]] {
  func bound(_ range: ParameterRange, upper: Bool) -> Double {
    if upper {
      return range.includesUpperBound ? range.upperBound : range.upperBound.nextDown
    }
    return range.includesLowerBound ? range.lowerBound : range.lowerBound.nextUp
  }
  var points: [[Double]] = [[]]
  for range in ranges {
    points = points.flatMap { p in
      [p + [bound(range, upper: false)], p + [bound(range, upper: true)]]
    }
  }
  for _ in 0..<count {
    points.append(
      ranges.map { range in
        let (low, high) = (bound(range, upper: false), bound(range, upper: true))
        if low > 0, high / low > 100 {
          return exp(Double.random(in: log(low)...log(high), using: &random))
        }
        return Double.random(in: low...high, using: &random)
      })
  }
  return points
}
