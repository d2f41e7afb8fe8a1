import ArgumentParser
import Foundation
import PageScripts
import Primitives
import TransitionDocuments
import Wire

/// `dynctl describe-protocol`: the protocol this dynctl speaks, as one JSON document, read from
/// the definitions themselves: the op registry (each op's word, fields, target and whether it
/// changes a step's cost), the error codes, the events, every range a field is checked against,
/// the framing limits, the counts (rules a behavior, effects a rule, …), the velocity
/// estimator's constants and the sentences that explain a `handoff`. tools/generate.py writes
/// the schemas' ranges and counts, PROTOCOL.md's table of field ranges and the Python client's
/// constants from it, and `make lint` fails when one is stale.
struct DescribeProtocolCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "describe-protocol",
    abstract: "Print the protocol's description (ops, fields, ranges, errors, events) as JSON.",
    discussion: "Needs no daemon: it describes the protocol this dynctl was built with.")

  func run() throws {
    let data = try JSONSerialization.data(
      withJSONObject: Self.description, options: [.prettyPrinted, .sortedKeys])
    Console.current.write(.standardOutput, String(decoding: data, as: UTF8.self) + "\n")
  }

  static var description: [String: Any] {
    [
      "protocol": WireProtocol.version,
      "ops": Op.registry.map { op in
        [
          "op": op.name, "fields": op.fields.map { $0.description },
          "target": op.target.rawValue, "changes_step_cost": op.changesStepCost,
          "defaults": Dictionary(
            uniqueKeysWithValues: op.defaults.map { ($0.field, Self.json($0.value)) }),
        ] as [String: Any]
      },
      "errors": ErrorCode.allCases.map(\.rawValue),
      "events": EventName.allCases.map(\.rawValue),
      "ranges": Limits.describedRanges.map(Self.range),
      "limits": [
        "max_line_bytes": Limits.maxLineBytes.upperBound,
        "default_max_line_bytes": Limits.defaultMaxLineBytes,
        "max_nesting_depth": Limits.maxNestingDepth,
        "name_bytes": [Limits.nameBytes.lowerBound, Limits.nameBytes.upperBound],
        "max_params": Limits.maxParams,
      ],
      "counts": [
        "action_rules": Limits.maxActionRules, "action_effects": Limits.maxActionEffects,
        "region_depth": Limits.maxRegionDepth, "region_nodes": Limits.maxRegionNodes,
        "boundaries": Limits.maxBoundariesPerBehavior, "items": Limits.maxItemsPerScene,
        "behaviors": Limits.maxBehaviorsPerScene, "groups": Limits.maxGroupsPerScene,
        "composite_depth": Limits.maxCompositeDepth,
        "rules_per_scene": Limits.maxActionRulesPerScene,
        "params": Limits.maxParams, "document_rules": DocumentLimits.maxRules,
        "document_effects": DocumentLimits.maxEffects,
        "document_phases": DocumentLimits.maxPhases, "document_names": DocumentLimits.maxState,
      ],
      "estimator": [
        "horizon": VelocityEstimator.horizon, "history_size": VelocityEstimator.historySize,
        "stopped_after": VelocityEstimator.stoppedAfter, "degree": VelocityEstimator.degree,
        "window": VelocityEstimator.window, "slack": VelocityEstimator.slack,
        "dependence": VelocityEstimator.dependence,
        "max_speed": VelocityEstimator.maxSpeed,
      ],
      "handoff_words": [
        "rail": HandoffWords.rail, "anchored": HandoffWords.anchored,
        "speed_limit": HandoffWords.speedLimit,
        "reasons": Dictionary(uniqueKeysWithValues: HandoffWords.reasons.map { ($0, $1) }),
      ],
    ]
  }

  private static func range(_ described: DescribedRange) -> [String: Any] {
    let range = described.range
    return [
      "name": described.name, "fields": described.fields, "unit": described.unit,
      "integral": described.integral,
      range.excludesLowerBound ? "exclusive_minimum" : "minimum": Self.number(range.lowerBound),
      range.excludesUpperBound ? "exclusive_maximum" : "maximum": Self.number(range.upperBound),
    ]
  }

  private static func json(_ value: FieldDefault.Value) -> Any {
    switch value {
    case .bool(let flag): return flag
    case .number(let number): return Self.number(number)
    case .word(let word): return word
    }
  }

  /// A whole number as an integer (so that JSON writes `1000`, not `1000.0`), else the double.
  private static func number(_ value: Double) -> Any {
    value == value.rounded() && abs(value) < 1e15 ? Int(value) : value
  }
}
