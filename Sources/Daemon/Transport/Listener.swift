internal import CLibevent
import Glibc
import Logging
import Synchronization

/// The daemon's listening socket, on a path it binds itself or on a socket systemd passed in.
///
/// Binding a path (tmux's recipe; protocol/PROTOCOL.md, “2. Socket location, permissions,
/// systemd”):
/// - The path length is checked before any system call.
/// - A `PATH.lock` file held with `flock` serialises the check-and-bind below between daemons
///   starting at the same moment; a second starter fails at once ("another dynd is starting").
///   The lock file is removed once the socket is listening.
/// - If something exists at the path: a socket that accepts a connection belongs to a live daemon
///   and the listener refuses to start ("another dynd is listening on PATH"); a socket that
///   refuses (`ECONNREFUSED`) is stale and is replaced; anything that is not a socket is never
///   deleted, and starting fails.
/// - The socket is bound under `umask(0177)`, so it is created with mode 0600, then `chmod`-ed to
///   0600 as well (the umask is process-wide; the chmod does not depend on it).
/// - On `close()` the socket file is unlinked, but only if it is still the inode this listener
///   bound. A socket received from systemd is never unlinked: systemd owns it.
///
/// Accepting: every new connection's peer credentials are read with `SO_PEERCRED` and checked with
/// `PeerCredentials.isAllowed(peerUID:serverUID:)`; a refused peer is logged with its pid and uid
/// and closed before the handler ever sees it.
///
/// The backlog is the system's maximum (`net.core.somaxconn`, `defaultBacklog`), as Go does, so
/// that a burst of clients connecting at once waits in the kernel's queue instead of failing with
/// `EAGAIN`.
///
/// When `accept` fails (out of descriptors, `EMFILE`/`ENFILE`, or out of memory) the listener
/// starts a failure episode: one warning, then accepting pauses with exponential back-off
/// (`initialRetryDelay`, doubling up to `maximumRetryDelay`) instead of spinning, and the next
/// successful accept ends the episode with one line saying how many attempts failed and how many
/// connections were turned away. Out of descriptors, it also uses the reserve-descriptor trick of
/// libuv and libev: the listener keeps one spare descriptor open (on `/dev/null`); on `EMFILE` it
/// closes it, accepts each pending connection and closes it at once (after reading what the
/// client already sent, so that the client sees a clean end of file rather than a reset), then
/// reopens the spare. Clients in the queue thus learn at once that they were not served, instead
/// of hanging until descriptors free up.
///
/// Re-creating the socket file: `recreateSocketFile()` binds the path again if the file this
/// listener bound was removed or replaced (tmux's SIGUSR1), with the checks of the start.
public final class Listener {
  /// Receives each accepted, permitted connection. The handler owns `socket` (non-blocking,
  /// close-on-exec): it must wrap it in a `Connection` or close it.
  public typealias AcceptHandler = (_ socket: Int32, _ peer: PeerCredentials) -> Void

  /// The socket's path (for an adopted socket: its bound name, if any).
  public let path: String?
  /// Whether this listener created the socket file, and so unlinks it on `close()`.
  public let ownsSocketFile: Bool
  /// Whether the listener is still registered with the loop.
  public var isListening: Bool { listener != nil }

  /// The first pause after `accept` fails.
  public static let initialRetryDelay: Duration = .milliseconds(100)
  /// The longest pause between attempts while `accept` keeps failing.
  public static let maximumRetryDelay: Duration = .seconds(1)
  /// Connections handed to the handler in one turn of the loop. libevent accepts every pending
  /// connection in one callback: 1 000 clients connecting at once held every other client's
  /// reply for 50-65 ms (about 50 µs each to set up). Beyond this many, accepted connections
  /// wait (as descriptors) and are handed over this many a turn, with what else is ready
  /// served between, and the listener stops accepting until they are all handed over. 128
  /// (about 6 ms of setup a turn), not fewer: a client connecting right after a storm of 200
  /// waits for every turn before its own (57 ms at 32 a turn).
  public static let acceptsPerTurn = 128

  /// The listen backlog `init(loop:path:)` uses: `net.core.somaxconn` (the kernel silently caps
  /// any larger backlog to it), else `SOMAXCONN`.
  public static var defaultBacklog: Int32 {
    guard let value = readSysctl("/proc/sys/net/core/somaxconn"), value > 0 else {
      return Int32(SOMAXCONN)
    }
    return Int32(clamping: value)
  }

  /// What `recreateSocketFile()` found and did.
  public enum SocketFileRecreation: Equatable, Sendable {
    /// The file this listener bound is still at the path; nothing was done.
    case intact
    /// The file was gone (or replaced by a stale socket): the path is bound and listening again.
    case recreated
    /// The socket was adopted (systemd's): its file is not ours to re-create.
    case notOwned
    /// The listener is closed.
    case notListening
    /// The path could not be bound again (a live daemon's socket or a non-socket is there, the
    /// directory is gone, …); the listener keeps serving its connected clients.
    case failed(TransportError)
  }

  /// Accept failures in the current episode (0 when accepting works).
  public var acceptFailures: Int { episode?.failures ?? 0 }

  private struct FailureEpisode {
    let started: ContinuousClock.Instant
    let firstError: Int32
    var failures = 0
    var turnedAway = 0
    var delay: Duration = Listener.initialRetryDelay
  }

  private let loop: EventLoop
  private let logger: Logger
  private let serverUID: uid_t
  private let onAccept: AcceptHandler
  private let backlog: Int32
  private var boundFile: FileIdentity?
  private var listener: OpaquePointer?
  private var socketFileRemoved = false
  private var retryTimer: OneShotTimer?
  private var episode: FailureEpisode?
  /// Connections handed over in the current turn, and those waiting for a later one
  /// (`acceptsPerTurn`).
  private var handedInTurn = 0
  private var waiting: [Int32] = []
  private var nextTurn: OneShotTimer?
  /// A descriptor on `/dev/null` given up on `EMFILE` to accept and close pending connections.
  private var spareDescriptor: Int32 = -1

  /// Binds and listens on `path` (see the type's documentation for the checks).
  ///
  /// Throws `.alreadyRunning` if a live daemon answers on the path, `.notASocket` if a non-socket
  /// file is there, `.pathTooLong`/`.invalidPath` for an unusable path, `.system` otherwise.
  public convenience init(
    loop: EventLoop,
    path: String,
    backlog: Int32 = Listener.defaultBacklog,
    logger: Logger = Logger(label: "dynd.transport"),
    onAccept: @escaping AcceptHandler
  ) throws(TransportError) {
    loop.assertOnLoopThread()
    let bound = try Self.bind(path: path, backlog: backlog, logger: logger)
    try self.init(
      loop: loop, fd: bound.fd, path: path, boundFile: bound.identity, backlog: backlog,
      logger: logger, onAccept: onAccept)
  }

  /// Listens on a socket that is already bound and listening, e.g. the one systemd passed (see
  /// `SocketActivation`). The listener closes it when done, but never unlinks its path.
  public convenience init(
    loop: EventLoop,
    adoptingListeningSocket fd: Int32,
    logger: Logger = Logger(label: "dynd.transport"),
    onAccept: @escaping AcceptHandler
  ) throws(TransportError) {
    loop.assertOnLoopThread()
    // evconnlistener requires a non-blocking socket; systemd's NonBlocking= is off by default.
    guard evutil_make_socket_nonblocking(fd) == 0, evutil_make_socket_closeonexec(fd) == 0 else {
      throw .system("cannot configure the listening socket \(fd)")
    }
    try self.init(
      loop: loop, fd: fd, path: UnixSocketAddress.boundPath(of: fd), boundFile: nil, backlog: 0,
      logger: logger, onAccept: onAccept)
  }

  private init(
    loop: EventLoop, fd: Int32, path: String?, boundFile: FileIdentity?, backlog: Int32,
    logger: Logger, onAccept: @escaping AcceptHandler
  ) throws(TransportError) {
    self.loop = loop
    self.path = path
    self.boundFile = boundFile
    self.ownsSocketFile = boundFile != nil
    self.backlog = backlog
    self.logger = logger
    self.serverUID = getuid()
    self.onAccept = onAccept
    guard let listener = register(fd, enabled: true) else {
      Glibc.close(fd)
      throw TransportError(.system, "cannot register the listening socket with libevent")
      // deinit runs and unlinks the file we bound.
    }
    self.listener = listener
    spareDescriptor = Self.openSpareDescriptor()
  }

  deinit {
    close()
  }

  /// Wraps the listening socket `fd` in an evconnlistener that calls this listener back.
  private func register(_ fd: Int32, enabled: Bool) -> OpaquePointer? {
    var flags = UInt32(LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC)
    if !enabled { flags |= UInt32(LEV_OPT_DISABLED) }
    // Backlog 0: the socket is already listening (we called listen(), or systemd did).
    guard
      let listener = evconnlistener_new(
        loop.base,
        { _, fd, _, _, context in
          Unmanaged<Listener>.fromOpaque(context!).takeUnretainedValue().accepted(fd)
        }, Unmanaged.passUnretained(self).toOpaque(), flags, 0, fd)
    else { return nil }
    evconnlistener_set_error_cb(listener) { _, context in
      // libevent calls this right after accept4 failed: errno is still its error.
      let code = errno
      Unmanaged<Listener>.fromOpaque(context!).takeUnretainedValue().acceptFailed(code)
    }
    return listener
  }

  private static func openSpareDescriptor() -> Int32 {
    open("/dev/null", O_RDONLY | O_CLOEXEC)
  }

  /// Stops accepting, closes the socket and, if this listener created the socket file, unlinks it.
  /// Connections already accepted are unaffected. Safe to call more than once.
  public func close() {
    retryTimer?.cancel()
    retryTimer = nil
    nextTurn?.cancel()
    nextTurn = nil
    for fd in waiting { Glibc.close(fd) }
    waiting = []
    if let listener {
      evconnlistener_free(listener)
      self.listener = nil
    }
    if spareDescriptor >= 0 {
      Glibc.close(spareDescriptor)
      spareDescriptor = -1
    }
    if let path, let boundFile, !socketFileRemoved {
      socketFileRemoved = true
      // Unlink only our own inode: never a socket someone put there after us.
      if FileIdentity(path: path) == boundFile {
        unlink(path)
      } else {
        logger.warning("socket \(path) is no longer the one this daemon bound; leaving it in place")
      }
    }
  }

  /// Binds the path again if the socket file this listener bound is gone or replaced, so that
  /// clients can find the daemon again (tmux re-creates its socket on SIGUSR1; dynd on SIGHUP and
  /// SIGUSR1). Call on the loop thread. Logs what it found and did, and returns it.
  ///
  /// The checks are those of the start (`init(loop:path:)`): the startup lock, a live daemon's
  /// socket at the path is never taken (another dynd started meanwhile keeps its socket; this one
  /// goes on serving its connected clients), a stale socket is replaced, and anything that is not
  /// a socket is never deleted. Connections waiting in the old socket's queue are accepted before
  /// it is closed. An adopted socket (systemd's) is left alone: its unit re-creates it.
  ///
  /// - Parameter location: the socket path as resolution gave it, whose directory is prepared
  ///   again as at the start (`SocketPath.prepareDirectory(userID:)`: a removed directory is
  ///   created again, mode 0700, and checked); nil leaves the directory as it is.
  @discardableResult
  public func recreateSocketFile(location: SocketPath? = nil) -> SocketFileRecreation {
    loop.assertOnLoopThread()
    guard let path, let boundFile else {
      logger.info("the socket came from the service manager; it re-creates the file, not dynd")
      return .notOwned
    }
    guard let oldListener = listener else { return .notListening }
    let current = FileIdentity(path: path)
    if current == boundFile {
      logger.info("socket \(path) is in place; nothing to re-create")
      return .intact
    }
    let bound: (fd: Int32, identity: FileIdentity)
    do throws(TransportError) {
      try location?.prepareDirectory(userID: getuid())
      bound = try Self.bind(path: path, backlog: backlog, logger: logger)
    } catch {
      logger.warning(
        "socket \(path) is \(current == nil ? "gone" : "no longer ours") and cannot be re-created: \(error.message); connected clients are still served"
      )
      return .failed(error)
    }
    // Connections already queued on the old socket are served, not reset by its close.
    let oldFD = evconnlistener_get_fd(oldListener)
    while true {
      // (Glibc does not import accept4; dynd never execs, so the flags may follow.)
      let fd = accept(oldFD, nil, nil)
      if fd >= 0 {
        _ = evutil_make_socket_closeonexec(fd)
        _ = evutil_make_socket_nonblocking(fd)
        accepted(fd)
      } else if errno != EINTR && errno != ECONNABORTED {
        break
      }
    }
    let paused = retryTimer?.isScheduled == true
    guard let newListener = register(bound.fd, enabled: !paused) else {
      Glibc.close(bound.fd)
      unlink(path)
      let error = TransportError(.system, "cannot register the listening socket with libevent")
      logger.warning("socket \(path) cannot be re-created: \(error.message)")
      return .failed(error)
    }
    evconnlistener_free(oldListener)  // closes the old socket
    listener = newListener
    self.boundFile = bound.identity
    logger.notice("socket \(path) was \(current == nil ? "gone" : "replaced"); re-created it")
    return .recreated
  }

  private func accepted(_ fd: Int32) {
    if handedInTurn >= Self.acceptsPerTurn || !waiting.isEmpty {
      waiting.append(fd)
      if waiting.count == 1 { waitForNextTurn() }
      return
    }
    handedInTurn += 1
    if handedInTurn == 1 { waitForNextTurn() }
    admit(fd)
  }

  /// Checks `fd`'s peer and hands it to the handler.
  private func admit(_ fd: Int32) {
    if let episode {
      self.episode = nil
      let lasted = milliseconds(ContinuousClock.now - episode.started)
      logger.info(
        "accepting connections again after \(episode.failures) failed attempts over \(lasted) ms (\(errnoDescription(episode.firstError))); \(episode.turnedAway) pending connections were closed unserved"
      )
    }
    guard let peer = PeerCredentials.of(socket: fd) else {
      logger.warning("refused a connection: the kernel reported no peer credentials")
      Glibc.close(fd)
      return
    }
    guard PeerCredentials.isAllowed(peerUID: peer.uid, serverUID: serverUID) else {
      logger.warning(
        "refused a connection from pid \(peer.pid) uid \(peer.uid): only uid \(serverUID) and root may connect"
      )
      Glibc.close(fd)
      return
    }
    onAccept(fd, peer)
  }

  /// Starts a new turn at the loop's next iteration (after what is ready now): hands over up to
  /// `acceptsPerTurn` waiting connections, and stops accepting while some still wait.
  private func waitForNextTurn() {
    if !waiting.isEmpty, let listener { _ = evconnlistener_disable(listener) }
    let timer =
      nextTurn
      ?? OneShotTimer(loop: loop) { [unowned self] _ in self.turnBegins() }
    nextTurn = timer
    timer.schedule(after: .zero)
  }

  private func turnBegins() {
    handedInTurn = 0
    guard !waiting.isEmpty else { return }
    let now = waiting.prefix(Self.acceptsPerTurn)
    waiting.removeFirst(now.count)
    handedInTurn = now.count
    waitForNextTurn()
    if waiting.isEmpty, let listener, episode == nil { _ = evconnlistener_enable(listener) }
    for fd in now {
      // The handler may close the listener (the daemon stopping): the rest are not served.
      if listener == nil { Glibc.close(fd) } else { admit(fd) }
    }
  }

  /// `accept` failed with `code` (libevent has already retried `EINTR`, `EAGAIN` and
  /// `ECONNABORTED`): one warning per episode, turn the queue away if out of descriptors, pause
  /// with back-off.
  private func acceptFailed(_ code: Int32) {
    guard let listener else { return }
    var episode = self.episode ?? FailureEpisode(started: .now, firstError: code)
    let starting = self.episode == nil
    episode.failures += 1
    if !starting {
      episode.delay = min(episode.delay * 2, Self.maximumRetryDelay)
    }
    let outOfDescriptors = code == EMFILE || code == ENFILE
    if outOfDescriptors {
      episode.turnedAway += turnAwayPendingConnections(evconnlistener_get_fd(listener))
    }
    self.episode = episode
    if starting {
      let limit = ResourceLimits.openFileLimit()
      let detail =
        outOfDescriptors
        ? " (the open file limit is \(limit)); pending connections are closed unserved and"
        : ";"
      logger.warning(
        "accept failed: \(errnoDescription(code))\(detail) accepting pauses \(Self.initialRetryDelay), doubling up to \(Self.maximumRetryDelay), until it works again"
      )
    }
    _ = evconnlistener_disable(listener)
    let timer =
      retryTimer
      ?? OneShotTimer(loop: loop) { [unowned self] _ in
        if let listener = self.listener { _ = evconnlistener_enable(listener) }
      }
    retryTimer = timer
    timer.schedule(after: episode.delay)
  }

  /// The reserve-descriptor trick: gives up the spare descriptor so that `accept` can succeed,
  /// closes every pending connection at once (reading what it sent first, so that its client
  /// sees end of file, not a reset), and takes the spare again. Returns how many it closed.
  private func turnAwayPendingConnections(_ listeningFD: Int32) -> Int {
    guard spareDescriptor >= 0 else { return 0 }
    Glibc.close(spareDescriptor)
    spareDescriptor = -1
    var closed = 0
    // Bounded, in case clients connect as fast as they are turned away.
    while closed < 4096 {
      let fd = accept(listeningFD, nil, nil)
      if fd < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        break
      }
      withUnsafeTemporaryAllocation(byteCount: 4096, alignment: 8) { scratch in
        var reads = 0
        while reads < 16, recv(fd, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT)) > 0 {
          reads += 1
        }
      }
      Glibc.close(fd)
      closed += 1
    }
    spareDescriptor = Self.openSpareDescriptor()
    if spareDescriptor < 0 {
      logger.debug("cannot reopen the spare descriptor: \(errnoDescription(errno))")
    }
    return closed
  }
}

extension Listener {
  /// The process umask is shared by all threads; this makes the set-bind-restore sequence atomic
  /// with respect to other listeners in the same process (tests bind many in parallel).
  private static let umaskLock = Mutex(())

  private static func bind(
    path: String, backlog: Int32, logger: Logger
  ) throws(TransportError) -> (fd: Int32, identity: FileIdentity) {
    let address = try UnixSocketAddress(path: path)

    let lockPath = path + ".lock"
    // O_NOFOLLOW: with --socket in a shared directory, a planted symlink must not redirect us.
    let lockFD = open(lockPath, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
    guard lockFD >= 0 else { throw .system("cannot create the lock file \(lockPath)") }
    defer { Glibc.close(lockFD) }
    guard flock(lockFD, LOCK_EX | LOCK_NB) == 0 else {
      if errno == EWOULDBLOCK {
        throw TransportError(.alreadyRunning, "another dynd is starting on \(path)")
      }
      throw .system("cannot lock \(lockPath)")
    }
    // Runs before the close above: the lock is still held while its file is removed.
    defer { unlink(lockPath) }

    try removeStaleSocket(path: path, address: address, logger: logger)

    let type = SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue
    let fd = socket(AF_UNIX, Int32(type), 0)
    guard fd >= 0 else { throw .system("cannot create a Unix socket") }
    let (rc, bindErrno) = umaskLock.withLock { _ in
      let previous = umask(0o177)
      defer { umask(previous) }
      let rc = address.withSockAddr { Glibc.bind(fd, $0, $1) }
      return (rc, errno)
    }
    guard rc == 0 else {
      Glibc.close(fd)
      if bindErrno == EADDRINUSE {
        throw TransportError(
          .alreadyRunning, "another process took \(path) while dynd was starting")
      }
      throw .system("cannot bind \(path)", errno: bindErrno)
    }
    guard chmod(path, 0o600) == 0, listen(fd, backlog) == 0,
      let identity = FileIdentity(path: path)
    else {
      let failure = TransportError.system("cannot listen on \(path)")
      Glibc.close(fd)
      unlink(path)
      throw failure
    }
    return (fd, identity)
  }

  private static func removeStaleSocket(
    path: String, address: UnixSocketAddress, logger: Logger
  ) throws(TransportError) {
    var info = stat()
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return }
      throw .system("cannot inspect \(path)")
    }
    guard info.st_mode & S_IFMT == S_IFSOCK else {
      throw TransportError(
        .notASocket, "\(path) exists and is not a socket; refusing to replace it")
    }
    let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard probe >= 0 else { throw .system("cannot create a Unix socket") }
    // Non-blocking, so a daemon with a full backlog answers EAGAIN instead of stalling us.
    _ = evutil_make_socket_nonblocking(probe)
    let rc = address.withSockAddr { connect(probe, $0, $1) }
    let connectErrno = errno
    Glibc.close(probe)
    if rc == 0 || connectErrno == EAGAIN || connectErrno == EINPROGRESS {
      throw TransportError(.alreadyRunning, "another dynd is listening on \(path)")
    }
    switch connectErrno {
    case ECONNREFUSED:
      guard unlink(path) == 0 || errno == ENOENT else {
        throw .system("cannot remove the stale socket \(path)")
      }
      logger.info("removed the stale socket \(path) left by a daemon that is gone")
    case ENOENT:
      return  // it went away by itself
    default:
      throw .system("cannot tell whether \(path) is in use", errno: connectErrno)
    }
  }
}

/// Whole milliseconds in `duration`.
func milliseconds(_ duration: Duration) -> Int64 {
  let (seconds, attoseconds) = duration.components
  return seconds * 1000 + attoseconds / 1_000_000_000_000_000
}

/// Device and inode of a path, to recognise the socket file we bound.
struct FileIdentity: Equatable {
  let device: UInt64
  let inode: UInt64

  init?(path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }
}
