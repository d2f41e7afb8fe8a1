internal import CLibevent

/// A timer that fires every `period` while started: the frame clock of a realtime session.
///
/// Built on an `EV_PERSIST` timeout event, which libevent reschedules from the time it was *due*,
/// not from when the callback ran, so ticks do not drift. When the loop misses one or more ticks
/// (a stall longer than a period) it does **not** fire a burst of catch-up calls; it simply
/// continues. A caller that needs simulation time therefore derives it from `ticks` (fixed steps)
/// and may compare with `elapsed` to notice a lag.
///
/// A stopped timer is not registered with the loop at all, so a session at rest costs no CPU.
/// `start()` and `stop()` are O(log n) heap operations and allocate nothing.
///
/// The handler runs on the loop thread. It must not capture its owner strongly (the owner holds
/// the timer): capture `[unowned self]` or `[weak self]`. Releasing the timer from inside its own
/// handler is allowed.
public final class RepeatingTimer {
  /// The time between ticks (rounded to whole microseconds for libevent).
  public let period: Duration
  /// Ticks since the last `start()`; incremented before the handler runs.
  public private(set) var ticks: UInt64 = 0
  /// Whether the timer is registered with the loop.
  public private(set) var isRunning = false

  private let loop: EventLoop
  private let handler: (RepeatingTimer) -> Void
  private var event: OpaquePointer?
  private var startedAt: Duration = .zero
  private var stoppedAfter: Duration = .zero

  /// Creates a stopped timer. `period` must be at least one microsecond.
  public init(
    loop: EventLoop, period: Duration, handler: @escaping (RepeatingTimer) -> Void
  ) {
    precondition(period >= .microseconds(1), "a repeating timer needs a period of at least 1 µs")
    loop.assertOnLoopThread()
    self.loop = loop
    self.period = period
    self.handler = handler
    event = loop.makeEvent(
      fd: -1, what: EV_PERSIST, context: Unmanaged.passUnretained(self).toOpaque()
    ) { _, _, context in
      Unmanaged<RepeatingTimer>.fromOpaque(context!).takeUnretainedValue().fire()
    }
  }

  deinit {
    // event_free also removes a pending event; the context is unretained, so nothing leaks.
    if let event { event_free(event) }
  }

  /// Starts ticking: the first tick comes one period from now. Resets `ticks`. Does nothing if the
  /// timer is already running.
  public func start() {
    loop.assertOnLoopThread()
    guard !isRunning, let event else { return }
    ticks = 0
    startedAt = MonotonicClock.now()
    var interval = timeval(period)
    _ = event_add(event, &interval)
    isRunning = true
  }

  /// Stops ticking; no tick is delivered after this returns. Does nothing if already stopped.
  public func stop() {
    loop.assertOnLoopThread()
    guard isRunning, let event else { return }
    _ = event_del(event)
    isRunning = false
    stoppedAfter = MonotonicClock.now() - startedAt
  }

  /// Time since the last `start()` on CLOCK_MONOTONIC (frozen when stopped). With no stalls,
  /// `ticks` is `elapsed / period` rounded down.
  public var elapsed: Duration {
    isRunning ? MonotonicClock.now() - startedAt : stoppedAfter
  }

  private func fire() {
    ticks += 1
    handler(self)
  }
}

/// A timer that fires once after a delay, and can be rescheduled or cancelled.
///
/// Used for deadlines: a shutdown drain, a flush linger, a test's safety net. The handler rules
/// are those of `RepeatingTimer`.
public final class OneShotTimer {
  /// Whether the timer is waiting to fire.
  public private(set) var isScheduled = false

  private let loop: EventLoop
  private let handler: (OneShotTimer) -> Void
  private var event: OpaquePointer?

  /// Creates an unscheduled timer.
  public init(loop: EventLoop, handler: @escaping (OneShotTimer) -> Void) {
    loop.assertOnLoopThread()
    self.loop = loop
    self.handler = handler
    event = loop.makeEvent(
      fd: -1, what: 0, context: Unmanaged.passUnretained(self).toOpaque()
    ) { _, _, context in
      Unmanaged<OneShotTimer>.fromOpaque(context!).takeUnretainedValue().fire()
    }
  }

  deinit {
    if let event { event_free(event) }
  }

  /// Fires the handler once, `delay` from now, replacing any earlier schedule.
  public func schedule(after delay: Duration) {
    loop.assertOnLoopThread()
    guard let event else { return }
    var timeout = timeval(delay)
    _ = event_add(event, &timeout)
    isScheduled = true
  }

  /// Cancels a pending firing. Does nothing if none is pending.
  public func cancel() {
    loop.assertOnLoopThread()
    guard isScheduled, let event else { return }
    _ = event_del(event)
    isScheduled = false
  }

  private func fire() {
    isScheduled = false
    handler(self)
  }
}
