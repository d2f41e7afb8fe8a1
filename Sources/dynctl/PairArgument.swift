import ArgumentParser

/// `x,y` on the command line: a point or a vector.
struct PairArgument: ExpressibleByArgument, Equatable {
  let x: Double
  let y: Double

  init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  init?(argument: String) {
    let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2,
      let x = Double(parts[0].filter { $0 != " " }), let y = Double(parts[1].filter { $0 != " " }),
      x.isFinite, y.isFinite
    else { return nil }
    self.init(x: x, y: y)
  }

  static var defaultCompletionKind: CompletionKind { .default }
}
