import Daemon

/// libFuzzer's entry point (`make fuzz`, `tools/fuzz.sh`): one input is a few request lines,
/// applied to a fresh daemon by `LineHarness`. Anything wrong with what the daemon wrote traps,
/// so libFuzzer saves the input as a crash; so does any crash inside the daemon itself.
///
/// Built without `--sanitize=fuzzer` this is a library-style executable with no `main`: SwiftPM
/// links it, and it does nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let outcome = LineHarness().run(Array(UnsafeBufferPointer(start: data, count: size)))
  if !outcome.problems.isEmpty {
    fatalError(
      "the daemon misbehaved:\n" + outcome.problems.prefix(10).joined(separator: "\n"))
  }
  return 0
}
