/// Where sessions' frames are computed, and when they are published: the host hands a session's
/// job to a worker (or, when it is cheap, runs it at once on its own thread), publishes what
/// comes back, and decides what runs next. A session only computes and publishes frames into
/// the outbox it is given (`SessionFrames.swift`); it never schedules work or sends.
extension SessionHost {
  /// A tick of a frame clock: `periods` of its grid passed for `sessions`. Each due session's
  /// frame goes to the workers as one `TickBatch`; `slow` and `on_time` go out at once.
  func tick(_ periods: Int, _ sessions: [Session]) {
    var work: [TickWork] = []
    work.reserveCapacity(sessions.count)
    for session in sessions {
      guard let due = session.beginTick(periods: periods, into: outbox) else { continue }
      jobStarted()
      work.append(due)
    }
    // Work in flight keeps the host (a test's embedded host may be let go meanwhile).
    TickBatch.run(work, on: environment) { work, finished in
      for index in finished { self.finishSlice(work[index].session, work[index].job) }
      self.deliver()
    }
    deliver()
  }

  /// Computes up to `frames` frames of `dt` of `session` for `requester`'s `step`
  /// (`Session.frameJob`); `completion` gets how many were done. The first batch of a step is
  /// `due` work, its later ones `continuing`. A batch whose cost fits the
  /// environment's `inlineWorkBudget` (`Session.fits`: the larger of the scene's worst case and
  /// the measured cost of its steps) runs at once on the host's thread (never one started from
  /// inside another: a long step would nest them).
  func runFrames(
    of session: Session, _ frames: Int, dt: Double, requester: Peer, priority: WorkPriority,
    completion: @escaping (Int) -> Void
  ) {
    let job = session.frameJob(frames, dt: dt, requester: requester, completion: completion)
    jobStarted()
    let budget = environment.inlineWorkBudget
    guard inlineDepth == 0, session.fits(job, in: budget) else {
      return runSlice(of: session, job, priority)
    }
    inlineDepth += 1
    defer { inlineDepth -= 1 }
    session.computeSlice(job, for: budget)
    finishSlice(session, job)
  }

  /// Computes the next slice of `job` on a worker; its frames are published when it is back.
  private func runSlice(of session: Session, _ job: FrameJob, _ priority: WorkPriority) {
    let environment = self.environment
    environment.runOnWorker(priority) {
      session.computeSlice(job, for: session.sliceDuration)
      environment.post {
        self.finishSlice(session, job)
        self.deliver()
      }
    }
  }

  /// On the host's thread, after a slice of `job`: publishes its frames, then queues the next
  /// slice behind other sessions' due work if a frame is half done, or ends the job (and puts
  /// the session on its frame clock or takes it off, as its animator runs or rests).
  func finishSlice(_ session: Session, _ job: FrameJob) {
    if session.sliceFinished(job, into: outbox) {
      return runSlice(of: session, job, .continuing)
    }
    jobFinished()
    session.endJob(job)
    if let clock = session.frameClock {
      if session.wantsTicks { clock.add(session) } else { clock.remove(session) }
    }
  }
}
