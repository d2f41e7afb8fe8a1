internal import CLibevent
import Primitives

/// A timer that fires on a grid of absolute deadlines while started: the frame clock of realtime
/// sessions, as a display link is.
///
/// Tick n is due `n · period` after `start()`, computed from that instant in nanoseconds, so ticks
/// never drift, whatever the handler or the loop costs. When the loop is late by more than a
/// period it does **not** fire a burst of catch-up calls: the next firing is for the latest grid
/// point that has passed, and `advance` says how many periods it covers (1 when on time); the
/// points skipped are counted in `missedTicks`. A caller keeping simulation time in step with the
/// clock advances it by `advance` periods.
///
/// A stopped timer is not registered with the loop at all, so a session at rest costs no CPU.
/// `start()` and `stop()` are O(log n) heap operations and allocate nothing.
///
/// The handler runs on the loop thread. It must not capture its owner strongly (the owner holds
/// the timer): capture `[unowned self]` or `[weak self]`. Releasing the timer from inside its own
/// handler is allowed.
public final class RepeatingTimer {
  /// The time between ticks.
  public let period: Duration
  /// The grid point of the latest tick since the last `start()` (1, 2, 3, … when on time).
  public private(set) var ticks: UInt64 = 0
  /// Periods the latest tick covers: 1 when it came on time, k when k − 1 grid points passed
  /// while the loop was busy.
  public private(set) var advance = 1
  /// Grid points that passed without a tick since the last `start()`.
  public private(set) var missedTicks: UInt64 = 0
  /// Whether the timer is registered with the loop.
  public private(set) var isRunning = false

  private let loop: EventLoop
  private let handler: (RepeatingTimer) -> Void
  private var event: OpaquePointer?
  private var grid: TickGrid
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
    grid = TickGrid(period: period)
    self.handler = handler
    event = loop.makeEvent(
      fd: -1, what: 0, context: Unmanaged.passUnretained(self).toOpaque()
    ) { _, _, context in
      Unmanaged<RepeatingTimer>.fromOpaque(context!).takeUnretainedValue().fire()
    }
  }

  deinit {
    // event_free also removes a pending event; the context is unretained, so nothing leaks.
    if let event { event_free(event) }
  }

  /// Starts ticking: the grid starts now, the first tick comes one period from now. Resets
  /// `ticks` and `missedTicks`. Does nothing if the timer is already running.
  public func start() {
    loop.assertOnLoopThread()
    guard !isRunning else { return }
    ticks = 0
    grid = TickGrid(period: period)
    missedTicks = 0
    advance = 1
    startedAt = MonotonicClock.now()
    isRunning = true
    arm(after: period)
  }

  /// Stops ticking; no tick is delivered after this returns. Does nothing if already stopped.
  public func stop() {
    loop.assertOnLoopThread()
    guard isRunning, let event else { return }
    _ = event_del(event)
    isRunning = false
    stoppedAfter = MonotonicClock.now() - startedAt
  }

  /// Time since the last `start()` on CLOCK_MONOTONIC (frozen when stopped).
  public var elapsed: Duration {
    isRunning ? MonotonicClock.now() - startedAt : stoppedAfter
  }

  private func arm(after delay: Duration) {
    guard let event else { return }
    var interval = timeval(delay)
    _ = event_add(event, &interval)
  }

  private func fire() {
    guard isRunning else { return }
    let elapsed = MonotonicClock.now() - startedAt
    // libevent rounds to microseconds and may wake a hair early: the grid never fires a point
    // twice.
    advance = grid.fire(after: elapsed)
    missedTicks += UInt64(advance - 1)
    ticks = UInt64(grid.point)
    arm(after: grid.nextDeadline - elapsed)
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
