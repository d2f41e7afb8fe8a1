import Glibc
import Synchronization

/// A realtime session's frame for one tick, computed on a worker (see `Session.beginTick`).
struct TickWork: @unchecked Sendable {
  let session: Session
  let job: FrameJob

  /// On the worker: the frame's first slice (nothing finished when the frame is cut, to be
  /// finished by slices of its own).
  func compute() { session.computeSlice(job, for: session.sliceDuration) }
}

/// The frames of one tick of a frame clock, shared out among the workers.
///
/// One job per worker instead of one per session: each worker claims the next session of the
/// tick until none is left, so a heavy session holds up only its own worker. Finished frames
/// are handed to the host's thread together: once when the whole tick is done, so that each
/// peer gets all its frames of the tick in one write, published in the clock's order of the
/// sessions whichever worker computed them; and, if the tick takes longer than
/// `handOverInterval`, whatever is finished every `handOverInterval`, so that one heavy session
/// does not delay the frames of the others by more than that. A session's own frames never depend on the workers.
///
/// A worker that finds nothing left to claim sleeps on a condition until the last worker is done
/// or `handOverInterval` has passed, whichever is first (it used to poll every 50 µs).
final class TickBatch: @unchecked Sendable {
  private let work: [TickWork]
  private let next = Atomic<Int>(0)
  // `finished` is guarded by `lock`; `allFinished` is signalled when `workersLeft` reaches 0.
  // Allocated, never inout-addressed properties: `&property` may pass a temporary copy.
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let allFinished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  private var finished: Finished
  private let environment: any HostEnvironment
  /// Runs on the host's thread with the tick's work and the places in it of finished work, in
  /// the tick's order (the host publishes it).
  private let handOver: UncheckedBox<([TickWork], [Int]) -> Void>
  /// `handOverInterval` after the tick handed its work out, on the monotonic clock the condition waits
  /// by: computed once per tick, in plain integers.
  private let handOverDeadline: timespec

  private struct Finished {
    /// Places in the tick of the sessions whose slice is computed and not handed over yet.
    var results: [Int] = []
    var workersLeft: Int
  }

  /// Interval after which a worker hands over its finished frames while the tick still runs.
  private static let handOverInterval = Duration.milliseconds(2)
  private static let handOverNanoseconds = Int(
    handOverInterval.components.seconds * 1_000_000_000
      + handOverInterval.components.attoseconds / 1_000_000_000)

  private init(
    _ work: [TickWork], workers: Int, environment: any HostEnvironment,
    handOver: @escaping ([TickWork], [Int]) -> Void
  ) {
    self.work = work
    self.environment = environment
    self.handOver = UncheckedBox(handOver)
    finished = Finished(workersLeft: workers)
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nanoseconds = now.tv_nsec + Self.handOverNanoseconds
    handOverDeadline = timespec(
      tv_sec: now.tv_sec + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    lock.initialize(to: pthread_mutex_t())
    pthread_mutex_init(lock, nil)
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    allFinished.initialize(to: pthread_cond_t())
    pthread_cond_init(allFinished, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(allFinished)
    pthread_mutex_destroy(lock)
    allFinished.deallocate()
    lock.deallocate()
  }

  private func locked<Result>(_ body: (inout Finished) -> Result) -> Result {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return body(&finished)
  }

  /// Starts computing `work` on the environment's workers; `handOver` gets the finished work on
  /// the host's thread, in the tick's order, as described above.
  static func run(
    _ work: [TickWork], on environment: any HostEnvironment,
    handOver: @escaping (_ work: [TickWork], _ finished: [Int]) -> Void
  ) {
    guard !work.isEmpty else { return }
    let workers = min(environment.workerCount, work.count)
    let batch = TickBatch(work, workers: workers, environment: environment, handOver: handOver)
    for _ in 0..<workers {
      environment.runOnWorker(.due) { batch.drain() }
    }
  }

  private func drain() {
    // Collected without a lock; merged once per worker (or handed over every `handOverInterval`).
    var mine: [Int] = []
    var lastHandOver = ContinuousClock.now
    while true {
      let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard index < work.count else { break }
      work[index].compute()
      mine.append(index)
      if lastHandOver.duration(to: .now) > Self.handOverInterval {
        hand(mine)
        mine = []
        lastHandOver = .now
      }
    }
    // The last worker to finish hands over what the others left, with its own.
    let isLast = locked { finished -> Bool in
      finished.results += mine
      finished.workersLeft -= 1
      if finished.workersLeft == 0 { pthread_cond_broadcast(allFinished) }
      return finished.workersLeft == 0
    }
    if isLast { return handOverFinished() }
    // Nothing is left to claim; the other workers are computing their last sessions. Wait for
    // them until `handOverInterval` after the tick began; a heavy session still running then holds up
    // only its own frame: what is finished goes now, and it follows when it is done.
    if waitForAllWorkers(until: handOverDeadline) { return }
    handOverFinished()
  }

  /// Sleeps until every worker is done (true) or `deadline` has passed (false).
  private func waitForAllWorkers(until deadline: timespec) -> Bool {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    var deadline = deadline
    while finished.workersLeft > 0 {
      if pthread_cond_timedwait(allFinished, lock, &deadline) == ETIMEDOUT {
        return finished.workersLeft == 0
      }
    }
    return true
  }

  /// Hands over every finished frame not handed over yet, in the clock's order.
  private func handOverFinished() {
    let finished = locked { finished -> [Int] in
      defer { finished.results = [] }
      return finished.results
    }
    hand(finished.sorted())
  }

  private func hand(_ finished: [Int]) {
    guard !finished.isEmpty else { return }
    let box = UncheckedBox(finished)
    let (work, handOver) = (self.work, self.handOver)
    environment.post { handOver.value(work, box.value) }
  }
}
