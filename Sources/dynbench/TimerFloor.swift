import Glibc

/// The frame-pacing floor: a thread that sleeps to absolute 60 Hz deadlines and notes how late it
/// wakes, run beside the `sessions` window. No server can deliver frames more punctually than
/// this machine wakes a sleeping thread, so its late fraction bounds what dynd can reach here.
final class TimerFloor: @unchecked Sendable {
  let period: UInt64
  let duration: UInt64
  let lateNanoseconds: UInt64
  private(set) var wakeups = 0
  private(set) var late = 0
  private(set) var worst: UInt64 = 0
  private var thread = pthread_t()

  /// Starts ticking at once, for `duration` ns.
  init(period: UInt64, duration: UInt64, lateNanoseconds: UInt64) {
    self.period = period
    self.duration = duration
    self.lateNanoseconds = lateNanoseconds
    let context = Unmanaged.passRetained(self).toOpaque()
    pthread_create(
      &thread, nil,
      { context in
        Unmanaged<TimerFloor>.fromOpaque(context!).takeRetainedValue().tick()
        return nil
      }, context)
  }

  /// Waits for the window to end; the counts are final afterwards.
  func join() { pthread_join(thread, nil) }

  var latePercent: Double { Double(late) / Double(max(1, wakeups)) * 100 }

  private func tick() {
    let start = monotonicNanoseconds()
    var deadline = start + period
    while deadline < start + duration {
      var ts = timespec(
        tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
      let delay = monotonicNanoseconds() - deadline
      wakeups += 1
      if delay > lateNanoseconds { late += 1 }
      worst = max(worst, delay)
      deadline += period
    }
  }
}
