import Primitives
import Testing

@testable import Transitions

/// The sheet's parameters: which spring set a client gave, and detents that cannot be told apart.
@Suite("Sheet: parameters")
struct SheetParameterTests {
  static func spring(_ overrides: [String: Double]) throws -> SpringParameters {
    try Driver(Sheet.self, overrides.mapValues { .number($0) }).t.spring
  }

  @Test func theSpringIsTheSetTheClientGave() throws {
    #expect(try Self.spring([:]) == .swiftUIDefault)
    #expect(try Self.spring(["response": 0.3]) == .response(0.3, dampingRatio: 1))
    #expect(try Self.spring(["damping_ratio": 0.5]) == .response(0.5, dampingRatio: 0.5))
    #expect(try Self.spring(["duration": 0.4, "bounce": 0.2]) == .duration(0.4, bounce: 0.2))
    #expect(try Self.spring(["stiffness": 300]) == .stiffness(300, dampingRatio: 1, mass: 1))
    #expect(
      try Self.spring(["stiffness": 300, "damping_ratio": 0.7, "mass": 2])
        == .stiffness(300, dampingRatio: 0.7, mass: 2))
    #expect(
      try Self.spring(["stiffness": 100, "damping": 10]) == .stiffness(100, damping: 10, mass: 1))
    #expect(try Self.spring(["damping": 10]) == .stiffness(157.914, damping: 10, mass: 1))
    #expect(try Self.spring(["tension": 40, "friction": 7]) == .origami(tension: 40, friction: 7))
  }

  /// Each set at its declared defaults is SwiftUI's default spring, within the defaults'
  /// rounding to 0.001.
  @Test func everySetAtItsDefaultsIsSwiftUIsDefaultSpring() throws {
    let standard = SpringParameters.swiftUIDefault
    for fields in [
      ["response"], ["duration"], ["stiffness"], ["stiffness", "damping"], ["tension"],
    ] {
      let defaults = Sheet.parameters.filter { fields.contains($0.name) }.map {
        ($0.name, $0.defaultValue)
      }
      let spring = try Driver(Sheet.self, Dictionary(uniqueKeysWithValues: defaults)).t.spring
      #expect(abs(spring.stiffness - standard.stiffness) < 0.004, "\(fields)")
      #expect(abs(spring.damping - standard.damping) < 0.004, "\(fields)")
      #expect(spring.mass == standard.mass)
    }
  }

  /// What the sheet accepts, a spring accepts: each declared range lies in its field's.
  @Test func everySpringRangeLiesWithinItsFields() throws {
    for field in SpringField.allCases {
      let declared = try #require(Sheet.parameters.first { $0.name == field.rawValue })
      guard case .number(let range) = declared.kind else {
        Issue.record("\(field) is not a number")
        continue
      }
      #expect(field.range.contains(range.lowerBound) && field.range.contains(range.upperBound))
    }
  }

  @Test(arguments: [
    ["response": 0.3, "stiffness": 100], ["duration": 0.3, "damping_ratio": 1],
    ["damping": 10, "damping_ratio": 1], ["tension": 40, "mass": 2],
  ])
  func fieldsOfTwoSetsAreRefused(_ overrides: [String: Double]) {
    #expect {
      _ = try Self.spring(overrides)
    } throws: { error in
      guard let e = error as? TransitionError else { return false }
      return e.kind == .conflicting && e.message.hasPrefix("the spring is given by one")
    }
  }

  @Test func twoDetentsAtOneHeightAreRefused() throws {
    #expect {
      _ = try Driver(Sheet.self, ["medium_detent": .number(88)])
    } throws: { error in
      (error as? TransitionError)?.kind == .outOfRange
    }
    // Names carry no order: a "large" below "collapsed" is just a low detent.
    let d = try Driver(Sheet.self, ["large_detent": .number(40)])
    #expect(d.t.detents.all.map(\.name) == ["large", "collapsed", "medium"])
  }

  @Test(arguments: Sheet.DetentName.allCases)
  func itStartsAtItsInitialDetent(_ name: Sheet.DetentName) throws {
    let d = try Driver(Sheet.self, ["initial_detent": .string(name.rawValue)])
    let detent = try #require(d.t.detents.named(name.rawValue))
    #expect(d.t.height == detent.height)
    #expect(d.runUntilDone(limit: 1).isEmpty, "at rest, nothing to report")
  }
}
