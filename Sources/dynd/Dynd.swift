import ArgumentParser
import Daemon
import Glibc
import Logging
import ReleaseInfo
import Wire

/// dynd: UIKit Dynamics sessions served over a Unix socket as JSON lines.
@main
struct Dynd: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dynd",
    abstract: "Serve UIKit Dynamics animators over a Unix socket (JSON lines).",
    discussion: """
      The socket is --socket PATH, else $DYND_SOCKET, else $XDG_RUNTIME_DIR/dynd/dynd.sock \
      (directory 0700), else /tmp/dynd-$UID/dynd.sock; a missing directory of the socket is \
      created 0700 (not its parents); a socket passed by systemd socket activation (LISTEN_FDS) \
      is served instead. The protocol is in protocol/PROTOCOL.md. \
      SIGTERM, SIGINT or SIGQUIT tells clients, drains at most 50 ms, removes the socket and \
      exits 0; SIGHUP or SIGUSR1 re-creates a removed socket file; other stray signals are ignored.

      Exit status: 0 stopped by SIGTERM, SIGINT or SIGQUIT; 64 usage (a bad option or value); \
      71 cannot serve (the socket or its directory cannot be created, the socket cannot be \
      bound, its directory is not private, --systemd without a passed socket); 75 another dynd \
      already serves the socket.

      Environment: DYND_SOCKET the socket path when --socket is not given; XDG_RUNTIME_DIR the \
      per-user runtime directory the default socket is in (when it is an absolute path); \
      LISTEN_PID, LISTEN_FDS a socket passed by systemd socket activation (descriptor 3; read \
      only when LISTEN_PID is dynd's pid, and unset).

      Files: $XDG_RUNTIME_DIR/dynd/dynd.sock the default socket, where dynd.socket listens; \
      /tmp/dynd-$UID/dynd.sock the default socket when XDG_RUNTIME_DIR is not set.
      """,
    version: releaseVersion)

  @Option(help: "Socket path (default: $DYND_SOCKET, then the per-user runtime directory).")
  var socket: String?

  // Numbers are parsed `.unconditional`ly, so that `--idle-timeout -1` is refused for its value,
  // not taken for a missing one.
  @Option(
    parsing: .unconditional,
    help: "Longest request line in bytes; longer ones get line_too_long and a close.")
  var maxLine: Int = 1 << 20

  @Option(
    parsing: .unconditional,
    help: "Seconds a kept session nobody watches may go without a request before it closes.")
  var idleTimeout: Double = 600

  @Option(
    parsing: .unconditional,
    help: "Threads that step realtime sessions and manual steps (default: one per core).")
  var workers: Int?

  @Option(
    parsing: .unconditional,
    help: """
      MiB all sessions together may hold, as counted from their items, shapes, behaviors and \
      rules; a request beyond it is busy (default: a quarter of physical memory, at most 8 GiB).
      """)
  var memoryBudget: Int?

  @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
  var logLevel: String = "info"

  @Option(
    name: .customLong("transitions"),
    help: ArgumentHelp(
      "A directory of transition documents (*.json), read at start and on SIGHUP; repeatable. "
        + "Default: dynd/transitions in $XDG_DATA_HOME, then in each of $XDG_DATA_DIRS.",
      valueName: "dir"))
  var transitionDirectories: [String] = []

  @Flag(
    help: "Require a socket from systemd socket activation (LISTEN_FDS; used even without this).")
  var systemd = false

  @Flag(
    help: ArgumentHelp(
      "Reduce motion in sessions that do not say otherwise: after a release, show where the "
        + "motion ends. Default: the desktop's gtk-enable-animations (GTK's settings.ini)."))
  var reduceMotion = false

  func validate() throws {
    guard Limits.maxLineBytes.contains(maxLine) else {
      throw ValidationError(
        "--max-line \(maxLine): must be between \(Limits.maxLineBytes.lowerBound) and "
          + "\(Limits.maxLineBytes.upperBound) bytes")
    }
    guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 31_536_000 else {
      throw ValidationError(
        "--idle-timeout \(Self.plain(idleTimeout)): must be a positive number of seconds (at most a year)"
      )
    }
    if let workers, !(1...256).contains(workers) {
      throw ValidationError("--workers must be between 1 and 256 (got \(workers))")
    }
    if let memoryBudget, !(16...(1 << 30)).contains(memoryBudget) {
      throw ValidationError(
        "--memory-budget must be between 16 and 1073741824 MiB (got \(memoryBudget))")
    }
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError(
        "--log-level '\(logLevel)': must be one of trace, debug, info, notice, warning, error, "
          + "critical")
    }
    if systemd && socket != nil {
      throw ValidationError("--systemd and --socket exclude each other: systemd passes the socket")
    }
    if socket != nil && SocketActivation.isActivated() {
      throw ValidationError(
        "--socket and a socket passed by the service manager (LISTEN_FDS) exclude each other")
    }
  }

  /// `-1` for -1.0: a number as it was most likely typed.
  static func plain(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }

  func run() throws {
    // Before anything else: a stray signal must neither kill nor stop the daemon.
    SignalHandling.ignoreUnusedSignals()
    let level = Logger.Level(rawValue: logLevel)!
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "dynd")
    let files = ResourceLimits.raiseOpenFileLimit()
    logger.info(
      "\(files); \(ResourceLimits.connectionCapacity(openFileLimit: files.soft)) descriptors left for connections"
    )
    var options = Server.Options()
    options.socketPath = socket
    // A socket passed by socket activation is served with or without --systemd (sd_listen_fds).
    options.systemd = systemd || SocketActivation.isActivated()
    options.maxLine = maxLine
    options.idleTimeout = .milliseconds(Int64((idleTimeout * 1000).rounded()))
    options.version = releaseVersion
    options.workers = workers
    options.memoryBudget = memoryBudget.map { $0 << 20 }
    options.transitionDirectories = transitionDirectories.isEmpty ? nil : transitionDirectories
    if reduceMotion {
      options.reduceMotion = true
      logger.info("reduced motion: on (--reduce-motion)")
    } else if let desktop = DesktopMotion.reduced() {
      options.reduceMotion = desktop.reduce
      logger.info(
        "reduced motion: \(desktop.reduce ? "on" : "off") (gtk-enable-animations in \(desktop.source))"
      )
    }
    do {
      let server = try Server(options: options, logger: logger)
      try server.run()
      // The socket is gone and every client has been told: end now, without tearing down the
      // sessions one by one (their worlds may be large, and a worker may still be stepping one).
      Glibc.exit(0)
    } catch let error as TransportError {
      FileHandleStderr.write("dynd: \(error.message)\n")
      throw ExitCode(error.code == .alreadyRunning ? 75 : 71)
    }
  }
}

/// Writes to standard error without Foundation.
enum FileHandleStderr {
  static func write(_ text: String) {
    var text = text
    text.withUTF8 { _ = Glibc.write(2, $0.baseAddress, $0.count) }
  }
}
