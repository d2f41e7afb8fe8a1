import Primitives

/// One tunable constant of a transition as clients see it: its name, default, what it accepts,
/// its unit, and where it comes from. Transitions declare theirs as `Parameter`s of their
/// `ParameterSet`; this is the form the registry, the daemon and the documentation read.
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
  /// The default and range bounds that depend on the size of the bounds (`BoundsExtent`), as
  /// declared: `defaultValue` and `kind` hold their values in `TransitionBounds.standard`, and
  /// `resolved(in:)` in other bounds. All fixed: nil.
  public let relative: Relative?

  /// The expressions of a number parameter's default, minimum and maximum that depend on the
  /// bounds (nil: fixed).
  public struct Relative: Sendable, Equatable {
    public let defaultValue: BoundsExtent
    public let minimum: BoundsExtent
    public let maximum: BoundsExtent
  }

  public init(
    _ name: String, _ defaultValue: Double, _ range: ClosedRange<Double>, unit: String,
    source: String
  ) {
    self.init(
      name, default: .fixed(defaultValue), from: .fixed(range.lowerBound),
      to: .fixed(range.upperBound), unit: unit, source: source)
  }

  /// A number whose default and range may depend on the bounds' size.
  public init(
    _ name: String, default defaultValue: BoundsExtent, from minimum: BoundsExtent,
    to maximum: BoundsExtent, unit: String, source: String
  ) {
    let size = TransitionBounds.standard.size
    // In small bounds a maximum may fall below the minimum, and a default outside the range:
    // the range is then the minimum alone, and the default is held in the range.
    let low = minimum.value(in: size)
    let high = Swift.max(low, maximum.value(in: size))
    self.name = name
    self.defaultValue = .number(Swift.min(high, Swift.max(low, defaultValue.value(in: size))))
    self.kind = .number(low...high)
    self.unit = unit
    self.source = source
    let fixed = [defaultValue, minimum, maximum].allSatisfy { $0.text == nil }
    self.relative =
      fixed ? nil : Relative(defaultValue: defaultValue, minimum: minimum, maximum: maximum)
  }

  public init(_ name: String, choice defaultValue: String, of choices: [String], source: String) {
    self.name = name
    self.defaultValue = .string(defaultValue)
    self.kind = .choice(choices)
    self.unit = ""
    self.source = source
    self.relative = nil
  }

  /// The declaration in bounds of `size`: its relative default and range evaluated there.
  public func resolved(in size: Size) -> TransitionParameter {
    guard let relative else { return self }
    return TransitionParameter(
      name, default: .fixed(relative.defaultValue.value(in: size)),
      from: .fixed(relative.minimum.value(in: size)),
      to: .fixed(relative.maximum.value(in: size)), unit: unit, source: source)
  }
}

/// One declared parameter of a transition, read as a `Value`: a `Double` for a number, a
/// `String`-backed enumeration for a choice.
///
/// A transition declares each of its parameters as a stored property of its `ParameterSet` and
/// reads it through a `ParameterReader` by that property (`p.menuWidth`), so that it can only
/// read what it declared: a misspelled or undeclared name does not compile.
public struct Parameter<Value: Sendable>: Sendable {
  /// The name, default, range, unit and source clients see.
  public let declaration: TransitionParameter
  let defaultValue: Value
  /// The value `value` stands for, when it has this parameter's type.
  let read: @Sendable (ParameterValue) -> Value?
}

extension Parameter where Value == Double {
  /// A number in `range`, `defaultValue` unless a client sets it.
  public init(
    _ name: String, _ defaultValue: Double, _ range: ClosedRange<Double>, unit: String,
    source: String
  ) {
    self.init(
      declaration: TransitionParameter(name, defaultValue, range, unit: unit, source: source),
      defaultValue: defaultValue,
      read: { if case .number(let v) = $0 { v } else { nil } })
  }

  /// A number in `minimum…maximum`, `defaultValue` unless a client sets it, any of them an
  /// expression of the bounds' `width` and `height` (`BoundsExtent`).
  public init(
    _ name: String, _ defaultValue: BoundsExtent, from minimum: BoundsExtent,
    to maximum: BoundsExtent, unit: String, source: String
  ) {
    let declaration = TransitionParameter(
      name, default: defaultValue, from: minimum, to: maximum, unit: unit, source: source)
    self.init(
      declaration: declaration,
      defaultValue: defaultValue.value(in: TransitionBounds.standard.size),
      read: { if case .number(let v) = $0 { v } else { nil } })
  }

  /// UIScrollView's deceleration rate (per ms), with which the transitions that project a
  /// release (pip-corners, sheet) or coast on it (fling) take their decay.
  static var decelerationRate: Parameter<Double> {
    Parameter(
      DecayField.decelerationRate.rawValue, DecayModel.normalDecelerationRate, 0.9...0.9999,
      unit: "per ms", source: "UIScrollView.DecelerationRate.normal")
  }
}

extension Parameter where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
  /// One of the words of `Value`'s cases, in their order; `defaultValue` unless a client sets it.
  public init(_ name: String, choice defaultValue: Value, source: String) {
    self.init(
      declaration: TransitionParameter(
        name, choice: defaultValue.rawValue, of: Value.allCases.map(\.rawValue), source: source),
      defaultValue: defaultValue,
      read: { if case .string(let s) = $0 { Value(rawValue: s) } else { nil } })
  }
}

/// What every `Parameter` is, whatever it reads as.
private protocol AnyParameter {
  var declaration: TransitionParameter { get }
}

extension Parameter: AnyParameter {}

/// A transition's parameters: a struct whose stored `Parameter` properties are its declarations,
/// in the order clients see them.
///
///     struct Parameters: ParameterSet {
///       let gravity = Parameter("gravity", 4, 0.1...20, unit: "× 1000 pt/s²", source: "…")
///     }
public protocol ParameterSet: Sendable {
  init()
}

extension ParameterSet {
  /// Every `Parameter` stored property, in the order declared: the transition's `parameters`.
  public static var declarations: [TransitionParameter] {
    Mirror(reflecting: Self()).children.compactMap { ($0.value as? any AnyParameter)?.declaration }
  }
}

/// A transition's validated parameters, read by the properties of its `ParameterSet`:
/// `p.gravity` is the client's value for `gravity` or its default.
@dynamicMemberLookup
public struct ParameterReader<Declared: ParameterSet>: Sendable {
  private let declared = Declared()
  private let values: ParameterValues

  /// Reads `values`, validated against `Declared.declarations`; a value they do not hold (they
  /// were validated against other declarations) reads as the parameter's default.
  public init(_ values: ParameterValues) {
    self.values = values
  }

  public subscript<Value>(dynamicMember key: KeyPath<Declared, Parameter<Value>>) -> Value {
    let parameter = declared[keyPath: key]
    return values[parameter.declaration.name].flatMap(parameter.read) ?? parameter.defaultValue
  }

  /// The names of the parameters the client set.
  public var given: Set<String> { values.given }

  /// Whether the client set the parameter `key` (to any value, its default included).
  public func isGiven<Value>(_ key: KeyPath<Declared, Parameter<Value>>) -> Bool {
    values.given.contains(declared[keyPath: key].declaration.name)
  }
}

/// Why a transition's `params` were refused.
public struct TransitionError: Error, Equatable, Sendable {
  public enum Kind: Sendable {
    case unknownParameter
    case wrongType
    case outOfRange
    /// Parameters of two ways to give one thing (two spring parameter sets, two decay models).
    case conflicting
  }
  public let kind: Kind
  public let message: String

  public init(kind: Kind, message: String) {
    self.kind = kind
    self.message = message
  }
}

/// A transition's parameters after validation: every declared one, overridden or default.
public struct ParameterValues: Sendable {
  private var values: [String: ParameterValue] = [:]
  /// The names the client set, whatever the values: what a transition reads to tell which of
  /// several ways to give one thing a client chose (the sheet's spring).
  public private(set) var given: Set<String> = []

  /// Validates overrides against the declarations, resolved in bounds of `size`
  /// (`TransitionParameter.resolved(in:)`); unknown names and bad values throw.
  public init(
    _ overrides: [String: ParameterValue], declared: [TransitionParameter],
    in size: Size = TransitionBounds.standard.size
  ) throws {
    let declared = declared.map { $0.resolved(in: size) }
    for p in declared { values[p.name] = p.defaultValue }
    for (name, value) in overrides.sorted(by: { $0.key < $1.key }) {
      guard let p = declared.first(where: { $0.name == name }) else {
        let known = declared.map(\.name).joined(separator: ", ")
        throw TransitionError(
          kind: .unknownParameter,
          message: "unknown parameter '\(name)'" + didYouMean(name, among: declared.map(\.name))
            + (known.isEmpty ? "" : " (known: \(known))"))
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
      case (.number(let range), _):
        throw TransitionError(
          kind: .wrongType,
          message: "parameter '\(name)' must be a number within "
            + "\(range.lowerBound)…\(range.upperBound)")
      case (.bool, _):
        throw TransitionError(
          kind: .wrongType, message: "parameter '\(name)' must be true or false")
      case (.choice(let words), _):
        throw TransitionError(
          kind: .wrongType,
          message: "parameter '\(name)' must be one of \(words.joined(separator: ", ")) (a string)")
      }
      values[name] = value
      given.insert(name)
    }
  }

  /// The value of the parameter called `name`, if it is declared. Transitions read theirs through
  /// a `ParameterReader`; this is for what looks at parameters by name (tests).
  public subscript(name: String) -> ParameterValue? { values[name] }

  /// The number called `name`, if it is a declared number.
  public func number(_ name: String) -> Double? {
    if case .number(let v)? = values[name] { v } else { nil }
  }
}
