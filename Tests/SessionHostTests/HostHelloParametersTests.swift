import Foundation
import Primitives
import SessionHost
import Testing
import Transitions

/// `hello`'s `parameters` (extension): the registry's tables, and what `open` enforces.
@Suite("Host: hello's parameters")
struct HostHelloParametersTests {
  /// The `parameters` member of a `hello` reply.
  static func advertised() throws -> [String: [[String: Any]]] {
    let rig = HostRig()
    let reply = try rig.connect().expectOK(#"{"op":"hello","id":1}"#).reply
    #expect(reply.text.contains(#""parameters":{"lock-screen":[{"name":"gravity","default":4,"#))
    return try #require(reply.object["parameters"] as? [String: [[String: Any]]])
  }

  @Test("every transition's table, in declared order, equal to the registry's")
  func tablesEqualTheRegistry() throws {
    let rig = HostRig()
    let reply = try rig.connect().expectOK(#"{"op":"hello"}"#).reply
    // Keyed in `transitions` order (Foundation's dictionary loses it, so read the text).
    let keys = TransitionRegistry.names.map { #""\#($0)":[{"name":"# }
    let offsets = keys.compactMap { reply.text.range(of: $0)?.lowerBound }
    #expect(offsets.count == keys.count && offsets == offsets.sorted())
    let tables = try Self.advertised()
    #expect(Set(tables.keys) == Set(TransitionRegistry.names))
    for type in TransitionRegistry.all {
      let entries = try #require(tables[type.name])
      #expect(entries.map { $0["name"] as? String } == type.parameters.map(\.name))
      for (entry, p) in zip(entries, type.parameters) {
        #expect(entry["source"] as? String == p.source, "\(type.name).\(p.name)")
        switch (p.defaultValue, p.kind) {
        case (.number(let value), .number(let range)):
          #expect(
            Set(entry.keys)
              == Set(["name", "default", "min", "max", "unit", "source"]).union(
                p.relative == nil ? [] : ["of_bounds"]
              ).union(
                GivenMotion.motion(of: p.name, among: type.parameters.map(\.name)) == nil
                  ? [] : ["motion"]))
          if let relative = p.relative {
            let ofBounds = try #require(entry["of_bounds"] as? [String: String])
            #expect(ofBounds["default"] == relative.defaultValue.text)
            #expect(ofBounds["min"] == relative.minimum.text)
            #expect(ofBounds["max"] == relative.maximum.text)
          }
          #expect((entry["default"] as? NSNumber)?.doubleValue == value)
          #expect((entry["min"] as? NSNumber)?.doubleValue == range.lowerBound)
          #expect((entry["max"] as? NSNumber)?.doubleValue == range.upperBound)
          #expect(entry["unit"] as? String == p.unit, "\(type.name).\(p.name)")
        case (.string(let word), .choice(let words)):
          #expect(Set(entry.keys) == ["name", "default", "choices", "source"])
          #expect(entry["default"] as? String == word)
          #expect(entry["choices"] as? [String] == words)
        default:
          Issue.record("\(type.name).\(p.name): a parameter of a kind this test does not know")
        }
      }
    }
  }

  @Test(
    "open accepts each advertised bound and choice and refuses what lies beyond",
    arguments: TransitionRegistry.names)
  func openEnforcesTheTables(transition: String) throws {
    let entries = try #require(try Self.advertised()[transition])
    let rig = HostRig()
    let client = rig.connect()
    func open(_ name: String, _ value: String) throws -> Message {
      let reply = try client.request(
        #"{"op":"open","session":"p","clock":"manual","transition":""# + transition
          + #"","params":{""# + name + #"":"# + value + "}}"
      ).reply
      if reply.ok { try client.expectOK(#"{"op":"close","session":"p"}"#) }
      return reply
    }
    for entry in entries {
      let name = try #require(entry["name"] as? String)
      if let min = (entry["min"] as? NSNumber)?.doubleValue,
        let max = (entry["max"] as? NSNumber)?.doubleValue
      {
        for accepted in [min, max] {
          let reply = try open(name, "\(accepted)")
          #expect(reply.ok, "\(transition).\(name) = \(accepted): \(reply)")
        }
        let step = Swift.max(1, abs(max - min)) / 100
        for refused in [min - step, max + step] {
          #expect(
            try open(name, "\(refused)").errorCode == "out_of_range",
            "\(transition).\(name) = \(refused)")
        }
      } else {
        let choices = try #require(entry["choices"] as? [String])
        for word in choices {
          #expect(try open(name, #""\#(word)""#).ok, "\(transition).\(name) = \(word)")
        }
        #expect(try open(name, #""none-of-them""#).errorCode == "out_of_range")
      }
    }
  }
}

/// `get`'s `bounds` and `params` (extension).
@Suite("Host: get's bounds and params")
struct HostGetDetailsTests {
  @Test("a transition session's get lists every parameter, given or default, in declared order")
  func transitionParams() throws {
    let rig = HostRig()
    let peer = rig.connect()
    try peer.expectOK(
      #"{"op":"open","id":1,"session":"w","transition":"wave-pop","clock":"manual","#
        + #""params":{"complete_rule":"position","damping":0.25}}"#)
    let reply = try peer.expectOK(#"{"op":"get","id":2,"session":"w"}"#).reply
    let type = try #require(TransitionRegistry.type(named: "wave-pop"))
    let names = type.parameters.map { #""\#($0.name)":"# }
    let offsets = names.compactMap { reply.text.range(of: $0)?.lowerBound }
    #expect(offsets.count == names.count && offsets == offsets.sorted())
    let params = try #require(reply.object["params"] as? [String: Any])
    #expect(params["complete_rule"] as? String == "position")
    #expect((params["damping"] as? NSNumber)?.doubleValue == 0.25)
    for p in type.parameters where !["complete_rule", "damping"].contains(p.name) {
      if case .number(let value) = p.defaultValue {
        #expect((params[p.name] as? NSNumber)?.doubleValue == value, "\(p.name)")
      }
    }
    #expect(reply.object["bounds"] as? [Double] == [0, 0, 320, 568])
  }

  /// `open` takes a transition's bounds; its parameters of the bounds resolve in them, and what
  /// `open` accepts is checked against the resolved ranges.
  @Test("a transition opened in other bounds lays out and checks its parameters in them")
  func transitionBounds() throws {
    let rig = HostRig()
    let peer = rig.connect()
    let opened = try peer.expectOK(
      #"{"op":"open","id":1,"session":"p","transition":"sheet","clock":"manual","#
        + #""bounds":[412,915]}"#
    ).reply
    let items = try #require(opened.object["items"] as? [[String: Any]])
    #expect(items.first?["size"] as? [Double] == [412, 915])
    let reply = try peer.expectOK(#"{"op":"get","id":2,"session":"p"}"#).reply
    #expect(reply.object["bounds"] as? [Double] == [0, 0, 412, 915])
    let params = try #require(reply.object["params"] as? [String: Any])
    #expect((params["medium_detent"] as? NSNumber)?.doubleValue == 457.5)
    #expect((params["large_detent"] as? NSNumber)?.doubleValue == 895)
    // 900 pt shown is within a 915 pt height, not within 568.
    try peer.expectOK(
      #"{"op":"open","id":3,"session":"q","transition":"sheet","clock":"manual","#
        + #""bounds":[100,-50,412,915],"params":{"large_detent":900}}"#)
    try peer.expectError(
      "out_of_range",
      #"{"op":"open","id":4,"transition":"sheet","params":{"large_detent":900}}"#)
    let small = try peer.expectError(
      "out_of_range", #"{"op":"open","id":5,"transition":"sheet","bounds":[99,500]}"#)
    #expect(small.text.contains("bounds[0]"))
    try peer.expectError(
      "unknown_field",
      #"{"op":"open","id":6,"scene":{"items":[]},"bounds":[400,400]}"#)
  }

  @Test("a scene session's get has its bounds and no params")
  func sceneBounds() throws {
    let rig = HostRig()
    let peer = rig.connect()
    try peer.expectOK(
      #"{"op":"open","id":1,"session":"s","clock":"manual","scene":{"bounds":[5,6,100,200],"#
        + #""items":[{"id":"a","center":[50,50],"size":[10,10]}]}}"#)
    let reply = try peer.expectOK(#"{"op":"get","id":2,"session":"s"}"#).reply
    #expect(reply.object["bounds"] as? [Double] == [5, 6, 100, 200])
    #expect(reply.object["params"] == nil)
  }

  /// Each item's shape as `open` took it, nothing for a rectangle; `open`'s own reply and a
  /// watcher's frames have none.
  @Test("get carries every item's shape, as open's item spec gives it")
  func shapes() throws {
    let rig = HostRig()
    let peer = rig.connect()
    let opened = try peer.expectOK(
      #"{"op":"open","id":1,"session":"s","clock":"manual","scene":{"items":["#
        + #"{"id":"box","center":[50,50],"size":[10,10]},"#
        + #"{"id":"ball","center":[100,50],"size":[30,20],"shape":"ellipse"},"#
        + #"{"id":"wedge","center":[150,50],"size":[20,20],"shape":"path","#
        + #""path":[[-10,10],[10,10],[0.0004,-10.25]]}]}}"#)
    #expect(!opened.reply.text.contains("shape"), "\(opened.reply.text)")
    let reply = try peer.expectOK(#"{"op":"get","id":2,"session":"s"}"#).reply
    let items = Dictionary(
      uniqueKeysWithValues: reply.items.map { ($0["id"] as? String ?? "?", $0) })
    #expect(items["box"]?["shape"] == nil && items["box"]?["path"] == nil)
    #expect(items["ball"]?["shape"] as? String == "ellipse")
    #expect(items["ball"]?["path"] == nil)
    #expect(items["wedge"]?["shape"] as? String == "path")
    #expect(items["wedge"]?["path"] as? [[Double]] == [[-10, 10], [10, 10], [0, -10.25]])
    #expect(
      reply.text.contains(
        #""size":[20,20],"shape":"path","path":[[-10,10],[10,10],[0,-10.25]]}"#),
      "shape and path come after size: \(reply.text)")
  }
}

/// A transition's spring and decay shown as the one set in force (issue 38, point 3): `hello`
/// marks their fields, `get` reports the set in force with what it makes, and fields of two
/// sets are refused naming both.
@Suite("Host: the spring and the decay in force")
struct HostMotionInForceTests {
  @Test("hello marks the sheet's spring fields and the fling's decay fields, and no others")
  func helloMarksTheSets() throws {
    let tables = try HostHelloParametersTests.advertised()
    for (transition, motion, fields) in [
      ("sheet", "spring", SpringField.allCases.map(\.rawValue)),
      ("fling", "decay", DecayField.allCases.map(\.rawValue)),
    ] {
      for entry in try #require(tables[transition]) {
        let name = try #require(entry["name"] as? String)
        #expect(
          entry["motion"] as? String == (fields.contains(name) ? motion : nil),
          "\(transition).\(name)")
      }
    }
    // pip-corners projects with a deceleration rate but is given no decay.
    #expect(tables["pip-corners"]?.allSatisfy { $0["motion"] == nil } == true)
  }

  @Test("get reports the spring in force in its set, with what it makes")
  func getReportsTheSpring() throws {
    let rig = HostRig()
    let peer = rig.connect()
    try peer.expectOK(
      #"{"op":"open","session":"s","transition":"sheet","clock":"manual","params":{"stiffness":300}}"#
    )
    var reply = try peer.expectOK(#"{"op":"get","session":"s"}"#).reply
    var spring = try #require(
      (reply.object["motion"] as? [String: Any])?["spring"] as? [String: Any])
    #expect(spring["set"] as? [String] == ["stiffness", "damping_ratio", "mass"])
    #expect((spring["stiffness"] as? NSNumber)?.doubleValue == 300)
    #expect((spring["damping"] as? NSNumber)?.doubleValue == 34.641016, "2·√300 at ratio 1")
    #expect((spring["response"] as? NSNumber)?.doubleValue == 0.36276)
    try peer.expectOK(#"{"op":"open","session":"d","transition":"sheet","clock":"manual"}"#)
    reply = try peer.expectOK(#"{"op":"get","session":"d"}"#).reply
    spring = try #require((reply.object["motion"] as? [String: Any])?["spring"] as? [String: Any])
    #expect(spring["set"] as? [String] == ["duration", "bounce"], "SwiftUI's default spring")
    #expect((spring["duration"] as? NSNumber)?.doubleValue == 0.5)
    try peer.expectOK(
      #"{"op":"open","session":"f","transition":"fling","clock":"manual","params":{"friction":2}}"#)
    reply = try peer.expectOK(#"{"op":"get","session":"f"}"#).reply
    #expect(
      (reply.object["motion"] as? [String: Any])?["decay"] as? [String: Double] == ["friction": 2])
    try peer.expectOK(#"{"op":"open","session":"l","transition":"lock-screen","clock":"manual"}"#)
    reply = try peer.expectOK(#"{"op":"get","session":"l"}"#).reply
    #expect(reply.object["motion"] == nil, "no motion from the parameters")
  }

  @Test("fields of two sets are refused as conflicting_fields, naming both")
  func twoSetsRefused() throws {
    let rig = HostRig()
    let peer = rig.connect()
    let spring = try peer.expectError(
      "conflicting_fields",
      #"{"op":"open","transition":"sheet","params":{"stiffness":300,"tension":40}}"#)
    #expect(spring.errorMessage?.contains("stiffness (of stiffness + damping_ratio") == true)
    #expect(spring.errorMessage?.contains("tension (of tension + friction)") == true)
    let decay = try peer.expectError(
      "conflicting_fields",
      #"{"op":"open","transition":"fling","params":{"friction":2,"drag":0.2}}"#)
    #expect(decay.errorMessage?.contains("friction (Android's FlingAnimation) with drag") == true)
  }
}
