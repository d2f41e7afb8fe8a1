import Dynamics
import Transitions
import Wire

/// One frame as a worker computed it, for the host's thread to publish. It refers to the
/// session's items (in its contact events); it goes from the worker to the host's thread once,
/// and only one of them holds it at a time.
struct FrameResult: @unchecked Sendable {
  /// Whether the animator ran during the frame: its time advanced (at rest nothing moves, and
  /// no frame is sent). A frame shorter than an internal step may take none and still advance.
  var advanced: Bool
  /// What the animator reported during the steps (contacts, pause, resume), in order.
  var events: [Session.StepEvent]
  var state: Session.Published
  /// What the transition reported after the steps (handoff, done).
  var transitionEvents: [TransitionEvent]
  /// The debug geometry, when a client asked for it.
  var debug: DebugGeometry?
  /// Pairs the contact limit has refused, and shapes the pair search bound has kept waiting,
  /// so far: overlapping pairs that passed through each other (`contact_limit`).
  var refusedContacts: Int64
  /// What the scene's action rules emitted during the steps, in order.
  var actions: [EmittedAction] = []
  /// Contact events of the frame beyond `Limits.maxContactEventsPerFrame`, left out.
  var droppedContacts = 0
}

/// Frames a session computes for one realtime tick or one batch of a manual `step`, in slices
/// of at most the host's `Configuration.sliceTime` of worker time each, cut at internal-step
/// granularity (`DynamicAnimator.beginStep`/`continueStep`): however large `dt` is and however
/// costly a step, a slice ends within one internal step of its deadline, and the rest waits
/// behind other sessions' due work, for at most `StepWorkers.maxContinuingWait`
/// (`WorkPriority.continuing`). The session is busy from the first slice to the last, so a
/// frame is never seen, nor changed by a request, half done.
final class FrameJob {
  /// Frames still to finish (the one in progress included).
  var frames: Int
  private(set) var dt: Double
  /// The `step`'s requester (its frames are never coalesced); nil for a realtime tick.
  let requester: Peer?
  private(set) var debug: Bool
  /// Frames finished so far.
  var done = 0
  /// Frames the last slice finished, for the host's thread to publish (written on the worker,
  /// read after the slice is posted back; its storage is kept from one slice to the next).
  var finished: [FrameResult] = []
  /// Runs on the host's thread once the job is over (finished, or its session closed).
  let completion: (Int) -> Void

  init(frames: Int, dt: Double, requester: Peer?, debug: Bool, completion: @escaping (Int) -> Void)
  {
    self.frames = frames
    self.dt = dt
    self.requester = requester
    self.debug = debug
    self.completion = completion
  }

  /// Readies a realtime session's tick job for its next tick (see `Session.tickJob`).
  func restart(dt: Double, debug: Bool) {
    frames = 1
    done = 0
    self.dt = dt
    self.debug = debug
  }
}

/// How a session's frames are computed on a worker and published on the host's thread.
extension Session {
  /// Loop work allowed for one batch of a manual step: frames × items at most this many item
  /// states (encoding them costs about 2 ms).
  static let itemStatesPerBatch = 16_384

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
  /// `maxPeriodsPerFrame`) over `fps`: the animation keeps the wall clock's pace. `slow` and
  /// `on_time` go into `outbox`.
  func beginTick(periods: Int, into outbox: Outbox) -> TickWork? {
    guard !isClosed else { return nil }
    owedPeriods += periods
    guard !isBusy else {
      onTimeTicks = 0
      if !isSlow {
        isSlow = true
        let cost = jobStarted.duration(to: .now)
        outbox.event(
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
        outbox.event(.onTime(session: name, t: published.t), to: recipients())
      }
    }
    let advance = min(owedPeriods, Self.maxPeriodsPerFrame)
    missedTicks += owedPeriods - 1
    owedPeriods = 0
    let job = tickJob
    job.restart(dt: Double(advance) / fps, debug: !debugWatchers.isEmpty)
    beginJob()
    return TickWork(session: self, job: job)
  }

  // MARK: manual steps

  /// The job that computes up to `frames` frames of `dt` for `requester`'s `step` (it gets them
  /// whether it watches or not, never coalesced), in one batch of at most `itemStatesPerBatch`
  /// item states that ends after the slice in which a frame finished past the slice time; then
  /// `completion` gets how many were done. The session is busy from now until the host ends the
  /// job (`SessionHost.runFrames`). Call when not busy.
  func frameJob(
    _ frames: Int, dt: Double, requester: Peer, completion: @escaping (Int) -> Void
  ) -> FrameJob {
    let itemCount = max(1, published.states.count)
    let batch = max(1, min(frames, Self.itemStatesPerBatch / itemCount))
    beginJob()
    return FrameJob(
      frames: batch, dt: dt, requester: requester, debug: !debugWatchers.isEmpty,
      completion: completion)
  }

  /// The most an internal step of this session can cost: the engine's bound
  /// (`DynamicAnimator.stepCostBound`) and its scene's action rules, checked after each step.
  var stepCostBound: StepCostBound {
    var bound = animator.stepCostBound
    if case .scene(let scene) = content { bound.actionRules = scene.footprint.actionRules }
    return bound
  }

  /// Whether the whole of `job` takes at most `budget`, by the worst an internal step of this
  /// scene can cost (`stepCostBound`), or by its recent cost per internal step
  /// when that is higher (a loaded machine): never on the strength of cheap past steps alone.
  func fits(_ job: FrameJob, in budget: Duration) -> Bool {
    // A frame that reduced motion skips to may take many frames' steps: a worker's.
    guard budget > .zero, !skipping else { return false }
    let cost = max(stepCostBound.seconds, stepCost ?? 0)
    let steps = Double(job.frames) * (job.dt / DynamicAnimator.stepInterval).rounded(.up)
    return Duration.seconds(steps * cost) <= budget
  }

  // MARK: jobs

  /// The session is busy from now until its job is over.
  private func beginJob() {
    precondition(!isBusy && !isClosed, "a session runs one job at a time")
    isBusy = true
    jobStarted = .now
  }

  /// On the host's thread, after a slice of `job`: publishes its finished frames into `outbox`
  /// (unless the session was closed meanwhile: then the job stops here, its owner gone). True
  /// when a frame is half done (and the step's requester is still there): the host runs the
  /// next slice behind other sessions' due work; false when the job is over (the host then
  /// calls `endJob`).
  func sliceFinished(_ job: FrameJob, into outbox: Outbox) -> Bool {
    let finished = job.finished.count
    if !isClosed {
      for result in job.finished { publish(result, requester: job.requester, into: outbox) }
      job.done += finished
      job.frames -= finished
    }
    job.finished.removeAll(keepingCapacity: true)
    if !isClosed {
      if animator.stepsDue > 0, job.requester?.isGone == true {
        // The step's requester left mid-frame (its session kept): the frame ends where it is.
        animator.abandonStep()
        // A skip in progress ends with it: what it kept back is shown as it is.
        let frame = finishFrame(debug: job.debug)
        publish(skipping ? skip(frame, ending: true) ?? frame : frame, requester: nil, into: outbox)
      }
      if animator.stepsDue > 0 { return true }
    }
    return false
  }

  /// Ends `job`: the session is idle, `completion` learns how many frames were done, and what
  /// waited runs.
  func endJob(_ job: FrameJob) {
    isBusy = false
    if isClosed { animator.delegate = nil }
    job.completion(job.done)
    runIdleWaiters()
  }

  /// On the worker: finishes the frame in progress, then computes more of `job`'s frames, until
  /// none is left or `duration` has passed (checked after each internal step: a frame cut there
  /// stays in progress for the next slice), into `job.finished`. For a manual step, keeps the
  /// cost per internal step for `fits(_:in:)` (a realtime tick never runs inline: it skips the
  /// clock reads).
  func computeSlice(_ job: FrameJob, for duration: Duration) {
    let start = ContinuousClock.now
    let deadline = start + duration
    let measuresCost = job.requester != nil
    var steps = 0
    while job.finished.count < job.frames {
      if animator.stepsDue == 0 {
        stepping = true
        frameStart = animator.time
        animator.beginStep(job.dt)
      }
      steps += animator.continueStep { ContinuousClock.now >= deadline }
      if animator.stepsDue > 0 { break }
      let frame = finishFrame(debug: job.debug)
      if skipping {
        // Reduced motion: the frame is kept back, until the one where the motion ends.
        if let end = skip(frame) { job.finished.append(end) }
        if ContinuousClock.now >= deadline { break }
        continue
      }
      job.finished.append(frame)
      if job.finished.count < job.frames, ContinuousClock.now >= deadline { break }
    }
    if measuresCost, steps > 0 {
      // Rises at once, decays by half a slice: a session that became costly is not trusted
      // with the host's thread on the strength of its cheap past.
      let measured = fractionalMilliseconds(start.duration(to: .now)) / 1000 / Double(steps)
      stepCost = max(measured, (stepCost ?? 0) / 2)
    }
  }

  /// The most animator time reduced motion skips in a row, seconds: a motion that has not
  /// ended by then is shown from there (a step of a skipping session may advance this much
  /// beyond its own span).
  static let maxSkippedTime = 10.0

  /// Reduced motion, on the worker: keeps `frame` back with the frames skipped before it, and
  /// returns them as one frame once the motion ends there (a `done`, the animator at rest,
  /// `maxSkippedTime` of animator time, or `ending`): the items where the motion ended, every
  /// transition event, pause and resume on the way, in order; contacts and action events only
  /// the last frame's (the way is not shown, and what one frame carries stays bounded).
  func skip(_ frame: FrameResult, ending: Bool = false) -> FrameResult? {
    skippedFrames += 1
    var merged = skipped ?? frame
    if skipped != nil {
      merged.advanced = merged.advanced || frame.advanced
      merged.events =
        merged.events.filter {
          if case .contact = $0 { false } else { true }
        } + frame.events
      merged.transitionEvents += frame.transitionEvents
      merged.actions = frame.actions
      merged.debug = frame.debug ?? merged.debug
      merged.refusedContacts = frame.refusedContacts
      merged.droppedContacts = frame.droppedContacts
      merged.state.running = frame.state.running
      merged.state.t = frame.state.t
      if frame.advanced { merged.state = frame.state }
    }
    let done = frame.transitionEvents.contains { if case .done = $0 { true } else { false } }
    let long = frame.state.t - skipStart >= Self.maxSkippedTime
    guard ending || done || !frame.state.running || long else {
      skipped = merged
      return nil
    }
    skipping = false
    skipped = nil
    skippedFrames = 0
    return merged
  }

  /// On the worker, once a frame's internal steps are all taken: what it produced.
  private func finishFrame(debug: Bool) -> FrameResult {
    var transitionEvents: [TransitionEvent] = []
    var actions: [EmittedAction] = []
    switch content {
    case .transition(let t): transitionEvents = t.afterStep()
    case .scene(let scene): actions = scene.takeActionEvents()
    }
    stepping = false
    let events = stepEvents
    stepEvents = []
    let droppedContacts = frameDroppedContacts
    frameContactEvents = 0
    frameDroppedContacts = 0
    var state = published
    state.running = animator.isRunning
    state.t = animator.time
    let advanced = state.t != frameStart
    if advanced {
      state.states = states()
      state.values = values
    }
    return FrameResult(
      advanced: advanced, events: events, state: state, transitionEvents: transitionEvents,
      debug: debug && advanced ? debugGeometry : nil,
      refusedContacts: animator.refusedContactCount + animator.deferredShapeCount, actions: actions,
      droppedContacts: droppedContacts)
  }

  // MARK: publishing, on the host's thread

  /// Sends one computed frame to its recipients: contacts, the frame (and debug geometry),
  /// pause/resume, what the transition reported. Frames and contacts may be coalesced for a slow
  /// watcher, never for the requester of a `step`.
  private func publish(_ result: FrameResult, requester: Peer?, into outbox: Outbox) {
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
    if result.advanced {
      seq += 1
      outbox.event(
        .frame(
          Frame(
            session: name, seq: seq, t: published.t, items: published.states,
            droppedContacts: result.droppedContacts, values: published.values)),
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
      case .resume(let t): outbox.event(.resume(session: name, t: t), to: always)
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
