import Glibc
import Logging
import SessionHost
import TransitionDocuments
import Wire

/// The daemon: one libevent loop, the listening socket and the connected clients, serving a
/// `SessionHost`. Lines come in through `Client`s; every message the host sends is encoded once
/// and its bytes handed to each recipient (`send`).
public final class Server: Client.Owner {
  public struct Options: Sendable {
    /// `--socket`; nil resolves `$DYND_SOCKET`, then `$XDG_RUNTIME_DIR/dynd/`, then `/tmp/dynd-UID/`.
    public var socketPath: String?
    /// Take the listening socket from systemd (LISTEN_FDS) instead of binding.
    public var systemd = false
    /// Longest request line in bytes (`--max-line`).
    public var maxLine = Limits.defaultMaxLineBytes
    /// A connection with more than `Limits.outputHighWater` bytes of output queued whose peer
    /// reads none of them for this long is closed (tests shorten it).
    public var stalledReaderTimeout = Limits.stalledReaderTimeout
    /// Kept sessions nobody watches are closed after this long without a request.
    public var idleTimeout: Duration = .seconds(600)
    /// Most connections at once (`Limits.maxConnections`; tests lower it). The open-file limit
    /// may lower it further.
    public var maxConnections = Limits.maxConnections
    /// How long output may drain at shutdown (it ends sooner once every connection has
    /// flushed).
    public var shutdownDrain: Duration = .milliseconds(50)
    public var version = "0.1.0"
    /// Threads that step sessions (`--workers`); nil shares the process's pool, one per core.
    public var workers: Int?
    /// Bytes all sessions together may hold (`--memory-budget`); nil: the host's default.
    public var memoryBudget: Int?
    /// Whether sessions reduce motion unless `open` says otherwise.
    public var reduceMotion = false
    /// Stop on SIGTERM and SIGINT. Off for daemons embedded in a test process (libevent lets
    /// only one event base handle signals).
    public var handleSignals = true
    /// Where transition documents are read from (`--transitions`, in order); nil: the XDG data
    /// directories (`DocumentDirectories.defaults`). Read at start and again on SIGHUP.
    public var transitionDirectories: [String]?
    public init() {}
  }

  let options: Options
  let logger: Logger
  let loop: EventLoop
  private var listener: Listener?
  private var signals: SignalHandler?
  private var stopper: Wakeup?

  /// Stops the server as SIGTERM would; safe to fire from any thread.
  public var stopTrigger: Wakeup.Trigger { stopper!.trigger }
  private var clients: [PeerID: Client] = [:]
  private var nextClientID: UInt64 = 1
  /// Connections per client process (pid), for `Limits.maxConnectionsPerClient`.
  private var connectionsByPID: [Int32: Int] = [:]
  /// The sessions and what clients do with them.
  private(set) var host: SessionHost!
  private var environment: LoopEnvironment!
  /// Counts `send` calls: a client whose `batch` is this one is in the batch being sent.
  private var batchNumber: UInt64 = 0
  /// Encodes each message of the host once.
  private var encoder = MessageEncoder()
  /// Numbers written as 0 because they were not finite, in all output so far (must stay 0).
  var nonFiniteCount: Int { encoder.nonFiniteCount + clientNonFinite }
  private var clientNonFinite = 0
  /// Output queued for all connections together (`Limits.totalOutputBudget`).
  let outputBudget = OutputBudget(
    limit: Limits.totalOutputBudget, slowReaderBytes: Limits.slowReaderOutput)
  /// Where workers post computed frames (`StepWorkers`).
  private(set) var inbox: LoopInbox!
  /// Decodes long request lines off the loop.
  private(set) var largeLines: LargeLineDecoder!
  private var inboxWakeup: Wakeup?
  /// Returns freed memory to the system a moment after connections or sessions close.
  private var trimmer: OneShotTimer?
  private var trimPending = false
  private var closesSinceTrim = 0
  private var shuttingDown = false
  /// The socket path as resolved (nil: systemd's socket), whose directory is prepared again when
  /// the socket file is re-created on SIGHUP/SIGUSR1.
  private var socketLocation: SocketPath?
  /// `Options.maxConnections`, or fewer when the open-file limit is lower.
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
    // Signals are handled before anyone can connect: a client that saw the socket listening and
    // sent SIGTERM gets the orderly shutdown, never the default action.
    if options.handleSignals {
      signals = SignalHandler(
        loop: loop,
        signals: SignalHandling.shutdownSignals + SignalHandling.socketRecreationSignals
      ) { [unowned self] signal in
        if SignalHandling.socketRecreationSignals.contains(signal) {
          _ = self.listener?.recreateSocketFile(location: self.socketLocation)
          if signal == SIGHUP { self.loadTransitions() }
        } else {
          self.shutdown(signal: signal)
        }
      }
    }
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
      socketLocation = path
      listener = try Listener(loop: loop, path: path.path, logger: logger, onAccept: accept)
    }
    maxConnections = min(options.maxConnections, ResourceLimits.connectionCapacity())
    stopper = try Wakeup(loop: loop) { [unowned self] in self.shutdown(signal: SIGTERM) }
    var posted: LoopInbox?
    inboxWakeup = try Wakeup(loop: loop) { posted?.runPending() }
    inbox = LoopInbox(trigger: inboxWakeup!.trigger)
    posted = inbox
    largeLines = LargeLineDecoder(inbox: inbox)
    let workers = options.workers.map { StepWorkers(threads: $0) } ?? .shared
    environment = LoopEnvironment(loop: loop, inbox: inbox, workers: workers)
    var configuration = SessionHost.Configuration()
    configuration.version = options.version
    configuration.idleTimeout = options.idleTimeout
    if let budget = options.memoryBudget { configuration.memoryBudget = budget }
    configuration.reduceMotion = options.reduceMotion
    host = SessionHost(configuration: configuration, environment: environment)
    host.output = { [unowned self] messages in self.send(messages) }
    loadTransitions()
    environment.client = { [unowned self] peer in self.clients[peer] }
    trimmer = OneShotTimer(loop: loop) { [unowned self] _ in
      self.trimPending = false
      MemoryTrim.returnFreeMemory()
      // Closes went on meanwhile (a thousand clients leave over more than half a second): trim
      // again once they are done.
      if self.closesSinceTrim > 0 { self.scheduleMemoryTrim() }
      self.closesSinceTrim = 0
    }
  }

  /// Reads the transition documents of the directories anew (at start, and on SIGHUP):
  /// sessions keep the definitions they were opened with. What is refused is logged, each
  /// error with its file and JSON pointer.
  func loadTransitions() {
    let explicit = options.transitionDirectories
    var variables: [String: String] = [:]
    for name in ["XDG_DATA_HOME", "HOME", "XDG_DATA_DIRS"] {
      if let value = getenv(name) { variables[name] = String(cString: value) }
    }
    let directories = explicit ?? DocumentDirectories.defaults(variables)
    var (documents, problems) = DocumentDirectories.load(
      directories, missingIsFine: explicit == nil)
    problems += host.replaceDocuments(documents)
    for problem in problems { logger.warning("transition documents: \(problem)") }
    let names = host.documentNames
    let listed = names.isEmpty ? "" : ": " + names.joined(separator: ", ")
    logger.info(
      "\(names.count) transition documents\(listed) (from \(directories.joined(separator: ", ")))")
  }

  /// Runs until SIGTERM or SIGINT.
  public func run() throws {
    if !SessionHost.boundedPairFinderInUse {
      logger.error(
        """
        Box2D does not call dynd's pair finder (libbox2d binds its own: built with \
        -Bsymbolic-functions or LTO?): one internal step is not bounded as PROTOCOL.md section \
        12 says
        """)
    }
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
    guard connectionsByPID[peer.pid, default: 0] < Limits.maxConnectionsPerClient else {
      refuse(
        fd,
        "pid \(peer.pid) has \(Limits.maxConnectionsPerClient) connections open, the most one "
          + "client may hold")
      return
    }
    guard clients.count < maxConnections || evictIdlestClient() else {
      refuse(
        fd,
        "\(maxConnections) clients are connected, dynd's most, and none is idle (each has a "
          + "request in progress, output queued or a session it watches)")
      return
    }
    if refusedConnections > 0 {
      logger.info("accepting connections again; \(refusedConnections) were refused")
      refusedConnections = 0
    }
    if clients.count < maxConnections && evictionsInEpisode > 0 {
      logger.info(
        "a slot was free again; \(evictionsInEpisode) idle connections gave way meanwhile")
      evictionsInEpisode = 0
    }
    adopt(fd, peer)
  }

  /// Every slot is taken: the connection idle longest gives way to a new one. Idle is a client
  /// with no request in progress or waiting, no output queued and no session watched (its own
  /// included): closing it loses nothing of the host's. It reads an `evicted` error, then end
  /// of file. Returns false if no client is idle. A client already closing still holds its
  /// slot until it has closed, so each new connection makes one room of its own.
  private func evictIdlestClient() -> Bool {
    var idlest: Client?
    for client in clients.values
    where client.lastActivity < idlest?.lastActivity ?? .seconds(Int64.max) && client.isQuiet
      && host.isIdle(client.id)
    {
      idlest = client
    }
    guard let idlest else { return false }
    let idle = MonotonicClock.now() - idlest.lastActivity
    let seconds = Double(idle.components.seconds) + Double(idle.components.attoseconds) * 1e-18
    if evictionsInEpisode == 0 {
      logger.notice(
        "\(maxConnections) clients are connected, dynd's most: the one idle longest (pid \(idlest.pid), idle \(idle)) gives way to a new one; further evictions are counted, not logged"
      )
    }
    evictions += 1
    evictionsInEpisode += 1
    idlest.evict(.evicted(connections: maxConnections, idleSeconds: seconds))
    return true
  }

  /// Idle connections closed to make room for new ones (`evictIdlestClient`), in all and since
  /// a slot was last free (logged once each such episode).
  private(set) var evictions = 0
  private var evictionsInEpisode = 0

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
    let client = makeClient(pid: peer.pid)
    var limits = Connection.Limits()
    limits.maxLineLength = options.maxLine
    limits.stalledReaderTimeout = options.stalledReaderTimeout
    client.attach(
      Connection(
        loop: loop, socket: fd, peer: peer, limits: limits, outputBudget: outputBudget,
        logger: logger, delegate: client))
    logger.debug("client \(client.id) connected (pid \(peer.pid))")
    return client
  }

  /// A new client of process `pid`, known to the host; its connection is attached by the caller.
  func makeClient(pid: Int32) -> Client {
    let client = Client(
      id: PeerID(nextClientID), pid: pid, owner: self, loop: loop, largeLines: largeLines)
    nextClientID += 1
    host.connect(client.id, pid: pid)
    clients[client.id] = client
    return client
  }

  /// `client` read a request: the host applies it, and what it answers goes out (the reply to
  /// `client` may come later, through the host's output).
  func client(_ client: Client, sent request: Request) {
    send(host.apply(request, from: client.id))
  }

  /// `client`'s backed-up output drained: the host goes on with what waited for it (a `step`).
  func clientOutputDrained(_ client: Client) {
    send(host.outputDrained(client.id))
  }

  func client(_ client: Client, wroteNonFinite count: Int) { clientNonFinite += count }

  func clientDidClose(_ client: Client) {
    if clients.removeValue(forKey: client.id) != nil, let count = connectionsByPID[client.pid] {
      connectionsByPID[client.pid] = count > 1 ? count - 1 : nil
    }
    send(host.disconnect(client.id))
    scheduleMemoryTrim()
    logger.debug("client \(client.id) disconnected")
    if shuttingDown && clients.isEmpty { loop.stop() }
  }

  // MARK: output

  /// Sends the host's messages: each is encoded once and its bytes handed to every recipient;
  /// each connection gets what the batch holds for it in one write.
  func send(_ messages: [Outgoing]) {
    guard !messages.isEmpty else { return }
    var touched: [Client] = []
    batchNumber &+= 1
    for outgoing in messages {
      encoder.removeAll()
      encoder.encode(outgoing.message)
      if case .event(.closed) = outgoing.message { scheduleMemoryTrim() }
      encoder.withBytes { bytes in
        for recipient in outgoing.recipients {
          guard let client = clients[recipient.peer] else { continue }
          if client.batch != batchNumber {
            client.batch = batchNumber
            touched.append(client)
            client.beginBatch()
          }
          client.deliver(outgoing.message, encoded: bytes, recipient.delivery)
        }
      }
    }
    for client in touched { client.endBatch() }
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

  // MARK: shutdown

  private func shutdown(signal: Int32) {
    guard !shuttingDown else { return }
    shuttingDown = true
    logger.info("signal \(signal): shutting down")
    listener?.close()
    send(host.shutdown(reason: signal == SIGINT ? "interrupted" : "terminated"))
    for client in clients.values { client.connection.closeAfterFlush() }
    // Stop as soon as every connection has flushed, or when the drain time is up.
    if clients.isEmpty {
      loop.stop()
    } else {
      loop.stop(after: options.shutdownDrain)
    }
  }
}
