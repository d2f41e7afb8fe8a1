// Placeholder until the fuzz harness lands (replaced by the fuzzing work of issue 3).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt { 0 }
