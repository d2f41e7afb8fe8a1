import Dynamics
import Transitions
import Wire

/// One frame as a worker computed it, for the host's thread to publish. It refers to the
/// session's items (in its contact events); it goes from the worker to the host's thread once,
/// and only one of them holds it at a time.
struct FrameResult: @unchecked Sendable {
  /// Internal steps taken; 0 when the animator was at rest (nothing moved, no frame is sent).
  var taken: Int
  /// What the animator reported during the steps (contacts, pause, resume), in order.
  var events: [Session.StepEvent]
  var state: Session.Published
  /// What the transition reported after the steps (handoff, done).
  var transitionEvents: [TransitionEvent]
  /// The debug geometry, when a client asked for it.
  var debug: DebugGeometry?
  /// Pairs the contact limit has refused so far.
  var refusedContacts: Int64
  /// What the scene's action rules emitted during the steps, in order.
  var actions: [EmittedAction] = []
}

/// How a session's frames are computed on a worker and published on the host's thread.
extension Session {
  /// Loop work allowed for one batch of a manual step: frames × items at most this many item
  /// states (encoding them costs about 2 ms).
  static let itemStatesPerBatch = 16_384
  /// Worker time after which a batch of a manual step ends, so other requests on the session
  /// are served between batches.
  static let batchTime = Duration.milliseconds(4)

  // MARK: realtime

  /// Periods of its clock a realtime frame advances at most: a session owed more (its clock
  /// stalled, or its frames take longer than that) moves in slow motion, as an app's animation
  /// does when its display link is starved, rather than jumping ahead. At 60 fps 66.7 ms, near
  /// Rebound's 64 ms `MAX_DELTA_TIME_SEC`.
  static let maxPeriodsPerFrame = 4

  /// One realtime tick of the frame clock, covering `periods` periods of its grid (1 when on
  /// time). Returns nil when the session skips it because its last frame is still being computed
  /// (then it is slow, and its watchers are told once, with `slow`); the periods stay owed.
  /// Otherwise the session is busy from now on and the result is the work that computes its
  /// frame on a worker (`TickBatch`), advancing by the periods owed (at most
  /// `maxPeriodsPerFrame`) over `fps`: the animation keeps the wall clock's pace.
  func beginTick(periods: Int) -> TickWork? {
    guard !isClosed else { return nil }
    owedPeriods += periods
    guard !isBusy else {
      onTimeTicks = 0
      if !isSlow {
        isSlow = true
        let cost = jobStarted.duration(to: .now)
        host.outbox.event(
          .slow(
            session: name, t: published.t, frameMilliseconds: fractionalMilliseconds(cost),
            budgetMilliseconds: 1000 / fps),
          to: recipients())
      }
      return nil
    }
    if isSlow {
      onTimeTicks += 1
      if onTimeTicks >= max(1, Int(fps)) {
        isSlow = false
        host.outbox.event(.onTime(session: name, t: published.t), to: recipients())
      }
    }
    let advance = min(owedPeriods, Self.maxPeriodsPerFrame)
    missedTicks += owedPeriods - 1
    owedPeriods = 0
    isBusy = true
    jobStarted = .now
    host.jobStarted()
    return TickWork(session: self, debug: !debugWatchers.isEmpty, dt: Double(advance) / fps)
  }

  // MARK: manual steps

  /// Computes up to `frames` frames of `dt` for `requester`'s `step` (it gets them whether it
  /// watches or not, never coalesced), in one batch bounded by `batchTime` and
  /// `itemStatesPerBatch`; then `completion` gets how many were done. Call when not busy.
  func runFrames(
    _ frames: Int, dt: Double, requester: Peer, completion: @escaping (Int) -> Void
  ) {
    let itemCount = max(1, published.states.count)
    let batch = max(1, min(frames, Self.itemStatesPerBatch / itemCount))
    startJob(frames: batch, dt: dt, requester: requester, completion: completion)
  }

  // MARK: jobs

  /// Hands the engine to a worker for up to `frames` frames, publishes them when they come
  /// back, then runs `completion` with the count and whatever waited for the session.
  private func startJob(
    frames: Int, dt: Double, requester: Peer?, completion: @escaping (Int) -> Void
  ) {
    precondition(!isBusy && !isClosed, "a session runs one job at a time")
    isBusy = true
    jobStarted = .now
    host.jobStarted()
    let wantsDebug = !debugWatchers.isEmpty
    let timeLimit = requester == nil ? nil : Self.batchTime
    let engine = UncheckedBox(self)
    let environment = host.environment
    environment.runOnWorker {
      let results = UncheckedBox(
        engine.value.computeFrames(frames, dt: dt, debug: wantsDebug, timeLimit: timeLimit))
      environment.post {
        let session = engine.value
        session.finishJob(results.value, requester: requester, completion)
        session.host.deliver()
      }
    }
  }

  /// On the host's thread, when the worker is done: publishes the frames (unless the session was
  /// closed meanwhile), then lets what waited run.
  func finishJob(
    _ results: some Collection<FrameResult>, requester: Peer?, _ completion: (Int) -> Void
  ) {
    isBusy = false
    host.jobFinished()
    if isClosed {
      animator.delegate = nil
    } else {
      for result in results { publish(result, requester: requester) }
    }
    completion(results.count)
    runIdleWaiters()
  }

  /// On the worker: steps the engine frame by frame.
  func computeFrames(_ frames: Int, dt: Double, debug: Bool, timeLimit: Duration?)
    -> [FrameResult]
  {
    let start = ContinuousClock.now
    var results: [FrameResult] = []
    results.reserveCapacity(frames)
    for _ in 0..<frames {
      results.append(computeFrame(dt: dt, debug: debug))
      if let timeLimit, start.duration(to: .now) > timeLimit { break }
    }
    return results
  }

  /// On the worker: one frame of `dt` (a realtime tick's, or one of a step's).
  func computeFrame(dt: Double, debug: Bool) -> FrameResult {
    stepping = true
    let taken = animator.step(dt)
    var transitionEvents: [TransitionEvent] = []
    var actions: [EmittedAction] = []
    switch content {
    case .transition(let t): transitionEvents = t.afterStep()
    case .scene(let scene): actions = scene.takeActionEvents()
    }
    stepping = false
    let events = stepEvents
    stepEvents = []
    var state = published
    state.running = animator.isRunning
    state.t = animator.elapsedTime
    if taken > 0 {
      state.states = states()
      state.values = values
    }
    return FrameResult(
      taken: taken, events: events, state: state, transitionEvents: transitionEvents,
      debug: debug && taken > 0 ? debugGeometry : nil,
      refusedContacts: animator.refusedContactCount, actions: actions)
  }

  // MARK: publishing, on the host's thread

  /// Sends one computed frame to its recipients: contacts, the frame (and debug geometry),
  /// pause/resume, what the transition reported. Frames and contacts may be coalesced for a slow
  /// watcher, never for the requester of a `step`.
  private func publish(_ result: FrameResult, requester: Peer?) {
    let outbox = host.outbox
    let always = recipients(adding: requester)
    var streamed = streamRecipients
    if let requester {
      streamed = always
      for index in streamed.indices where streamed[index].peer != requester.id {
        streamed[index].delivery = .coalescible
      }
    }
    for event in result.events {
      guard case .contact(let contact) = event else { continue }
      outbox.event(.contact(Contact(contact, session: name)), to: streamed)
    }
    published = result.state
    if result.taken > 0 {
      seq += 1
      outbox.event(
        .frame(
          Frame(
            session: name, seq: seq, t: published.t, items: published.states,
            values: published.values)),
        to: streamed)
      if let geometry = result.debug {
        let debugRecipients = streamed.filter { r in
          debugWatchers.contains { $0.id == r.peer }
        }.map { Outgoing.Recipient($0.peer, .withFrame) }
        outbox.event(
          .debug(session: name, seq: seq, t: published.t, geometry: geometry),
          to: debugRecipients)
      }
    }
    for event in result.events {
      switch event {
      case .contact: break
      case .pause(let t): outbox.event(.pause(session: name, t: t), to: always)
      case .resume(let t):
        frameClock?.add(self)
        outbox.event(.resume(session: name, t: t), to: always)
      }
    }
    for action in result.actions {
      outbox.event(
        .action(
          ActionEvent(
            session: name, seq: seq, t: action.t, behavior: action.behavior, name: action.name,
            item: action.item)),
        to: always)
    }
    for event in result.transitionEvents { outbox.event(self.event(event), to: always) }
    if result.refusedContacts > 0, !contactLimitReported {
      contactLimitReported = true
      outbox.event(
        .contactLimit(session: name, t: published.t, limit: Limits.maxContactsPerSession),
        to: always)
    }
  }
}

private func fractionalMilliseconds(_ d: Duration) -> Double {
  let (seconds, attoseconds) = d.components
  return Double(seconds) * 1000 + Double(attoseconds) * 1e-15
}
