import SessionHost

/// A `HostEnvironment` where nothing happens until the caller says so, as swift-nio's
/// `EmbeddedEventLoop`: worker jobs and their results wait in queues until `runPending()`, and
/// timers fire only when `advance(by:)` moves the environment's clock past them. Everything
/// runs on the caller's thread, so a test or the fuzzer sees the same output on every run.
public final class EmbeddedEnvironment: HostEnvironment {
  private var jobs: [() -> Void] = []
  private var posted: [() -> Void] = []
  private var timers: [EmbeddedTimer] = []
  /// The environment's clock: time advanced since creation.
  public private(set) var now: Duration = .zero
  /// Peers whose output counts as backed up (a `step` for them waits), as if they had stopped
  /// reading.
  public var backedUp: Set<PeerID> = []

  public init() {}

  public var workerCount: Int { 1 }

  public func runOnWorker(_ work: @escaping () -> Void) { jobs.append(work) }

  public func post(_ body: @escaping () -> Void) { posted.append(body) }

  public func makeRepeatingTimer(period: Duration, _ fire: @escaping () -> Void)
    -> any HostTimer
  {
    let timer = EmbeddedTimer(environment: self, period: period, fire: fire)
    timers.append(timer)
    return timer
  }

  public func isBackedUp(_ peer: PeerID, beyond bytes: Int) -> Bool { backedUp.contains(peer) }

  /// Whether a job or a result is waiting.
  public var hasPending: Bool { !jobs.isEmpty || !posted.isEmpty }

  /// Runs the waiting jobs and what they post, until none is left (including work they start).
  public func runPending() {
    while hasPending {
      if !jobs.isEmpty {
        jobs.removeFirst()()
      } else {
        posted.removeFirst()()
      }
    }
  }

  /// Moves the clock on by `duration`, firing each started timer whenever a period of it ends
  /// (the jobs a tick starts run before the next tick); timers fire in the order they were made.
  public func advance(by duration: Duration) {
    let end = now + duration
    while true {
      let due = timers.filter(\.isStarted).min { $0.nextFire < $1.nextFire }
      guard let timer = due, timer.nextFire <= end else { break }
      now = timer.nextFire
      timer.nextFire += timer.period
      timer.fire()
      runPending()
    }
    now = end
  }
}

/// A timer of an `EmbeddedEnvironment`.
final class EmbeddedTimer: HostTimer {
  unowned let environment: EmbeddedEnvironment
  let period: Duration
  let fire: () -> Void
  var isStarted = false
  var nextFire: Duration = .zero

  init(environment: EmbeddedEnvironment, period: Duration, fire: @escaping () -> Void) {
    self.environment = environment
    self.period = period
    self.fire = fire
  }

  func start() {
    guard !isStarted else { return }
    isStarted = true
    nextFire = environment.now + period
  }

  func stop() { isStarted = false }
}
