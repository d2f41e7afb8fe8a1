internal import CLibevent
import Glibc

/// Process-wide signal dispositions the daemon sets before anything else.
public enum SignalHandling {
  /// Ignores SIGPIPE for the whole process. Call first thing, before the first write.
  ///
  /// libevent writes with `write`/`writev`, which raise SIGPIPE when the peer has gone; the
  /// default action would kill the daemon (exit status 141) whenever a client disconnects with
  /// replies pending. Ignored, the write fails with `EPIPE` and that connection alone closes.
  public static func ignoreSIGPIPE() {
    _ = signal(SIGPIPE, SIG_IGN)
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
