import SessionHost

/// The session host's surroundings in the daemon: physics on a `StepWorkers` pool,
/// results back through the loop's inbox, libevent timers, and each connection's queued output.
final class LoopEnvironment: HostEnvironment {
  private let loop: EventLoop
  private let inbox: LoopInbox
  /// The connection of a peer, for `isBackedUp`.
  var client: (PeerID) -> Client? = { _ in nil }

  private let workers: StepWorkers

  init(loop: EventLoop, inbox: LoopInbox, workers: StepWorkers) {
    self.loop = loop
    self.inbox = inbox
    self.workers = workers
  }

  /// Where the host's time counts from.
  private let epoch = ContinuousClock.now

  var now: Duration { epoch.duration(to: .now) }

  var workerCount: Int { workers.threadCount }

  func runOnWorker(_ priority: WorkPriority, _ work: @escaping () -> Void) {
    workers.run(priority, work)
  }

  /// A manual step whose frames are measured to cost at most this runs on the loop.
  let inlineWorkBudget = Duration.microseconds(200)

  func post(_ body: @escaping () -> Void) { inbox.post(body) }

  func makeRepeatingTimer(period: Duration, _ fire: @escaping (Int) -> Void) -> any HostTimer {
    RepeatingTimer(loop: loop, period: period) { timer in fire(timer.advance) }
  }

  func isBackedUp(_ peer: PeerID, beyond bytes: Int) -> Bool {
    client(peer)?.isBackedUp(beyond: bytes) ?? false
  }
}

extension RepeatingTimer: HostTimer {}
