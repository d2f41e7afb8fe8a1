import Primitives
import Testing

@testable import Transitions

/// Transitions read their parameters by the properties of their `ParameterSet`; what clients see
/// is derived from the same declarations.
@Suite("Typed parameters")
struct ParameterTests {
  @Test(arguments: TransitionRegistry.names)
  func namesAreDistinct(_ name: String) throws {
    let type = try #require(TransitionRegistry.type(named: name))
    let names = type.parameters.map(\.name)
    #expect(!names.isEmpty && Set(names).count == names.count, "\(names)")
  }

  @Test func aReaderReadsOverridesAndDefaults() throws {
    let values = try ParameterValues(
      ["complete_rule": .string("position"), "rows": .number(4)], declared: WavePop.parameters)
    let p = ParameterReader<WavePop.Parameters>(values)
    #expect(p.completeRule == .position)
    #expect(p.rows == 4)
    #expect(p.gap == 20 && p.finishDamping == 0.7)
    let defaults = ParameterReader<WavePop.Parameters>(
      try ParameterValues([:], declared: WavePop.parameters))
    #expect(defaults.completeRule == .velocity && defaults.rows == 10)
  }

  /// A choice lists its enumeration's words in their order.
  @Test func aChoiceListsItsWords() throws {
    let rule = try #require(WavePop.parameters.first { $0.name == "complete_rule" })
    #expect(rule.kind == .choice(["velocity", "position"]))
    #expect(rule.defaultValue == .string("velocity"))
  }

  /// A value of the wrong type is refused with the type and the range or words expected.
  @Test func aWrongTypeSaysWhatIsExpected() {
    let cases: [(String, ParameterValue, [TransitionParameter], String)] = [
      (
        "gravity", .string("abc"), LockScreen.parameters,
        "parameter 'gravity' must be a number within 0.1…20.0"
      ),
      (
        "complete_rule", .number(1), WavePop.parameters,
        "parameter 'complete_rule' must be one of velocity, position (a string)"
      ),
    ]
    for (name, value, declared, message) in cases {
      #expect {
        _ = try ParameterValues([name: value], declared: declared)
      } throws: { error in
        guard let e = error as? TransitionError else { return false }
        return e.kind == .wrongType && e.message == message
      }
    }
  }

  /// A parameter the values do not hold (they were validated against other declarations) reads
  /// as its default: nothing traps.
  @Test func aParameterMissingFromTheValuesReadsAsItsDefault() throws {
    let values = try ParameterValues(["gravity": .number(9)], declared: LockScreen.parameters)
    let p = ParameterReader<SidebarMenu.Parameters>(values)
    #expect(p.menuWidth == 150 && p.openAlpha == 0.5)
  }
}
