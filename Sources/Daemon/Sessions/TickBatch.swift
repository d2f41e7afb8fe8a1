import Synchronization

/// A realtime session's frame for one tick, computed on a worker (see `Session.beginTick`).
struct TickWork: @unchecked Sendable {
  let session: Session
  let debug: Bool

  /// On the worker.
  func compute() -> [FrameResult] {
    session.computeFrames(1, dt: 1 / session.fps, debug: debug, timeLimit: nil)
  }

  /// On the loop: sends the frame; a session that came to rest leaves its clock.
  func finish(_ results: [FrameResult]) {
    session.finishJob(results, requester: nil) { [session] _ in
      if !session.published.running { session.frameClock?.remove(session) }
    }
  }
}

/// The frames of one tick of a frame clock, shared out among the workers.
///
/// One job per worker instead of one per session: each worker claims the next session of the
/// tick until none is left, so a heavy session holds up only its own worker, and hands its
/// finished frames to the loop every 2 ms and when done. A tick of 500 light sessions costs a
/// few hand-offs instead of 500.
final class TickBatch: Sendable {
  private let work: [TickWork]
  private let next = Atomic<Int>(0)

  private init(_ work: [TickWork]) { self.work = work }

  /// Starts computing `work` on the workers; results go to `inbox`.
  static func run(_ work: [TickWork], inbox: LoopInbox) {
    guard !work.isEmpty else { return }
    let batch = TickBatch(work)
    for _ in 0..<min(StepWorkers.shared.threadCount, work.count) {
      StepWorkers.shared.run { batch.drain(into: inbox) }
    }
  }

  /// Interval after which a worker hands over what it has finished.
  private static let handOver = Duration.milliseconds(2)

  private func drain(into inbox: LoopInbox) {
    var done: [(TickWork, [FrameResult])] = []
    var lastHandOver = ContinuousClock.now
    while true {
      let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard index < work.count else { break }
      done.append((work[index], work[index].compute()))
      if lastHandOver.duration(to: .now) > Self.handOver {
        hand(done, to: inbox)
        done = []
        lastHandOver = .now
      }
    }
    hand(done, to: inbox)
  }

  private func hand(_ done: [(TickWork, [FrameResult])], to inbox: LoopInbox) {
    guard !done.isEmpty else { return }
    let box = UncheckedBox(done)
    inbox.post {
      for (work, results) in box.value { work.finish(results) }
    }
  }
}
