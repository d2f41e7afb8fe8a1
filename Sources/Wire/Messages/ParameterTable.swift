import Primitives
import Synchronization

/// One transition's parameters as `hello` lists them (extension `parameters`): the tables `open`
/// checks `params` against, in the order the transition declares them.
public struct ParameterTable: Equatable, Sendable {
  /// The transition's name, as in `transitions`.
  public var transition: String
  public var parameters: [ParameterDeclaration]

  public init(transition: String, parameters: [ParameterDeclaration]) {
    self.transition = transition
    self.parameters = parameters
  }
}

/// One parameter of a transition: its name, default, what `open` accepts, and where the default
/// comes from.
///
/// On the wire: a number `{"name","default","min","max","unit","source"}` (`unit` is `""` for a
/// number without one), a choice `{"name","default","choices","source"}`, a boolean
/// `{"name","default","source"}`. A number whose default or range depends on the transition's
/// bounds also has `"of_bounds"`: those of `default`, `min`, `max` as expressions of the bounds'
/// `width` and `height` (`{"default": "height * 0.5", "max": "height"}`); its numbers are then
/// their values in the standard 320×568 bounds.
public struct ParameterDeclaration: Equatable, Sendable {
  /// What a parameter accepts.
  public enum Kind: Equatable, Sendable {
    /// A number from `min` to `max`, both included, in `unit`.
    case number(min: Double, max: Double, unit: String)
    /// One of these words.
    case choice([String])
    /// `true` or `false`.
    case bool
  }

  public var name: String
  public var defaultValue: ParameterValue
  public var kind: Kind
  /// The seed, recreation or reason the default comes from.
  public var source: String
  /// The expressions of the bounds that give the default, min or max (nil: fixed).
  public var ofBounds: OfBounds?
  /// `"spring"` or `"decay"` when the parameter is a field of the spring or the decay the
  /// transition's parameters give, one set of which a client gives (written as `motion`).
  public var motion: String?

  /// A number parameter's default, min and max as expressions of the bounds, where they are.
  public struct OfBounds: Equatable, Sendable {
    public var defaultValue: String?
    public var minimum: String?
    public var maximum: String?

    public init(defaultValue: String?, minimum: String?, maximum: String?) {
      self.defaultValue = defaultValue
      self.minimum = minimum
      self.maximum = maximum
    }
  }

  public init(
    name: String, defaultValue: ParameterValue, kind: Kind, source: String,
    ofBounds: OfBounds? = nil, motion: String? = nil
  ) {
    self.name = name
    self.defaultValue = defaultValue
    self.kind = kind
    self.source = source
    self.ofBounds = ofBounds
    self.motion = motion
  }
}

extension ParameterTable {
  /// Decimals of the numbers of the tables: their constants are written as declared.
  static let decimals = 9

  /// The last tables encoded, with their text: a daemon's tables never change, and writing their
  /// 7 KB anew took each `hello` from 29 to 95 µs (BENCHMARKS, "Request → reply latency").
  private static let lastEncoded = Mutex<(tables: [ParameterTable], text: [UInt8])?>(nil)

  /// `replyValue(tables)` as JSON text, written once for as long as the tables are the same.
  static func encodedReplyValue(_ tables: [ParameterTable]) -> ReplyValue {
    lastEncoded.withLock { last in
      if let last, last.tables == tables { return .encoded(last.text) }
      let text = MessageEncoder.text(of: replyValue(tables))
      last = (tables, text)
      return .encoded(text)
    }
  }

  /// `{"<transition>": [parameter…], …}`, in the order of `tables`.
  static func replyValue(_ tables: [ParameterTable]) -> ReplyValue {
    .object(
      tables.map { table in
        ReplyField(table.transition, .array(table.parameters.map { .object($0.fields) }))
      })
  }
}

extension ParameterDeclaration {
  /// The members of the parameter's object.
  var fields: [ReplyField] {
    var fields: [ReplyField] = [
      .string("name", name), ReplyField("default", defaultValue.replyValue),
    ]
    switch kind {
    case .number(let min, let max, let unit):
      fields += [
        .number("min", min, decimals: ParameterTable.decimals),
        .number("max", max, decimals: ParameterTable.decimals), .string("unit", unit),
      ]
    case .choice(let words):
      fields.append(.strings("choices", words))
    case .bool:
      break
    }
    fields.append(.string("source", source))
    if let ofBounds {
      var expressions: [ReplyField] = []
      if let text = ofBounds.defaultValue { expressions.append(.string("default", text)) }
      if let text = ofBounds.minimum { expressions.append(.string("min", text)) }
      if let text = ofBounds.maximum { expressions.append(.string("max", text)) }
      fields.append(ReplyField("of_bounds", .object(expressions)))
    }
    if let motion { fields.append(.string("motion", motion)) }
    return fields
  }
}

extension ParameterValue {
  /// The value as a reply writes it: numbers as declared (`ParameterTable.decimals`), for
  /// hello's tables and get's `params` alike.
  var replyValue: ReplyValue {
    switch self {
    case .number(let number): .number(number, decimals: ParameterTable.decimals)
    case .bool(let flag): .bool(flag)
    case .string(let text): .string(text)
    }
  }
}
