import ArgumentParser
import JSON
import Primitives
import Wire

/// `x,y` on the command line: a point or a vector.
struct PairArgument: ExpressibleByArgument, Equatable {
  let x: Double
  let y: Double
  /// The two numbers as the user typed them, for messages.
  let typed: (x: String, y: String)

  init(x: Double, y: Double) {
    self.x = x
    self.y = y
    typed = (JSONValue.number(x).jsonText, JSONValue.number(y).jsonText)
  }

  init?(argument: String) {
    let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
      .map { $0.filter { $0 != " " } }
    guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite,
      y.isFinite
    else { return nil }
    self.x = x
    self.y = y
    typed = (parts[0], parts[1])
  }

  static func == (a: PairArgument, b: PairArgument) -> Bool { a.x == b.x && a.y == b.y }

  static var defaultCompletionKind: CompletionKind { .default }

  /// Refuses, before anything is sent, a pair the daemon would refuse: `option`, the argument
  /// as typed and the number at fault are named, with the protocol's range (`Limits.coordinate`
  /// for points, `Limits.speed` for velocities).
  func check(_ option: String, as argument: String, within range: NumberRange, _ unit: String)
    throws
  {
    for (name, value, text) in [("x", x, typed.x), ("y", y, typed.y)] where !range.contains(value) {
      throw ValidationError(
        "\(option) \(argument): \(name) \(text) is not \(range.phrase) \(unit), the protocol's range"
      )
    }
  }

  /// `check` for a point (coordinates within ±10⁶ pt).
  func checkPoint(_ option: String, as argument: String? = nil) throws {
    try check(option, as: argument ?? "\(typed.x),\(typed.y)", within: Limits.coordinate, "pt")
  }

  /// `check` for a velocity (within ±10⁶ pt/s).
  func checkVelocity(_ option: String) throws {
    try check(option, as: "\(typed.x),\(typed.y)", within: Limits.speed, "pt/s")
  }
}

extension PairArgument {
  var point: Point { Point(x: x.asSent, y: y.asSent) }
  var vector: Vector { Vector(dx: x.asSent, dy: y.asSent) }
}
