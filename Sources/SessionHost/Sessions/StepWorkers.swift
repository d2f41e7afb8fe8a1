import Glibc
import Synchronization

/// Threads that step sessions, so that no session's physics ever runs on the host's thread.
///
/// The host hands a session's frames to `run` (through its `HostEnvironment`) and carries on
/// serving every other client; a worker runs the job, which posts its result back to the host's
/// thread. A session has at most one job at a time
/// (`Session.isBusy`), so its engine is only ever used by one thread at once, and no host code
/// touches an engine while its job runs.
///
/// `shared` (one thread per core) serves daemons embedded in tests, each with its own
/// environment; dynd makes its own pool when `--workers` says how many threads. A pool's threads
/// live as long as the process. Workers run at nice 10, so that on a busy machine the host thread
/// (nice 0) is scheduled first: a client's round trip does not wait behind somebody's physics.
public final class StepWorkers: @unchecked Sendable {
  /// The process's pool.
  public static let shared = StepWorkers(threads: max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

  // Allocated, never inout-addressed properties: `&property` may pass a temporary copy.
  private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  /// Jobs waiting for a worker, oldest first (a ring: `head` is the next one).
  private var queue: [Job?] = []
  private var head = 0
  public let threadCount: Int

  private struct Job {
    let work: () -> Void
  }

  /// Starts `threads` worker threads (at least 1).
  public init(threads: Int) {
    let threads = max(1, threads)
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

  /// Runs `work` on a worker thread; it posts its result back itself.
  public func run(_ work: @escaping () -> Void) {
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

/// Carries a value that is not `Sendable` to another thread. Only for values that one thread at
/// a time uses: a session's engine while its job runs, the job's result once it is done.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
