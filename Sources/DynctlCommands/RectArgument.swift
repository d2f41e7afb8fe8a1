import ArgumentParser
import JSON
import Primitives
import Wire

/// `x,y,w,h` (or, where the protocol allows it, `w,h` for an origin of 0,0) on the command line:
/// a rectangle.
struct RectArgument: ExpressibleByArgument {
  let rect: Rect
  /// Whether it was written `w,h`.
  let sizeOnly: Bool
  /// The argument as typed, for messages.
  let typed: String

  init?(argument: String) {
    let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.filter { $0 != " " } }
    let numbers = parts.compactMap { Double($0) }
    guard numbers.count == parts.count, numbers.allSatisfy(\.isFinite) else { return nil }
    switch numbers.count {
    case 2: rect = Rect(x: 0, y: 0, width: numbers[0].asSent, height: numbers[1].asSent)
    case 4:
      rect = Rect(
        x: numbers[0].asSent, y: numbers[1].asSent, width: numbers[2].asSent,
        height: numbers[3].asSent)
    default: return nil
    }
    sizeOnly = numbers.count == 2
    typed = argument
  }

  static var defaultCompletionKind: CompletionKind { .default }

  /// Refuses, before anything is sent, a rectangle the daemon would refuse: `x`, `y` within
  /// `Limits.coordinate`, `w`, `h` within `sides`; `what` names the argument.
  func check(_ what: String, sides: NumberRange, allowsSizeOnly: Bool) throws {
    if sizeOnly, !allowsSizeOnly {
      throw ValidationError("\(what) \(typed): give x,y,w,h (four numbers)")
    }
    let checks: [(String, Double, NumberRange)] = [
      ("x", rect.minX, Limits.coordinate), ("y", rect.minY, Limits.coordinate),
      ("w", rect.size.width, sides), ("h", rect.size.height, sides),
    ]
    for (name, value, range) in checks where !range.contains(value) {
      throw ValidationError(
        "\(what) \(typed): \(name) \(JSONValue.number(value).jsonText) is not \(range.phrase) pt, "
          + "the protocol's range")
    }
  }
}
