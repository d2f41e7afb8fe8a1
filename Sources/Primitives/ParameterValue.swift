/// A value a client gives a transition parameter in `params`.
public enum ParameterValue: Equatable, Sendable {
  case number(Double)
  case bool(Bool)
  case string(String)
}
