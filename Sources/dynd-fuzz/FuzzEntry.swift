import Daemon

/// libFuzzer's entry point (`make fuzz`, `tools/fuzz.sh`): one input is request lines for up to
/// four connections (`@N ` prefixes, `@N close`/`reset`/`stall`/`read`; see `LineHarness`),
/// applied to a fresh daemon. Anything wrong with what the daemon wrote to any connection traps,
/// so libFuzzer saves the input as a crash; so does any crash inside the daemon itself, and a
/// run that does not finish within the harness's budget.
///
/// Built without `--sanitize=fuzzer` this is a library-style executable with no `main`: SwiftPM
/// links it, and it does nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let outcome = LineHarness().run(Array(UnsafeBufferPointer(start: data, count: size)))
  if !outcome.problems.isEmpty {
    fatalError(
      "the daemon misbehaved (\(outcome.sentLines) lines sent on \(outcome.connections) "
        + "connections):\n" + outcome.problems.prefix(10).joined(separator: "\n"))
  }
  return 0
}
