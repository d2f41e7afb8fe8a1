import Transitions
import Wire

/// `hello`: the protocol version, the server, the transitions it offers and (extension) the
/// parameter table of each, the very declarations `open` checks `params` against.
extension HelloRequest: DaemonOp {
  func run(_ c: OpContext) throws(ProtocolError) -> ReplyBody? {
    .hello(
      version: c.host.configuration.version, transitions: c.host.transitions.names,
      parameters: c.host.transitions.parameterTables)
  }
}

extension SessionHost {
  /// The built-in transitions' parameters as `hello` lists them, built once.
  static let builtInParameterTables: [ParameterTable] = TransitionRegistry.all.map { type in
    ParameterTable(transition: type.name, parameters: type.parameters.wireDeclarations)
  }
}

extension [TransitionParameter] {
  /// The parameters as `hello` describes them: each a spring's or a decay's field when the
  /// transition declares that motion's every field (`GivenMotion.motion`).
  var wireDeclarations: [ParameterDeclaration] {
    let names = map(\.name)
    return map {
      var declaration = $0.wireDeclaration
      declaration.motion = GivenMotion.motion(of: $0.name, among: names)
      return declaration
    }
  }
}

extension TransitionParameter {
  /// The parameter as `hello` describes it.
  var wireDeclaration: ParameterDeclaration {
    let wireKind: ParameterDeclaration.Kind
    switch kind {
    case .number(let range):
      wireKind = .number(min: range.lowerBound, max: range.upperBound, unit: unit)
    case .choice(let words): wireKind = .choice(words)
    case .bool: wireKind = .bool
    }
    return ParameterDeclaration(
      name: name, defaultValue: defaultValue, kind: wireKind, source: source,
      ofBounds: relative.map {
        ParameterDeclaration.OfBounds(
          defaultValue: $0.defaultValue.text, minimum: $0.minimum.text, maximum: $0.maximum.text)
      })
  }
}
