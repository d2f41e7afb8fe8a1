import Glibc

/// The release `dynd` next to this `dynbench`, run as a child process on a private socket, with
/// readers for its CPU time, context switches and resident memory.
final class DaemonProcess {
  let pid: pid_t
  let socketPath: String
  private var stopped = false

  /// Starts `dynd --socket <path> --log-level warning` from the directory of the running
  /// `dynbench`, or `<program> <subcommand…> --socket <path> <arguments…>` from there.
  init(
    tag: String, program: String = "dynd", subcommand: [String] = [],
    arguments: [String] = ["--log-level", "warning"]
  ) throws(BenchError) {
    let directory = Self.executableDirectory()
    let binary = directory + "/" + program
    guard access(binary, X_OK) == 0 else {
      throw BenchError("no \(program) next to dynbench (\(binary)); build that product too")
    }
    socketPath = "/tmp/dynbench-\(getpid())-\(tag).sock"
    unlink(socketPath)
    let arguments = [binary] + subcommand + ["--socket", socketPath] + arguments
    var cArguments = arguments.map { strdup($0) } + [nil]
    defer { for p in cArguments { free(p) } }
    var child: pid_t = 0
    let rc = posix_spawn(&child, binary, nil, nil, &cArguments, environ)
    guard rc == 0 else { throw BenchError("posix_spawn dynd: \(String(cString: strerror(rc)))") }
    pid = child
  }

  deinit { stop() }

  /// SIGTERM, then waits for the exit.
  func stop() {
    guard !stopped else { return }
    stopped = true
    kill(pid, SIGTERM)
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    unlink(socketPath)
  }

  /// CPU time (user + system) the daemon has used, in nanoseconds.
  func cpuNanoseconds() -> UInt64 {
    var clock = clockid_t()
    guard clock_getcpuclockid(pid, &clock) == 0 else { return 0 }
    var ts = timespec()
    clock_gettime(clock, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
  }

  /// Resident set size in KiB (`VmRSS`).
  func residentKiB() -> Int { statusField("VmRSS:") }

  /// Voluntary plus involuntary context switches: how often the daemon woke up.
  func contextSwitches() -> Int {
    statusField("voluntary_ctxt_switches:") + statusField("nonvoluntary_ctxt_switches:")
  }

  private func statusField(_ name: String) -> Int {
    let text = readSmallFile("/proc/\(pid)/status")
    for line in text.split(separator: "\n") where line.hasPrefix(name) {
      let digits =
        line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
        .first ?? ""
      return Int(digits) ?? 0
    }
    return 0
  }

  private static func executableDirectory() -> String {
    var path = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &path, path.count - 1)
    guard n > 0 else { return "." }
    let full = String(decoding: path[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(full[..<(full.lastIndex(of: "/") ?? full.endIndex)])
  }
}

/// The whole of a small text file such as `/proc/self/status`, or "" if it cannot be read.
func readSmallFile(_ path: String) -> String {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return "" }
  defer { close(fd) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 4096)
  while true {
    let n = read(fd, &chunk, chunk.count)
    if n <= 0 { break }
    bytes += chunk[0..<n]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// CPU time this process has used, in nanoseconds.
func ownCPUNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// The 1-minute load average, for the report.
func loadAverage() -> String {
  String(readSmallFile("/proc/loadavg").split(separator: " ").prefix(3).joined(separator: " "))
}
