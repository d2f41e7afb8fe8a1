import Glibc
import Primitives
import SessionHost

/// A `HostEnvironment` where nothing happens until the caller says so, as swift-nio's
/// `EmbeddedEventLoop`: worker jobs and their results wait in queues until `runPending()`, and
/// timers fire only when `advance(by:)` moves the environment's clock past them. Everything
/// runs on the caller's thread, so a test or the fuzzer sees the same output on every run.
///
/// Made with `workers:`, jobs run on those real threads instead (a realtime tick shared among
/// them as in the daemon), and `runPending()` waits for their results: for checking that what
/// a session computes does not depend on the threads that computed it.
public final class EmbeddedEnvironment: HostEnvironment {
  /// Jobs waiting for `runPending()`: every due one runs before any continuing one.
  private var dueJobs: [() -> Void] = []
  private var continuingJobs: [() -> Void] = []
  private var posted: [() -> Void] = []
  private let workers: StepWorkers?
  /// With `workers`: jobs started and results posted, from any thread.
  private let threaded = Threaded()

  /// Guarded by a pthread mutex rather than `Mutex`, whose `sending` rules refuse closures.
  private final class Threaded: @unchecked Sendable {
    struct State {
      var jobsInFlight = 0
      var posted: [() -> Void] = []
    }
    private var state = State()
    // Allocated: `&property` may pass a temporary copy.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    init() {
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }
    func withLock<R>(_ body: (inout State) -> R) -> R {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return body(&state)
    }
  }
  private var timers: [EmbeddedTimer] = []
  /// The environment's clock: time advanced since creation.
  public private(set) var now: Duration = .zero
  /// Peers whose output counts as backed up (a `step` for them waits), as if they had stopped
  /// reading.
  public var backedUp: Set<PeerID> = []

  /// Jobs run on the caller's thread in `runPending()`, or on `workers` when given.
  public init(workers: StepWorkers? = nil) {
    self.workers = workers
  }

  public var workerCount: Int { workers?.threadCount ?? 1 }

  public func runOnWorker(_ priority: WorkPriority, _ work: @escaping () -> Void) {
    guard let workers else {
      return priority == .due ? dueJobs.append(work) : continuingJobs.append(work)
    }
    threaded.withLock { $0.jobsInFlight += 1 }
    let job = UncheckedSendable(work)
    workers.run(priority) { [threaded] in
      job.value()
      threaded.withLock { $0.jobsInFlight -= 1 }
    }
  }

  public func post(_ body: @escaping () -> Void) {
    guard workers != nil else { return posted.append(body) }
    let body = UncheckedSendable(body)
    threaded.withLock { $0.posted.append(body.value) }
  }

  public func makeRepeatingTimer(period: Duration, _ fire: @escaping (Int) -> Void)
    -> any HostTimer
  {
    let timer = EmbeddedTimer(environment: self, period: period, fire: fire)
    timers.append(timer)
    return timer
  }

  public func isBackedUp(_ peer: PeerID, beyond bytes: Int) -> Bool { backedUp.contains(peer) }

  /// Zero unless a test sets it: then a session's cheap manual steps run in `apply` itself, as
  /// in the daemon.
  public var inlineWorkBudget: Duration = .zero

  /// Whether a job or a result is waiting (or, with `workers`, a job is running).
  public var hasPending: Bool {
    !dueJobs.isEmpty || !continuingJobs.isEmpty || !posted.isEmpty
      || threaded.withLock { $0.jobsInFlight > 0 || !$0.posted.isEmpty }
  }

  /// Runs the waiting jobs and what they post, until none is left (including work they start).
  /// With `workers`, waits for the jobs running on them and runs what they post.
  public func runPending() {
    while hasPending {
      if workers != nil {
        let arrived = threaded.withLock { state -> [() -> Void] in
          defer { state.posted = [] }
          return state.posted
        }
        if arrived.isEmpty { usleep(50) }
        for body in arrived { body() }
        continue
      }
      runNext()
    }
  }

  /// Jobs run so far (without `workers`).
  public private(set) var jobsRun = 0

  /// Without `workers`: runs the next thing waiting, if any: a due job, else a posted result,
  /// else a continuing job (the order of a busy pool: results come back while later work waits).
  public func runNext() {
    if !dueJobs.isEmpty {
      jobsRun += 1
      dueJobs.removeFirst()()
    } else if !posted.isEmpty {
      posted.removeFirst()()
    } else if !continuingJobs.isEmpty {
      jobsRun += 1
      continuingJobs.removeFirst()()
    }
  }

  /// Moves the clock on by `duration`, firing each started timer whenever a period of it ends
  /// (the jobs a tick starts run before the next tick); timers fire in the order they were made.
  /// A timer that came due during `skip(_:)` fires once, first, covering every period that
  /// passed.
  public func advance(by duration: Duration) {
    let end = now + duration
    while true {
      let due = timers.filter(\.isStarted).min { $0.nextFire < $1.nextFire }
      guard let timer = due, timer.nextFire <= end else { break }
      now = max(now, timer.nextFire)
      timer.fire(at: now)
      runPending()
    }
    now = end
  }

  /// Moves the clock on by `duration` without firing anything, as a host thread that was busy
  /// all that time: the next `advance(by:)` fires each timer that came due once, late.
  public func skip(_ duration: Duration) {
    now += duration
  }
}

/// A timer of an `EmbeddedEnvironment`, on a grid of absolute deadlines from its `start()`.
final class EmbeddedTimer: HostTimer {
  unowned let environment: EmbeddedEnvironment
  let period: Duration
  let fire: (Int) -> Void
  var isStarted = false
  private var origin: Duration = .zero
  private var grid: TickGrid
  var nextFire: Duration = .zero

  init(environment: EmbeddedEnvironment, period: Duration, fire: @escaping (Int) -> Void) {
    self.environment = environment
    self.period = period
    self.fire = fire
    grid = TickGrid(period: period)
  }

  func start() {
    guard !isStarted else { return }
    isStarted = true
    origin = environment.now
    grid = TickGrid(period: period)
    nextFire = origin + grid.nextDeadline
  }

  func stop() { isStarted = false }

  /// Fires for the latest grid point at or before `time`, with the periods since the last one.
  func fire(at time: Duration) {
    let periods = grid.fire(after: time - origin)
    nextFire = origin + grid.nextDeadline
    fire(periods)
  }
}

/// Carries a closure to or from a worker thread; the environment runs each exactly once.
private struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
