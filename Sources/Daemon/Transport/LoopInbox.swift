import Synchronization

/// Work posted from any thread, run on one loop's thread (what workers send back).
final class LoopInbox: Sendable {
  private let pending = Mutex<[UncheckedBox<() -> Void>]>([])
  private let trigger: Wakeup.Trigger

  /// `wakeup`'s handler must call `runPending()`.
  init(trigger: Wakeup.Trigger) {
    self.trigger = trigger
  }

  /// Queues `work` for the loop thread; wakes the loop if nothing was queued.
  func post(_ work: @escaping () -> Void) {
    let wasEmpty = pending.withLock { queue in
      queue.append(UncheckedBox(work))
      return queue.count == 1
    }
    if wasEmpty { trigger.fire() }
  }

  /// Runs what was posted, in order; call on the loop thread.
  func runPending() {
    let work = pending.withLock { queue in
      defer { queue = [] }
      return queue
    }
    for item in work { item.value() }
  }
}

/// Carries a value that is not `Sendable` to the loop's thread; only for values that one thread
/// at a time uses.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
