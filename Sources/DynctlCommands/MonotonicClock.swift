import Glibc

/// Sleeps until the monotonic clock reaches `deadline` (seconds).
func sleepUntil(_ deadline: Double) {
  while true {
    let left = deadline - monotonicSeconds()
    guard left > 0 else { return }
    var request = timespec(tv_sec: Int(left), tv_nsec: Int((left - Double(Int(left))) * 1e9))
    _ = nanosleep(&request, nil)
  }
}

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
