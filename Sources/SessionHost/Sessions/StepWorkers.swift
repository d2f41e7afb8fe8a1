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
  /// Jobs waiting for a worker, by priority: every `due` job is taken before any `continuing`
  /// one; within a priority, oldest first.
  private var queues = [JobQueue(), JobQueue()]
  public let threadCount: Int
  /// The longest `continuing` work waits behind `due` work before it is taken first.
  static let maxContinuingWait = Duration.milliseconds(8)

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

  /// Runs `work` on a worker thread, after every job queued before it at its priority and
  /// every `due` job; it posts its result back itself.
  public func run(_ priority: WorkPriority = .due, _ work: @escaping () -> Void) {
    pthread_mutex_lock(mutex)
    queues[priority.rawValue].push(work)
    pthread_cond_signal(condition)
    pthread_mutex_unlock(mutex)
  }

  private func runJobs() {
    while true {
      pthread_mutex_lock(mutex)
      var job: (() -> Void)?
      while true {
        // Continuing work that has waited `maxContinuingWait` goes first: on a machine whose
        // due work never ends (a thousand realtime sessions over its capacity), a frame cut in
        // two would otherwise wait for ever, its session skipping every tick meanwhile.
        if queues[1].oldestWait > Self.maxContinuingWait { job = queues[1].pop() }
        job = job ?? queues[0].pop() ?? queues[1].pop()
        if job != nil { break }
        pthread_cond_wait(condition, mutex)
      }
      pthread_mutex_unlock(mutex)
      job!()
    }
  }
}

/// Which jobs a worker takes first.
public enum WorkPriority: Int, Sendable {
  /// Work that is due now: a realtime tick's frames, a request's first batch.
  case due = 0
  /// The rest of work that already had a slice (a long frame, a step's later batches): it waits
  /// behind due jobs, so a heavy session delays a light one by one slice at most, but never
  /// longer than `StepWorkers.maxContinuingWait` (then it goes first).
  case continuing = 1
}

/// A first-in, first-out ring of jobs, each with when it was queued.
private struct JobQueue {
  private var jobs: [(work: () -> Void, queued: ContinuousClock.Instant)?] = []
  private var head = 0

  mutating func push(_ job: @escaping () -> Void) { jobs.append((job, .now)) }

  /// How long the oldest job has waited (zero when there is none).
  var oldestWait: Duration {
    guard head < jobs.count, let oldest = jobs[head] else { return .zero }
    return oldest.queued.duration(to: .now)
  }

  mutating func pop() -> (() -> Void)? {
    guard head < jobs.count else { return nil }
    let job = jobs[head]?.work
    jobs[head] = nil
    head += 1
    if head == jobs.count {
      jobs.removeAll(keepingCapacity: true)
      head = 0
    } else if head >= 1024 {
      jobs.removeFirst(head)
      head = 0
    }
    return job
  }
}

/// Carries a value that is not `Sendable` to another thread. Only for values that one thread at
/// a time uses: a session's engine while its job runs, the job's result once it is done.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
