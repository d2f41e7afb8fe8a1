import Glibc

/// Waits until `condition` holds, checking it every `interval`; false if it still does not
/// hold after `timeout`. For conditions nothing signals (another process's state, a file's
/// content, a reply to ask for); a value this process changes is a `Shared`, whose `wait` is
/// woken by the change itself.
func eventually(
  timeout: Duration = .seconds(10), interval: Duration = .milliseconds(10),
  _ condition: () throws -> Bool
) rethrows -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if try condition() { return true }
    usleep(UInt32(interval / .microseconds(1)))
  }
  return try condition()
}
