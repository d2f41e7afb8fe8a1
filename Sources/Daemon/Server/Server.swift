import Glibc
import Logging
import Wire

/// The daemon: one libevent loop, the listening socket, the connected clients and the sessions.
public final class Server {
  public struct Options: Sendable {
    /// `--socket`; nil resolves `$DYND_SOCKET`, then `$XDG_RUNTIME_DIR/dynd/`, then `/tmp/dynd-UID/`.
    public var socketPath: String?
    /// Take the listening socket from systemd (LISTEN_FDS) instead of binding.
    public var systemd = false
    /// Longest request line in bytes (`--max-line`).
    public var maxLine = Limits.defaultMaxLineBytes
    /// Kept sessions nobody watches are closed after this long without a request.
    public var idleTimeout: Duration = .seconds(600)
    /// How long output may drain at shutdown (it ends sooner once every connection has
    /// flushed).
    public var shutdownDrain: Duration = .milliseconds(50)
    public var version = "0.1.0"
    /// Stop on SIGTERM and SIGINT. Off for daemons embedded in a test process (libevent lets
    /// only one event base handle signals).
    public var handleSignals = true
    public init() {}
  }

  let options: Options
  let logger: Logger
  let loop: EventLoop
  private var listener: Listener?
  private var signals: SignalHandler?
  private var reaper: RepeatingTimer?
  private var stopper: Wakeup?

  /// Stops the server as SIGTERM would; safe to fire from any thread.
  public var stopTrigger: Wakeup.Trigger { stopper!.trigger }
  private var clients: [UInt64: Client] = [:]
  private var nextClientID: UInt64 = 1
  /// Connections per client process (pid), for `Limits.maxConnectionsPerClient`.
  private var connectionsByPID: [Int32: Int] = [:]
  /// Sessions by name; each knows when it was opened (`list` sorts by that).
  private(set) var sessions: [String: Session] = [:]
  /// Sessions per owning client process, for `Limits.maxSessionsPerClient`.
  private var sessionsByPID: [Int32: Int] = [:]
  private var nextSessionNumber = 1
  private var openedSessions: UInt64 = 0
  /// Box2D shapes all sessions hold, for `Limits.maxShapesTotal`.
  private(set) var shapeTotal = 0
  /// Output queued for all connections together (`Limits.totalOutputBudget`).
  let outputBudget = OutputBudget(
    limit: Limits.totalOutputBudget, slowReaderBytes: Limits.slowReaderOutput)
  /// Where workers post computed frames (`StepWorkers`).
  private(set) var inbox: LoopInbox!
  private var inboxWakeup: Wakeup?
  /// Returns freed memory to the system a moment after connections or sessions close.
  private var trimmer: OneShotTimer?
  private var trimPending = false
  private var closesSinceTrim = 0
  /// The frame clocks of realtime sessions by period in nanoseconds. Sessions hold theirs too;
  /// a clock is dropped only here, when no session holds it, so never inside its own tick.
  private var frameClocks: [Int64: FrameClock] = [:]
  private var shuttingDown = false
  /// The socket's private directory, re-created with the socket on SIGHUP/SIGUSR1.
  private var socketDirectory: String?
  /// `Limits.maxConnections`, or fewer when the open-file limit is lower.
  private var maxConnections = Limits.maxConnections

  /// Where the socket is, once listening (nil under systemd activation of an unnamed socket).
  public var socketPath: String? { listener?.path }

  /// Prepares the loop and the listening socket; throws if another dynd owns the socket.
  public init(options: Options, logger: Logger) throws {
    self.options = options
    self.logger = logger
    SignalHandling.ignoreSIGPIPE()
    loop = try EventLoop()
    let accept: Listener.AcceptHandler = { [unowned self] fd, peer in self.accept(fd, peer) }
    // dynd sets `systemd` when it was socket-activated (flag or not); embedded servers (tests)
    // never read the process's LISTEN_* variables.
    if options.systemd {
      guard let fd = try SocketActivation.listeningSocketIfActivated(required: true) else {
        throw TransportError(
          .activation, "--systemd was given but no socket was passed (LISTEN_FDS is not set)")
      }
      listener = try Listener(
        loop: loop, adoptingListeningSocket: fd, logger: logger, onAccept: accept)
    } else {
      let path = try SocketPath.resolve(flag: options.socketPath)
      socketDirectory = path.privateDirectory
      listener = try Listener(loop: loop, path: path.path, logger: logger, onAccept: accept)
    }
    maxConnections = min(Limits.maxConnections, ResourceLimits.connectionCapacity())
    if options.handleSignals {
      signals = SignalHandler(
        loop: loop,
        signals: SignalHandling.shutdownSignals + SignalHandling.socketRecreationSignals
      ) { [unowned self] signal in
        if SignalHandling.socketRecreationSignals.contains(signal) {
          _ = self.listener?.recreateSocketFile(privateDirectory: self.socketDirectory)
        } else {
          self.shutdown(signal: signal)
        }
      }
    }
    stopper = try Wakeup(loop: loop) { [unowned self] in self.shutdown(signal: SIGTERM) }
    var posted: LoopInbox?
    inboxWakeup = try Wakeup(loop: loop) { posted?.runPending() }
    inbox = LoopInbox(trigger: inboxWakeup!.trigger)
    posted = inbox
    trimmer = OneShotTimer(loop: loop) { [unowned self] _ in
      self.trimPending = false
      MemoryTrim.returnFreeMemory()
      // Closes went on meanwhile (a thousand clients leave over more than half a second): trim
      // again once they are done.
      if self.closesSinceTrim > 0 { self.scheduleMemoryTrim() }
      self.closesSinceTrim = 0
    }
    let period = max(options.idleTimeout / 4, .milliseconds(100))
    reaper = RepeatingTimer(loop: loop, period: min(period, .seconds(30))) { [unowned self] _ in
      self.reapIdleSessions()
    }
    reaper?.start()
  }

  /// Runs until SIGTERM or SIGINT.
  public func run() throws {
    logger.info("dynd listening on \(socketPath ?? "a socket from systemd")")
    try loop.run()
    listener?.close()
  }

  // MARK: clients

  private func accept(_ fd: Int32, _ peer: PeerCredentials) {
    guard !shuttingDown else {
      Glibc.close(fd)
      return
    }
    guard clients.count < maxConnections else {
      refuse(fd, "\(maxConnections) clients are connected, dynd's most")
      return
    }
    guard connectionsByPID[peer.pid, default: 0] < Limits.maxConnectionsPerClient else {
      refuse(
        fd,
        "pid \(peer.pid) has \(Limits.maxConnectionsPerClient) connections open, the most one "
          + "client may hold")
      return
    }
    if refusedConnections > 0 {
      logger.info("accepting connections again; \(refusedConnections) were refused")
      refusedConnections = 0
    }
    adopt(fd, peer)
  }

  /// Connections refused since the last one accepted (logged once per episode, not each).
  private var refusedConnections = 0

  /// Closes a connection dynd will not serve, so that the client reads end of file: what it
  /// already sent is read first (closing with unread input would send a reset instead).
  private func refuse(_ fd: Int32, _ reason: String) {
    var scratch = [UInt8](repeating: 0, count: 4096)
    var discarded = 0
    while discarded < 1 << 16 {
      let n = scratch.withUnsafeMutableBytes {
        recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      guard n > 0 else { break }
      discarded += n
    }
    Glibc.close(fd)
    if refusedConnections == 0 {
      logger.warning("refusing connections: \(reason); further refusals are counted, not logged")
    }
    refusedConnections += 1
  }

  /// Serves the connected socket `fd` as a client (the listener's accept, or a test harness).
  @discardableResult
  func adopt(_ fd: Int32, _ peer: PeerCredentials) -> Client {
    connectionsByPID[peer.pid, default: 0] += 1
    let client = Client(id: nextClientID, pid: peer.pid, server: self)
    nextClientID += 1
    var limits = Connection.Limits()
    limits.maxLineLength = options.maxLine
    client.attach(
      Connection(
        loop: loop, socket: fd, peer: peer, limits: limits, outputBudget: outputBudget,
        logger: logger, delegate: client))
    clients[client.id] = client
    logger.debug("client \(client.id) connected (pid \(peer.pid))")
    return client
  }

  func clientDidClose(_ client: Client) {
    // (A client the fuzz harness attached itself is not counted; its sessions close all the same.)
    if clients.removeValue(forKey: client.id) != nil {
      connectionsByPID[client.pid, default: 1] -= 1
      if connectionsByPID[client.pid] == 0 { connectionsByPID[client.pid] = nil }
    }
    for session in client.watched.values {
      session.removeWatcher(client)
      if session.ownerID == client.id && !session.keep && sessions[session.name] === session {
        closeSession(session.name, reason: "owner_left")
      }
    }
    scheduleMemoryTrim()
    logger.debug("client \(client.id) disconnected")
    if shuttingDown && clients.isEmpty { loop.stop() }
  }

  /// Hands memory freed by closed connections and sessions back to the system, once things
  /// have been quiet for a moment (glibc keeps freed heap otherwise).
  private func scheduleMemoryTrim() {
    closesSinceTrim += 1
    guard !trimPending, let trimmer else { return }
    closesSinceTrim = 0
    trimPending = true
    trimmer.schedule(after: .milliseconds(500))
  }

  // MARK: sessions

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
    let clock = FrameClock(loop: loop, period: .nanoseconds(nanoseconds))
    frameClocks[nanoseconds] = clock
    return clock
  }

  /// A fresh name `s1`, `s2`, … not in use.
  func freshSessionName() -> String {
    while true {
      let name = "s\(nextSessionNumber)"
      nextSessionNumber += 1
      if sessions[name] == nil { return name }
    }
  }

  /// Opens a session owned by `owner` (who watches it) and counts it.
  func makeSession(
    name: String, content: Session.Content, clock: Clock, fps: Double, keep: Bool, owner: Client
  ) -> Session {
    openedSessions += 1
    let session = Session(
      name: name, content: content, clock: clock, fps: fps, keep: keep, ownerID: owner.id,
      ownerPID: owner.pid, openingNumber: openedSessions,
      frameClock: clock == .realtime ? frameClock(fps: fps) : nil, inbox: inbox)
    sessions[name] = session
    sessionsByPID[owner.pid, default: 0] += 1
    recount(session)
    session.addWatcher(owner)
    return session
  }

  /// Sessions in the order they were opened (for `list`).
  var sessionsInOrder: [Session] { sessions.values.sorted { $0.openingNumber < $1.openingNumber } }

  /// Names of the sessions in the order they were opened.
  var sessionOrder: [String] { sessionsInOrder.map(\.name) }

  func sessionCount(ownedBy pid: Int32) -> Int { sessionsByPID[pid, default: 0] }

  /// How many more Box2D shapes the daemon takes (`Limits.maxShapesTotal`).
  var shapeRoom: Int { max(0, Limits.maxShapesTotal - shapeTotal) }

  /// Brings the daemon's shape total up to date with `session` (after a request changed it).
  func recount(_ session: Session) {
    guard sessions[session.name] === session, !session.isBusy else { return }
    let now = session.shapeCount
    shapeTotal += now - session.countedShapes
    session.countedShapes = now
  }

  func session(_ name: String) throws(ProtocolError) -> Session {
    guard let session = sessions[name] else { throw .unknownSession(name) }
    session.lastActivity = .now
    return session
  }

  /// Closes a session and tells its watchers why (`closed`, `owner_left`, `idle`).
  /// O(its watchers), whatever the number of sessions.
  func closeSession(_ name: String, reason: String = "closed") {
    guard let session = sessions.removeValue(forKey: name) else { return }
    sessionsByPID[session.ownerPID, default: 1] -= 1
    if sessionsByPID[session.ownerPID] == 0 { sessionsByPID[session.ownerPID] = nil }
    shapeTotal -= session.countedShapes
    session.countedShapes = 0
    for watcher in session.watchers {
      watcher.forget(session: session)
      watcher.sendEvent { $0.closed(session: name, reason: reason) }
    }
    session.close()
    scheduleMemoryTrim()
  }

  private func reapIdleSessions() {
    let now = ContinuousClock.now
    let idle = sessions.values.filter {
      $0.watchers.isEmpty && now - $0.lastActivity > options.idleTimeout
    }
    for s in idle.sorted(by: { $0.openingNumber < $1.openingNumber }) {
      logger.info("closing session \(s.name): idle for over \(options.idleTimeout)")
      closeSession(s.name, reason: "idle")
    }
  }

  // MARK: shutdown

  private func shutdown(signal: Int32) {
    guard !shuttingDown else { return }
    shuttingDown = true
    logger.info("signal \(signal): shutting down")
    listener?.close()
    reaper?.stop()
    for session in sessions.values { session.close() }
    for client in clients.values {
      client.sendEvent { $0.shutdown(reason: signal == SIGINT ? "interrupted" : "terminated") }
      client.connection.closeAfterFlush()
    }
    // Stop as soon as every connection has flushed, or when the drain time is up.
    if clients.isEmpty {
      loop.stop()
    } else {
      loop.stop(after: options.shutdownDrain)
    }
  }
}
