import Glibc

/// The open-file limit (`RLIMIT_NOFILE`), raised at start as daemons that serve many connections
/// do, and the number of connections it leaves room for.
///
/// Every connection is a descriptor. The soft limit a process inherits is often 1024 (the default
/// systemd and most shells give) while the hard limit is much higher (524288 under systemd): the
/// soft limit is kept low only for programs that still use `select()`, whose `fd_set` holds 1024
/// descriptors. dynd uses epoll (libevent), so it raises its soft limit to the hard limit, as Go's
/// runtime, nginx (`worker_rlimit_nofile`) and systemd's advice to such programs ("File
/// Descriptor Limits", 0pointer.net) do. It never lowers a limit, and caps the raise at
/// `openFileCap` (and at `/proc/sys/fs/nr_open`, beyond which `setrlimit` fails) when the hard
/// limit is unlimited or larger.
public enum ResourceLimits {
  /// Descriptors kept out of `connectionCapacity` for everything that is not a connection:
  /// standard input, output and error (3); the listening socket and the listener's spare
  /// descriptor for the EMFILE trick (2); libevent's epoll descriptor, timerfd and signal socket
  /// pair (4); the loop's wakeup socket pair (2); during start-up or a socket re-creation the lock
  /// file, a probe socket and the new listening socket (3); that is 14, and the rest of 32 is a
  /// margin for log files a handler may open and the Swift runtime's own (`/proc`, `/dev/urandom`).
  /// dynd has 12 descriptors open (0 to 11, the spare included) when it starts listening.
  public static let reservedDescriptors = 32

  /// The largest soft limit dynd raises itself to, when the hard limit is unlimited or higher:
  /// 1 Mi descriptors, Linux's default `fs.nr_open`. dynd holds at most `Limits.maxConnections`
  /// (4096) connections, so this is room to spare, not a target.
  public static let openFileCap: rlim_t = 1 << 20

  /// The outcome of `raiseOpenFileLimit()`.
  public struct OpenFileLimit: Equatable, Sendable, CustomStringConvertible {
    /// The soft limit in effect now: the most descriptors the process may have open.
    public let soft: Int
    /// The soft limit before the call.
    public let previousSoft: Int
    /// The hard limit; nil when unlimited.
    public let hard: Int?
    /// Why the limit could not be raised (the `setrlimit` error), if it could not.
    public let failure: String?

    /// Makes an outcome from its fields.
    public init(soft: Int, previousSoft: Int, hard: Int?, failure: String? = nil) {
      self.soft = soft
      self.previousSoft = previousSoft
      self.hard = hard
      self.failure = failure
    }

    /// A log line's worth, e.g. "open file limit 524288 (raised from 1024; hard limit 524288)".
    public var description: String {
      let hardText = hard.map { "hard limit \($0)" } ?? "no hard limit"
      if let failure {
        return "open file limit \(soft) (could not raise it towards \(hardText): \(failure))"
      }
      if soft != previousSoft {
        return "open file limit \(soft) (raised from \(previousSoft); \(hardText))"
      }
      return "open file limit \(soft) (\(hardText))"
    }
  }

  /// The soft limit to ask for, given the current limits: the hard limit, capped at `openFileCap`
  /// and at `systemMaximum` (`fs.nr_open`, if known), never below the current soft limit.
  public static func targetSoftLimit(
    soft: rlim_t, hard: rlim_t, systemMaximum: rlim_t? = nil
  ) -> rlim_t {
    var target = min(hard, openFileCap)  // RLIM_INFINITY is rlim_t.max
    if let systemMaximum { target = min(target, systemMaximum) }
    return max(soft, target)
  }

  /// Raises the soft open-file limit to the hard limit (see the type's documentation) and returns
  /// what is in effect. Call once at start, before the listener opens anything.
  @discardableResult
  public static func raiseOpenFileLimit() -> OpenFileLimit {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else {
      let failure = errnoDescription(errno)
      return OpenFileLimit(soft: -1, previousSoft: -1, hard: nil, failure: failure)
    }
    let previous = limit.rlim_cur
    let target = targetSoftLimit(
      soft: previous, hard: limit.rlim_max, systemMaximum: systemMaximumOpenFiles())
    var failure: String?
    if target > previous {
      var raised = limit
      raised.rlim_cur = target
      if setrlimit(resource, &raised) == 0 {
        limit = raised
      } else {
        failure = errnoDescription(errno)
      }
    }
    return OpenFileLimit(
      soft: clamp(limit.rlim_cur), previousSoft: clamp(previous),
      hard: limit.rlim_max == rlim_t.max ? nil : clamp(limit.rlim_max), failure: failure)
  }

  /// The soft open-file limit in effect now (`Int.max` if unlimited).
  public static func openFileLimit() -> Int {
    var limit = rlimit()
    guard getrlimit(resource, &limit) == 0 else { return Int.max }
    return clamp(limit.rlim_cur)
  }

  /// How many connections fit in `openFileLimit` descriptors once `reserve` are set aside for the
  /// rest of the daemon (see `reservedDescriptors`), and at least half the limit (under a limit
  /// too small for the reserve, the accept back-off handles running out). Cap the server's
  /// connection count with it, e.g. `min(Limits.maxConnections, ResourceLimits.connectionCapacity())`,
  /// so that dynd refuses connections cleanly at its own cap before `accept` runs out of
  /// descriptors.
  public static func connectionCapacity(
    openFileLimit: Int = openFileLimit(), reserve: Int = reservedDescriptors
  ) -> Int {
    max(openFileLimit / 2, openFileLimit - reserve, 0)
  }

  /// `/proc/sys/fs/nr_open`: the most descriptors any process may be allowed.
  static func systemMaximumOpenFiles() -> rlim_t? {
    readSysctl("/proc/sys/fs/nr_open").map { rlim_t($0) }
  }

  private static var resource: __rlimit_resource_t {
    __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
  }

  private static func clamp(_ value: rlim_t) -> Int {
    value >= rlim_t(Int.max) ? Int.max : Int(value)
  }
}

/// A non-negative integer read from a `/proc/sys` file, or nil.
func readSysctl(_ path: String) -> Int? {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var buffer = [UInt8](repeating: 0, count: 32)
  let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
  guard count > 0 else { return nil }
  let text = String(decoding: buffer[..<count], as: UTF8.self)
  guard let value = Int(text.trimmingSuffixWhitespace()), value >= 0 else { return nil }
  return value
}

extension String {
  fileprivate func trimmingSuffixWhitespace() -> Substring {
    var end = endIndex
    while end > startIndex, self[index(before: end)].isWhitespace { end = index(before: end) }
    return self[..<end]
  }
}
