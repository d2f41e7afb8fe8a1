internal import CLibevent
import Glibc

/// The daemon's single libevent loop.
///
/// An `event_base` created with `EVENT_BASE_FLAG_PRECISE_TIMER` (CLOCK_MONOTONIC and a timerfd, so
/// 120 Hz ticks do not jitter by the 4 ms of the coarse clock) and `EVENT_BASE_FLAG_NO_CACHE_TIME`
/// (a tick that does real work still schedules from the true time). libevent is built without
/// thread support here, so the loop and everything attached to it (timers, listeners, connections,
/// signal handlers) must be created, used and released on one thread: the thread that created the
/// loop. Debug builds assert this in the entry points.
///
/// Every object that registers with the loop keeps a strong reference to it, so the `event_base` is
/// freed only after the last of them.
public final class EventLoop {
  /// The `event_base *`; used only by the transport types of this module.
  let base: OpaquePointer
  private let owner: pthread_t
  private var lastIdentifier: UInt64 = 0
  /// `inputTurns`, while a connection holds it.
  weak var sharedInputTurns: InputTurns?

  /// Creates the loop's `event_base`. Call on the thread that will run it.
  public init() throws(TransportError) {
    guard let config = event_config_new() else {
      throw TransportError(.system, "cannot create a libevent configuration (out of memory)")
    }
    defer { event_config_free(config) }
    let flags =
      EVENT_BASE_FLAG_PRECISE_TIMER.rawValue | EVENT_BASE_FLAG_NO_CACHE_TIME.rawValue
    _ = event_config_set_flag(config, Int32(flags))
    guard let base = event_base_new_with_config(config) else {
      throw TransportError(.system, "cannot create the libevent event base")
    }
    self.base = base
    owner = pthread_self()
  }

  deinit {
    event_base_free(base)
  }

  /// The kernel interface libevent chose, e.g. "epoll".
  public var backendMethod: String {
    String(cString: event_base_get_method(base))
  }

  /// Runs the loop until `stop(after:)` is called. It does not return merely because nothing is
  /// registered: a daemon's loop ends only when asked to.
  public func run() throws(TransportError) {
    assertOnLoopThread()
    if event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY) < 0 {
      throw TransportError(.system, "the libevent loop failed")
    }
  }

  /// Runs what is ready now, without waiting (for harnesses that drive the loop themselves).
  public func runOnce() {
    assertOnLoopThread()
    _ = event_base_loop(base, EVLOOP_NONBLOCK)
  }

  /// Makes `run()` return once `drain` has passed.
  ///
  /// Until then the loop keeps running, so queued output can still be written (the shutdown
  /// pattern: stop accepting, broadcast, `stop(after: .milliseconds(250))`). Events already active
  /// when the time is up still run; see `event_base_loopexit`.
  public func stop(after drain: Duration = .zero) {
    assertOnLoopThread()
    if drain <= .zero {
      _ = event_base_loopexit(base, nil)
    } else {
      var delay = timeval(drain)
      _ = event_base_loopexit(base, &delay)
    }
  }

  /// Runs `work` on this loop soon: after the current callback returns, in this or the next
  /// iteration, in the order of the calls.
  ///
  /// This is how notifications are kept from re-entering the code that caused them (a connection
  /// closed from inside `send` reports it from here). If the loop stops first, `work` never runs.
  public func performSoon(_ work: @escaping () -> Void) {
    assertOnLoopThread()
    let box = Unmanaged.passRetained(PendingWork(work)).toOpaque()
    // A zero timeout makes event_base_once activate the event at once, preserving call order.
    let rc = event_base_once(
      base, -1, Int16(EV_TIMEOUT),
      { _, _, context in
        Unmanaged<PendingWork>.fromOpaque(context!).takeRetainedValue().body()
      }, box, nil)
    if rc != 0 {
      Unmanaged<PendingWork>.fromOpaque(box).release()
      fatalError("libevent: event_base_once failed (out of memory)")
    }
  }

  /// A number unique within this loop, for naming connections in logs.
  func makeIdentifier() -> UInt64 {
    lastIdentifier += 1
    return lastIdentifier
  }

  /// Traps in debug builds when called from a thread other than the loop's.
  func assertOnLoopThread(file: StaticString = #fileID, line: UInt = #line) {
    assert(
      pthread_equal(owner, pthread_self()) != 0,
      "EventLoop used from a thread other than the one that created it", file: file, line: line)
  }

  /// Allocates a libevent `event`; allocation failure is fatal, as everywhere else in the daemon.
  func makeEvent(
    fd: Int32, what: Int32, context: UnsafeMutableRawPointer,
    callback: @escaping @convention(c) (Int32, Int16, UnsafeMutableRawPointer?) -> Void
  ) -> OpaquePointer {
    guard let event = event_new(base, fd, Int16(what), callback, context) else {
      fatalError("libevent: event_new failed (out of memory)")
    }
    return event
  }
}

private final class PendingWork {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
}

extension timeval {
  /// `duration` rounded to the nearest microsecond; negative durations become zero.
  init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    guard seconds > 0 || (seconds == 0 && attoseconds > 0) else {
      self.init(tv_sec: 0, tv_usec: 0)
      return
    }
    var wholeSeconds = Int(seconds)
    var microseconds = Int((attoseconds + 500_000_000_000) / 1_000_000_000_000)
    if microseconds >= 1_000_000 {
      wholeSeconds += 1
      microseconds -= 1_000_000
    }
    self.init(tv_sec: wholeSeconds, tv_usec: microseconds)
  }
}

/// CLOCK_MONOTONIC, the clock libevent's precise timers run on.
enum MonotonicClock {
  static func now() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
  }
}
