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
    /// How long output may drain at shutdown.
    public var shutdownDrain: Duration = .milliseconds(250)
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
  /// Sessions by name, and their names in the order they were opened (for `list`).
  private(set) var sessions: [String: Session] = [:]
  private(set) var sessionOrder: [String] = []
  private var nextSessionNumber = 1
  /// The frame clocks of realtime sessions by period in nanoseconds. Sessions hold theirs too;
  /// a clock is dropped only here, when no session holds it, so never inside its own tick.
  private var frameClocks: [Int64: FrameClock] = [:]
  private var shuttingDown = false

  /// Where the socket is, once listening (nil under systemd activation of an unnamed socket).
  public var socketPath: String? { listener?.path }

  /// Prepares the loop and the listening socket; throws if another dynd owns the socket.
  public init(options: Options, logger: Logger) throws {
    self.options = options
    self.logger = logger
    SignalHandling.ignoreSIGPIPE()
    loop = try EventLoop()
    let accept: Listener.AcceptHandler = { [unowned self] fd, peer in self.accept(fd, peer) }
    if options.systemd {
      guard let fd = try SocketActivation.listeningSocket() else {
        throw TransportError(
          .activation, "--systemd was given but no socket was passed (LISTEN_FDS is not set)")
      }
      listener = try Listener(
        loop: loop, adoptingListeningSocket: fd, logger: logger, onAccept: accept)
    } else {
      let path = try SocketPath.resolve(flag: options.socketPath)
      listener = try Listener(loop: loop, path: path.path, logger: logger, onAccept: accept)
    }
    if options.handleSignals {
      signals = SignalHandler(loop: loop) { [unowned self] signal in self.shutdown(signal: signal) }
    }
    stopper = try Wakeup(loop: loop) { [unowned self] in self.shutdown(signal: SIGTERM) }
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
    guard clients.count < Limits.maxConnections else {
      logger.warning("refusing a connection: \(Limits.maxConnections) clients are connected")
      Glibc.close(fd)
      return
    }
    let client = Client(id: nextClientID, server: self)
    nextClientID += 1
    var limits = Connection.Limits()
    limits.maxLineLength = options.maxLine
    client.attach(
      Connection(
        loop: loop, socket: fd, peer: peer, limits: limits, logger: logger, delegate: client))
    clients[client.id] = client
    logger.debug("client \(client.id) connected (pid \(peer.pid))")
  }

  func clientDidClose(_ client: Client) {
    clients[client.id] = nil
    for name in sessionOrder {
      guard let session = sessions[name] else { continue }
      session.removeWatcher(client)
      if session.ownerID == client.id && !session.keep { closeSession(name, reason: "owner_left") }
    }
    logger.debug("client \(client.id) disconnected")
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

  func register(_ session: Session) {
    sessions[session.name] = session
    sessionOrder.append(session.name)
  }

  func session(_ name: String) throws(ProtocolError) -> Session {
    guard let session = sessions[name] else { throw .unknownSession(name) }
    session.lastActivity = .now
    return session
  }

  /// Closes a session and tells its watchers why (`closed`, `owner_left`, `idle`).
  func closeSession(_ name: String, reason: String = "closed") {
    guard let session = sessions.removeValue(forKey: name) else { return }
    sessionOrder.removeAll { $0 == name }
    for watcher in session.watchers {
      watcher.forget(session: name)
      watcher.sendEvent { $0.closed(session: name, reason: reason) }
    }
    session.close()
  }

  private func reapIdleSessions() {
    let now = ContinuousClock.now
    for name in sessionOrder {
      guard let s = sessions[name], s.watchers.isEmpty,
        now - s.lastActivity > options.idleTimeout
      else { continue }
      logger.info("closing session \(name): idle for over \(options.idleTimeout)")
      closeSession(name, reason: "idle")
    }
  }

  // MARK: shutdown

  private func shutdown(signal: Int32) {
    guard !shuttingDown else { return }
    shuttingDown = true
    logger.info("signal \(signal): shutting down")
    listener?.close()
    reaper?.stop()
    for name in sessionOrder { sessions[name]?.close() }
    for client in clients.values {
      client.sendEvent { $0.shutdown(reason: signal == SIGINT ? "interrupted" : "terminated") }
      client.connection.closeAfterFlush()
    }
    loop.stop(after: options.shutdownDrain)
  }
}
