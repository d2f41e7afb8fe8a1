internal import CLibevent
import Glibc

/// Process-wide signal dispositions the daemon sets before anything else.
///
/// What dynd does with every signal whose default action would end or stop it (signal(7)):
///
/// - SIGTERM, SIGINT, SIGQUIT (terminate, core): shut down cleanly (`shutdownSignals`, watched by
///   the server with a `SignalHandler`).
/// - SIGHUP, SIGUSR1 (terminate): re-create the socket file if it is gone
///   (`Listener.recreateSocketFile()`, tmux's SIGUSR1); ignored until the server watches them, so
///   one that arrives during start-up does nothing.
/// - SIGPIPE (terminate): ignored; a write to a vanished peer is `EPIPE` for that connection alone.
/// - SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO (= SIGPOLL), SIGPWR, SIGSTKFLT and the real-time
///   signals SIGRTMIN…SIGRTMAX (terminate): ignored. dynd uses none of them (libevent's timers
///   are a timerfd; no `alarm`, no interval timers, no `O_ASYNC`), so one can only be stray. (The
///   Swift runtime's crash handler installs its own SIGUSR1/SIGUSR2/SIGPROF handlers while it
///   stops the threads of a crashing process; `SIG_IGN` does not hinder it.)
/// - SIGXFSZ (core): ignored; a log write past `RLIMIT_FSIZE` then fails with `EFBIG` instead of
///   killing the daemon.
/// - SIGTTIN, SIGTTOU (stop): ignored; dynd never reads its terminal, and a log line written to it
///   from the background of a shell with `stty tostop` must not freeze the daemon.
/// - SIGTSTP (stop): default; Ctrl-Z on a dynd in the foreground is a person's wish, SIGCONT
///   resumes it.
/// - SIGXCPU (core): default; it enforces an administrator's `RLIMIT_CPU`.
/// - SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS (core): default (the Swift runtime's
///   crash handler); faults must never be ignored, the process cannot continue past them.
/// - SIGKILL, SIGSTOP: cannot be caught or ignored.
///
/// A handler installed later (libevent's, through `SignalHandler`) replaces `SIG_IGN`; freeing it
/// restores `SIG_IGN`. Ignored dispositions survive `exec`, which dynd never does.
public enum SignalHandling {
  /// Ignores SIGPIPE for the whole process. Call first thing, before the first write.
  ///
  /// libevent writes with `write`/`writev`, which raise SIGPIPE when the peer has gone; the
  /// default action would kill the daemon (exit status 141) whenever a client disconnects with
  /// replies pending. Ignored, the write fails with `EPIPE` and that connection alone closes.
  public static func ignoreSIGPIPE() {
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// The signals the server watches with a `SignalHandler` to re-create its socket file:
  /// SIGHUP (the usual "re-open your files" signal) and SIGUSR1 (tmux's).
  public static let socketRecreationSignals: [Int32] = [SIGHUP, SIGUSR1]

  /// The signals the server watches with a `SignalHandler` to shut down cleanly.
  public static let shutdownSignals: [Int32] = [SIGTERM, SIGINT, SIGQUIT]

  /// The signals `ignoreUnusedSignals()` sets to `SIG_IGN`: every signal in the table above whose
  /// default action would end or stop dynd and that dynd does not use, and the
  /// `socketRecreationSignals` until the server watches them. Never a fault signal, never a
  /// shutdown signal, never SIGTSTP or SIGXCPU.
  public static var ignoredSignals: [Int32] {
    let named: [Int32] = [
      SIGHUP, SIGUSR1, SIGPIPE, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT,
      SIGXFSZ, SIGTTIN, SIGTTOU,
    ]
    // glibc reserves the first real-time signals for itself; these are the application's.
    return named + Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
  }

  /// Sets `SIG_IGN` for every signal in `ignoredSignals`, so that a stray signal neither kills
  /// nor stops the daemon and leaves its socket behind. Call first thing in `main`, before the
  /// server installs its own handlers (which then take over SIGHUP and SIGUSR1).
  public static func ignoreUnusedSignals() {
    for number in ignoredSignals { _ = signal(number, SIG_IGN) }
  }
}

/// Runs a closure on the loop thread when one of the given signals arrives.
///
/// Uses libevent signal events (`event_new` with `EV_SIGNAL | EV_PERSIST`; the `evsignal_new` macro
/// is not imported into Swift): libevent's own handler only writes to a socket pair, and the
/// closure runs later from the loop, where it may do anything the daemon does. For SIGTERM and
/// SIGINT the daemon stops accepting, broadcasts its shutdown event, drains briefly with
/// `EventLoop.stop(after:)`, unlinks the socket and exits 0.
///
/// Only one event base in a process may own signal events at a time (libevent 2.1). Freeing the
/// handler restores the previous dispositions.
public final class SignalHandler {
  /// The signals being watched.
  public let signals: [Int32]

  private let loop: EventLoop
  private let handler: (Int32) -> Void
  private var events: [OpaquePointer] = []

  /// Starts watching `signals` (by default SIGTERM and SIGINT).
  public init(
    loop: EventLoop, signals: [Int32] = [SIGTERM, SIGINT], handler: @escaping (Int32) -> Void
  ) {
    loop.assertOnLoopThread()
    self.loop = loop
    self.signals = signals
    self.handler = handler
    // A blocked signal is never delivered, and the mask is inherited across fork and exec: a
    // daemon started by a program that blocks SIGTERM in its threads would ignore SIGTERM.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    for number in signals { sigaddset(&unblocked, number) }
    _ = pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
    for number in signals {
      let event = loop.makeEvent(
        fd: number, what: EV_SIGNAL | EV_PERSIST,
        context: Unmanaged.passUnretained(self).toOpaque()
      ) { number, _, context in
        Unmanaged<SignalHandler>.fromOpaque(context!).takeUnretainedValue().handler(number)
      }
      _ = event_add(event, nil)
      events.append(event)
    }
  }

  deinit {
    for event in events { event_free(event) }
  }
}
