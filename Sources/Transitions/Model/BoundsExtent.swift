import Expressions
import Primitives

/// A number of a parameter's declaration (its default or a bound of its range) that may depend
/// on the size of the transition's bounds: a constant, or an expression of `width` and `height`
/// (`Expressions`), evaluated in the bounds a session opens with. What a seed tied to a 320×568
/// screen (the sheet's medium detent, half the height) is written this way; a length a client
/// gives in points keeps its meaning at any size.
public enum BoundsExtent: Sendable, Equatable, ExpressibleByFloatLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByStringLiteral
{
  case fixed(Double)
  /// An expression of `width` and `height`, as written.
  case ofBounds(String)

  public init(floatLiteral value: Double) { self = .fixed(value) }
  public init(integerLiteral value: Int) { self = .fixed(Double(value)) }
  public init(stringLiteral text: String) { self = .ofBounds(text) }

  /// The names an extent may use, and the sizes they range over (`Limits` of `open`'s bounds).
  public static let names: ExpressionNames = {
    var names = ExpressionNames()
    names.add("width", in: TransitionBounds.sides)
    names.add("height", in: TransitionBounds.sides)
    return names
  }()

  /// The expression of an `ofBounds` extent; nil for a fixed one, or one that does not read
  /// (which `TransitionParameterTests` refuses for every built-in declaration).
  public var expression: Expression? {
    guard case .ofBounds(let text) = self else { return nil }
    return try? ExpressionParser.parse(text, names: Self.names, as: .number)
  }

  /// The value in bounds of `size`.
  public func value(in size: Size) -> Double {
    switch self {
    case .fixed(let value): return value
    case .ofBounds:
      return (try? expression?.number([size.width, size.height])) ?? .nan
    }
  }

  /// The text of an `ofBounds` extent.
  public var text: String? {
    if case .ofBounds(let text) = self { return text }
    return nil
  }
}

/// The bounds a transition may be opened in (`open`'s `bounds`), and the default.
public enum TransitionBounds {
  /// The seeds' screen, an iPhone 5's 320×568 points: every transition's default.
  public static let standard = Rect(x: 0, y: 0, width: 320, height: 568)
  /// Each side's range, in points (`PropertyRanges.transitionSide`).
  public static let sides = PropertyRanges.transitionSide
}
