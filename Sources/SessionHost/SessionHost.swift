import Dynamics
import Transitions
import Wire

/// dynd's sessions and what clients do with them, with no socket in sight: the session table,
/// op dispatch (one file per op in `Ops/`), the scene model, realtime frame clocks and the step
/// workers.
///
/// A transport (the daemon's connections, a test, the fuzzer) connects peers, hands each decoded
/// request to `apply`, and sends every `Outgoing` to its recipients. What a call causes at once
/// (events, the reply) is its return value; what comes later (frames of a realtime tick, the
/// batches of a `step`, a request that waited for its session's job) goes to `output`.
///
/// **Requests.** Each request gets exactly one reply, in order per peer. A request naming a
/// session whose frames a worker is computing waits for that job (the peer's later requests wait
/// behind it); the transport sees no reply in `apply`'s result and should stop reading that peer
/// until the reply comes through `output`. Everyone else is served meanwhile.
///
/// Call every method on one thread (the host's); only workers run elsewhere.
public final class SessionHost {
  public struct Configuration: Sendable {
    /// The `version` of the `hello` reply.
    public var version = "0.1.0"
    /// Kept sessions nobody watches are closed after this long without a request.
    public var idleTimeout: Duration = .seconds(600)
    /// Bytes all sessions together may hold, as `MemoryCost` counts them; a request that would
    /// take them beyond is `busy`. Default: a quarter of physical memory, at most 8 GiB.
    public var memoryBudget: Int = MemoryCost.defaultBudget
    /// Worker time after which a session's job yields (at the end of the internal step then
    /// running), its rest queued behind other sessions' due work. Zero: every internal step is
    /// a slice of its own (tests).
    public var sliceTime: Duration = .milliseconds(2)
    /// Whether sessions reduce motion unless `open` says otherwise (`dynd --reduce-motion`,
    /// or the desktop's setting: `ReducedMotion`).
    public var reduceMotion = false
    public init() {}
  }

  public let configuration: Configuration
  /// The transitions it offers: the built-ins and the documents it was given.
  var transitions = TransitionCatalog()
  let environment: any HostEnvironment
  /// Where messages caused by work that ends later go (set by the transport).
  public var output: ([Outgoing]) -> Void = { _ in }
  let outbox = Outbox()
  private var peers: [PeerID: Peer] = [:]
  /// Sessions by name; each knows when it was opened (`list` sorts by that).
  private(set) var sessions: [String: Session] = [:]
  /// Sessions per owning client process, for `Limits.maxSessionsPerClient`.
  private var sessionsByPID: [Int32: Int] = [:]
  private var nextSessionNumber = 1
  private var openedSessions: UInt64 = 0
  /// Box2D shapes all sessions hold, for `Limits.maxShapesTotal`.
  private(set) var shapeTotal = 0
  /// Bytes all sessions hold as `MemoryCost` counts them (`Configuration.memoryBudget`), and
  /// what each session was counted for, by name.
  public private(set) var memoryTotal = 0
  private var countedMemory: [String: Int] = [:]
  /// Sessions closed during the current call, freed at its end (`releaseRetired`), and the
  /// memory they were counted for.
  private var retired: [Session] = []
  private var retiredBytes = 0
  /// Counted memory (`MemoryCost`) from which the sessions a call closed are freed on a worker
  /// rather than the host's thread: 13 scenes of 1 000 behaviors naming 1 000 items each
  /// (12.5 MB counted) took the loop 100 ms to free when their owner left, 5 000 empty sessions
  /// (80 MB counted) about as long.
  static let freedOnWorkerBytes = 1 << 20
  /// The frame clocks of realtime sessions by period in nanoseconds. Sessions hold theirs too;
  /// a clock is dropped only here, when no session holds it, so never inside its own tick.
  private var frameClocks: [Int64: FrameClock] = [:]
  private var reaper: (any HostTimer)?
  private var shutDown = false

  /// Whether Box2D meets pairs with dynd's own bounded pair finder (`DynamicAnimator.
  /// boundedPairFinderInUse`), on which the bound of a session's step rests.
  public static var boundedPairFinderInUse: Bool { DynamicAnimator.boundedPairFinderInUse }

  public init(configuration: Configuration = Configuration(), environment: any HostEnvironment) {
    self.configuration = configuration
    self.environment = environment
    let period = max(configuration.idleTimeout / 4, .milliseconds(100))
    reaper = environment.makeRepeatingTimer(period: min(period, .seconds(30))) {
      [unowned self] _ in
      output(reapIdleSessions())
    }
    reaper?.start()
  }

  /// Sessions open now.
  public var sessionCount: Int { sessions.count }

  /// Workers' jobs whose results have not been taken yet (0 once all of them are in).
  public private(set) var jobsInFlight = 0

  // MARK: peers

  /// A new client, from process `pid`.
  public func connect(_ peer: PeerID, pid: Int32) {
    peers[peer] = Peer(id: peer, pid: pid)
  }

  /// Whether the client holds nothing of the host's: no request of its in progress or waiting,
  /// and no session watched (those it opened included), so that closing its connection loses
  /// nothing but the connection. False for an unknown client.
  public func isIdle(_ id: PeerID) -> Bool {
    guard let peer = peers[id] else { return false }
    return peer.inProgress == nil && peer.queued.isEmpty && peer.watched.isEmpty
  }

  /// The client left: it stops watching, and the sessions it opened without `keep` close
  /// (`owner_left` to their other watchers). A request of its still in progress is dropped.
  public func disconnect(_ id: PeerID) -> [Outgoing] {
    guard let peer = peers.removeValue(forKey: id) else { return [] }
    peer.isGone = true
    peer.inProgress = nil
    peer.queued = []
    for session in peer.watched.values.sorted(by: { $0.openingNumber < $1.openingNumber }) {
      session.removeWatcher(peer)
      if session.ownerID == id && !session.keep && sessions[session.name] === session {
        closeSession(session.name, reason: "owner_left")
      }
    }
    releaseRetired()
    return outbox.take()
  }

  // MARK: requests

  /// Carries out `request` of `peer`: returns the events it caused and its reply, or, when it
  /// waits for its session or is a `step`, what it caused so far (the reply comes to `output`).
  public func apply(_ request: Request, from id: PeerID) -> [Outgoing] {
    guard let peer = peers[id] else { return [] }
    if peer.inProgress != nil {
      peer.queued.append(request)
    } else {
      handle(request, from: peer)
    }
    releaseRetired()
    return outbox.take()
  }

  /// Handles `request` now, or parks it until its session's job is done.
  private func handle(_ request: Request, from peer: Peer) {
    let session = request.op.session.flatMap { sessions[$0] }
    if let session, session.isBusy {
      peer.inProgress = .parked(request)
      session.waitUntilIdle { [unowned self] in resumeParked(peer) }
      return
    }
    let reply: Reply?
    do throws(ProtocolError) {
      if let session, case .scene(let scene) = session.content { scene.shapeRoom = shapeRoom }
      reply = try dispatch(OpContext(request: request, peer: peer, named: session, host: self))
        .map { Reply(id: request.id, $0) }
    } catch {
      reply = Reply(id: request.id, error: error)
    }
    if let session {
      let (events, recipients) = session.takeRequestEvents(requester: peer)
      for event in events { outbox.event(event, to: recipients) }
      if session.wantsTicks { session.frameClock?.add(session) }
      recount(session)
      if request.op.kind.changesStepCost { session.stepCost = nil }
    }
    if let reply { outbox.reply(reply, to: peer.id) }
  }

  private func resumeParked(_ peer: Peer) {
    guard !peer.isGone, case .parked(let request) = peer.inProgress else { return }
    peer.inProgress = nil
    handle(request, from: peer)
    runQueued(peer)
  }

  /// Handles what `peer` sent while a request was in progress, until one is in progress again.
  func runQueued(_ peer: Peer) {
    while peer.inProgress == nil, !peer.isGone, !peer.queued.isEmpty {
      handle(peer.queued.removeFirst(), from: peer)
    }
  }

  /// `peer`'s output drained (after `HostEnvironment.isBackedUp` said it was backed up): a
  /// `step` waiting for it goes on.
  public func outputDrained(_ id: PeerID) -> [Outgoing] {
    if let peer = peers[id] { continueStep(peer) }
    return outbox.take()
  }

  /// Hands what later work collected to the transport.
  func deliver() {
    releaseRetired()
    let messages = outbox.take()
    if !messages.isEmpty { output(messages) }
  }

  // MARK: the session table

  /// A fresh name `s1`, `s2`, … not in use.
  func freshSessionName() -> String {
    while true {
      let name = "s\(nextSessionNumber)"
      nextSessionNumber += 1
      if sessions[name] == nil { return name }
    }
  }

  func sessionCount(ownedBy pid: Int32) -> Int { sessionsByPID[pid, default: 0] }

  /// Opens a session owned by `owner` (who watches it) and counts it.
  func makeSession(
    name: String, content: Session.Content, clock: Clock, fps: Double, keep: Bool, owner: Peer
  ) -> Session {
    openedSessions += 1
    let session = Session(
      name: name, content: content, clock: clock, fps: fps, keep: keep, ownerID: owner.id,
      ownerPID: owner.pid, openingNumber: openedSessions,
      frameClock: clock == .realtime ? frameClock(fps: fps) : nil, environment: environment,
      sliceDuration: configuration.sliceTime)
    sessions[name] = session
    sessionsByPID[owner.pid, default: 0] += 1
    recount(session)
    session.addWatcher(owner)
    if session.wantsTicks { session.frameClock?.add(session) }
    return session
  }

  /// The open sessions' names a misspelt `name` may be a slip for (at most two bytes longer or
  /// shorter), in the order they were opened, so that the suggestion is the same on every run;
  /// the first 32 of them, and none while more than 100 sessions are open. A stream of
  /// mistyped requests must not cost the loop (BENCHMARKS, "Suggestions").
  func sessionNamesForSuggestions(near name: String) -> [String] {
    let length = name.utf8.count
    guard sessions.count <= 100, length <= 64 else { return [] }
    var near: [(number: UInt64, name: String)] = []
    for (sessionName, session) in sessions where abs(sessionName.utf8.count - length) <= 2 {
      near.append((session.openingNumber, sessionName))
    }
    return near.sorted { $0.number < $1.number }.prefix(32).map(\.name)
  }

  /// Sessions in the order they were opened (for `list`).
  var sessionsInOrder: [Session] { sessions.values.sorted { $0.openingNumber < $1.openingNumber } }

  /// How many more Box2D shapes the daemon takes (`Limits.maxShapesTotal`).
  var shapeRoom: Int { max(0, Limits.maxShapesTotal - shapeTotal) }

  /// Brings the shape total up to date with `session` (after a request changed it).
  func recount(_ session: Session) {
    guard sessions[session.name] === session, !session.isBusy else { return }
    let now = session.shapeCount
    shapeTotal += now - session.countedShapes
    session.countedShapes = now
    let bytes = session.memoryCost
    memoryTotal += bytes - (countedMemory[session.name] ?? 0)
    countedMemory[session.name] = bytes
  }

  /// Closes a session and tells its watchers why (`closed`, `owner_left`, `idle`).
  /// O(its watchers), whatever the number of sessions.
  func closeSession(_ name: String, reason: String) {
    guard let session = sessions.removeValue(forKey: name) else { return }
    sessionsByPID[session.ownerPID, default: 1] -= 1
    if sessionsByPID[session.ownerPID] == 0 { sessionsByPID[session.ownerPID] = nil }
    shapeTotal -= session.countedShapes
    session.countedShapes = 0
    let memory = countedMemory.removeValue(forKey: name) ?? 0
    memoryTotal -= memory
    for watcher in session.watchers { watcher.forget(session) }
    outbox.event(
      .closed(session: name, reason: reason), to: session.watchers.map { .init($0.id) })
    session.frameClock?.remove(session)
    session.close()
    // A busy session is freed where its job ends.
    if !session.isBusy {
      retired.append(session)
      retiredBytes += memory
    }
  }

  /// Frees the sessions closed during the call: on a worker when they were counted at
  /// `freedOnWorkerBytes` or more (their engines, Box2D worlds and scene models: nothing the
  /// host's thread shares), else here. Call where the host's thread holds no other reference to
  /// them, at the end of a call.
  private func releaseRetired() {
    guard !retired.isEmpty else { return }
    let sessions = UncheckedBox(retired)
    let onWorker = retiredBytes >= Self.freedOnWorkerBytes
    retired = []
    retiredBytes = 0
    if onWorker { environment.runOnWorker(.continuing) { _ = sessions } }
  }

  /// Closes kept sessions nobody has watched or addressed for `idleTimeout` (`idle`).
  public func reapIdleSessions() -> [Outgoing] {
    let now = environment.now
    let idle = sessions.values.filter {
      $0.watchers.isEmpty && now - $0.lastActivity > configuration.idleTimeout
    }.sorted { $0.openingNumber < $1.openingNumber }.map(\.name)
    for name in idle { closeSession(name, reason: "idle") }
    releaseRetired()
    return outbox.take()
  }

  /// The daemon is stopping: every session stops (a job in flight is left to finish unseen)
  /// and every peer gets `shutdown`.
  public func shutdown(reason: String) -> [Outgoing] {
    guard !shutDown else { return [] }
    shutDown = true
    reaper?.stop()
    for session in sessions.values { session.close() }
    let everyone = peers.keys.sorted { $0.value < $1.value }.map { Outgoing.Recipient($0) }
    outbox.event(.shutdown(reason: reason), to: everyone)
    return outbox.take()
  }

  // MARK: frame clocks and jobs

  /// The shared frame clock for `fps`, made on first use.
  func frameClock(fps: Double) -> FrameClock {
    let nanoseconds = Int64((1e9 / fps).rounded())
    if let clock = frameClocks[nanoseconds] { return clock }
    if frameClocks.count >= 16 {
      for key in Array(frameClocks.keys) {
        var clock = frameClocks.removeValue(forKey: key)!
        if !isKnownUniquelyReferenced(&clock) { frameClocks[key] = clock }
      }
    }
    let clock = FrameClock(environment: environment, period: .nanoseconds(nanoseconds)) {
      [unowned self] periods, sessions in tick(periods, sessions)
    }
    frameClocks[nanoseconds] = clock
    return clock
  }

  /// Jobs running on the host's thread now (`runFrames`): none starts inside another.
  var inlineDepth = 0

  func jobStarted() { jobsInFlight += 1 }
  func jobFinished() { jobsInFlight -= 1 }
}
