import Glibc

/// Where the latency benchmark's processes run. On a VM, waking a thread on another, idle vCPU
/// costs tens of microseconds, more than either server's work, so the placement decides the
/// figure; pinning makes it the same for the floor and for dynd.
enum Placement: String, CaseIterable {
  /// Wherever the kernel puts them.
  case free
  /// Client and servers share CPU 0: only the software path is timed.
  case same
  /// Client on CPU 0, servers on CPU 1: every round trip crosses CPUs twice.
  case split

  /// The CPU for the servers (echo and dynd), if pinned.
  var serverCPU: Int? {
    switch self {
    case .free: nil
    case .same: 0
    case .split: 1
    }
  }

  /// The CPU for the timing client, if pinned.
  var clientCPU: Int? { self == .free ? nil : 0 }
}

/// Pins process or thread `id` (0: the calling thread) to one CPU; returns false on failure.
///
/// `sched_setaffinity` is a GNU extension that Glibc's Swift module leaves out, so it is looked
/// up at run time; the mask is glibc's 1024-bit `cpu_set_t`.
@discardableResult
func pin(_ id: pid_t, toCPU cpu: Int) -> Bool {
  typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
  guard let symbol = dlsym(nil, "sched_setaffinity") else { return false }
  let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
  var mask = [UInt8](repeating: 0, count: 128)
  mask[cpu / 8] |= UInt8(1 << (cpu % 8))
  return mask.withUnsafeBytes { setAffinity(id, $0.count, $0.baseAddress!) } == 0
}
