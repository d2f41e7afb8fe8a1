import HostFuzzing

/// libFuzzer's entry: one input (request lines for up to four peers, see `HostFuzzDriver`) run
/// against a fresh embedded host; any problem with the output is a crash, so libFuzzer saves the
/// input. A plain build links this as a binary that does nothing.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let outcome = HostFuzzDriver().run(Array(UnsafeBufferPointer(start: data, count: size)))
  if !outcome.problems.isEmpty {
    fatalError("dynd-fuzz: \(outcome.problems.joined(separator: "\n"))")
  }
  return 0
}
