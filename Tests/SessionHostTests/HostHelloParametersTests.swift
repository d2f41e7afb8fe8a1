import Foundation
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
          #expect(Set(entry.keys) == ["name", "default", "min", "max", "unit", "source"])
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
