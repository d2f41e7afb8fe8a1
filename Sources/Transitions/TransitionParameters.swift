import Primitives

/// One tunable constant of a transition: its default, what it accepts, and where it comes from.
public struct TransitionParameter: Sendable {
  public enum Kind: Sendable, Equatable {
    /// A number in a closed range.
    case number(ClosedRange<Double>)
    case bool
    /// One of a fixed set of words.
    case choice([String])
  }
  public let name: String
  public let defaultValue: ParameterValue
  public let kind: Kind
  public let unit: String
  /// The seed or reference the default comes from.
  public let source: String

  public init(
    _ name: String, _ defaultValue: Double, _ range: ClosedRange<Double>, unit: String,
    source: String
  ) {
    self.name = name
    self.defaultValue = .number(defaultValue)
    self.kind = .number(range)
    self.unit = unit
    self.source = source
  }

  public init(_ name: String, choice defaultValue: String, of choices: [String], source: String) {
    self.name = name
    self.defaultValue = .string(defaultValue)
    self.kind = .choice(choices)
    self.unit = ""
    self.source = source
  }
}

/// Why a transition's `params` were refused.
public struct TransitionError: Error, Equatable, Sendable {
  public enum Kind: Sendable {
    case unknownParameter
    case wrongType
    case outOfRange
  }
  public let kind: Kind
  public let message: String
}

/// A transition's parameters after validation: every declared one, overridden or default.
public struct ParameterValues: Sendable {
  private var values: [String: ParameterValue] = [:]

  /// Validates overrides against the declarations; unknown names and bad values throw.
  public init(_ overrides: [String: ParameterValue], declared: [TransitionParameter]) throws {
    for p in declared { values[p.name] = p.defaultValue }
    for name in overrides.keys.sorted() {
      let value = overrides[name]!
      guard let p = declared.first(where: { $0.name == name }) else {
        let known = declared.map(\.name).joined(separator: ", ")
        throw TransitionError(
          kind: .unknownParameter,
          message: "unknown parameter '\(name)'" + (known.isEmpty ? "" : " (known: \(known))"))
      }
      switch (p.kind, value) {
      case (.number(let range), .number(let v)):
        guard range.contains(v) else {
          throw TransitionError(
            kind: .outOfRange,
            message: "parameter '\(name)' must be within \(range.lowerBound)…\(range.upperBound)")
        }
      case (.bool, .bool):
        break
      case (.choice(let words), .string(let s)):
        guard words.contains(s) else {
          throw TransitionError(
            kind: .outOfRange,
            message: "parameter '\(name)' must be one of \(words.joined(separator: ", "))")
        }
      default:
        throw TransitionError(kind: .wrongType, message: "parameter '\(name)' has the wrong type")
      }
      values[name] = value
    }
  }

  public func number(_ name: String) -> Double {
    if case .number(let v)? = values[name] { return v }
    preconditionFailure("parameter '\(name)' is not a declared number")
  }

  public func string(_ name: String) -> String {
    if case .string(let v)? = values[name] { return v }
    preconditionFailure("parameter '\(name)' is not a declared choice")
  }
}
