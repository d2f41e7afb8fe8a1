import Glibc
import Synchronization

/// Threads that step sessions, so that no session's physics ever runs on the loop thread.
///
/// The loop hands a session's frames to `run` and carries on serving every other client; a
/// worker runs the job, which posts its result to the daemon's `LoopInbox`, whose handler runs
/// it on the loop thread. A session has at most one job at a time
/// (`Session.isBusy`), so its engine is only ever used by one thread at once, and no loop code
/// touches an engine while its job runs.
///
/// One pool serves the whole process (one thread per core): daemons embedded in tests share it,
/// each with its own inbox. Workers run at nice 10, so that on a busy machine the loop thread
/// (nice 0) is scheduled first: a client's round trip does not wait behind somebody's physics.
final class StepWorkers: @unchecked Sendable {
  /// The process's pool.
  static let shared = StepWorkers(threads: max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

  // Allocated, never inout-addressed properties: `&property` may pass a temporary copy.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Jobs waiting for a worker, oldest first (a ring: `head` is the next one).
  private var queue: [Job?] = []
  private var head = 0
  let threadCount: Int

  private struct Job {
    let work: () -> Void
  }

  private init(threads: Int) {
    threadCount = threads
    mutex.initialize(to: pthread_mutex_t())
    condition.initialize(to: pthread_cond_t())
    pthread_mutex_init(mutex, nil)
    pthread_cond_init(condition, nil)
    for _ in 0..<threads {
      let context = Unmanaged.passRetained(self).toOpaque()
      var thread = pthread_t()
      let rc = pthread_create(
        &thread, nil,
        { context in
          let pool = Unmanaged<StepWorkers>.fromOpaque(context!).takeRetainedValue()
          // Linux: who 0 is the calling thread (nice is per thread under NPTL).
          _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
          pool.runJobs()
          return nil
        }, context)
      guard rc == 0 else { fatalError("cannot start a step worker thread: error \(rc)") }
      pthread_detach(thread)
    }
  }

  /// Runs `work` on a worker thread; it posts its result to a `LoopInbox` itself.
  func run(_ work: @escaping () -> Void) {
    pthread_mutex_lock(mutex)
    queue.append(Job(work: work))
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  private func runJobs() {
    while true {
      pthread_mutex_lock(mutex)
      while head == queue.count { pthread_cond_wait(condition, mutex) }
      let job = queue[head]!
      queue[head] = nil
      head += 1
      if head == queue.count {
        queue.removeAll(keepingCapacity: true)
        head = 0
      } else if head >= 1024 {
        queue.removeFirst(head)
        head = 0
      }
      pthread_mutex_unlock(mutex)
      job.work()
    }
  }
}

/// Work posted from any thread, run on one loop's thread (see `StepWorkers`).
final class LoopInbox: Sendable {
  private let pending = Mutex<[UncheckedBox<() -> Void>]>([])
  private let trigger: Wakeup.Trigger
  private let jobs = Atomic<Int>(0)

  /// Jobs handed to the workers whose results the loop has not taken yet (`jobStarted`,
  /// `jobFinished`). A daemon torn down in-process (the fuzz harness) waits for 0, so that no
  /// result is left holding a session.
  var jobsInFlight: Int { jobs.load(ordering: .acquiring) }
  func jobStarted() { jobs.wrappingAdd(1, ordering: .relaxed) }
  func jobFinished() { jobs.wrappingSubtract(1, ordering: .releasing) }

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

/// Carries a value that is not `Sendable` to another thread. Only for values that one thread at
/// a time uses: a session's engine while its job runs, the job's result once it is done.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
