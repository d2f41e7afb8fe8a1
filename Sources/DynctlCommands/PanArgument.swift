import ArgumentParser

/// `x1,y1:x2,y2` on the command line: where a pan starts and where it lifts.
struct PanArgument: ExpressibleByArgument {
  let from: PairArgument
  let to: PairArgument
  /// The argument as typed, for messages.
  let typed: String

  init?(argument: String) {
    let ends = argument.split(separator: ":", omittingEmptySubsequences: false)
    guard ends.count == 2, let from = PairArgument(argument: String(ends[0])),
      let to = PairArgument(argument: String(ends[1]))
    else { return nil }
    self.from = from
    self.to = to
    typed = argument
  }
}
