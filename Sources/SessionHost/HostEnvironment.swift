/// What a `SessionHost` needs from the program it runs in: threads for physics, a way back to
/// its own thread, timers, and whether a peer keeps up. The daemon provides them with its worker
/// pool and libevent loop (`Daemon/LoopEnvironment`); tests and the fuzzer with
/// `EmbeddedEnvironment`, where nothing happens until they say so.
///
/// Every method is called on the host's thread, except `post`, which workers call.
public protocol HostEnvironment: AnyObject {
  /// Monotonic time, counted from any fixed point (idle sessions, realtime gesture times).
  var now: Duration { get }
  /// How many workers `runOnWorker` has (a realtime tick is shared out among them).
  var workerCount: Int { get }
  /// Runs `work` on a worker thread, `due` work before `continuing` work. The work ends by
  /// `post`ing its result.
  func runOnWorker(_ priority: WorkPriority, _ work: @escaping () -> Void)
  /// Work a session may do on the host's thread instead of a worker, when its measured cost
  /// says it fits (a cheap manual step: a wake-up of a worker and of the loop would cost more
  /// than the frame). Zero: everything runs on workers.
  var inlineWorkBudget: Duration { get }
  /// Runs `body` on the host's thread soon. Callable from any thread.
  func post(_ body: @escaping () -> Void)
  /// A timer that fires on a grid of absolute deadlines while started: tick n is due
  /// `n · period` after `start()`. A tick the host's thread is too busy for is not fired late
  /// in a burst: the next firing covers every period that passed, and `fire` gets how many
  /// (1 when on time).
  func makeRepeatingTimer(period: Duration, _ fire: @escaping (_ periods: Int) -> Void)
    -> any HostTimer
  /// Whether `peer`'s unsent output is over `bytes`. When it is, the environment calls the
  /// host's `outputDrained(_:)` once it has drained.
  func isBackedUp(_ peer: PeerID, beyond bytes: Int) -> Bool
}

/// A repeating timer of a `HostEnvironment`.
public protocol HostTimer: AnyObject {
  func start()
  func stop()
}
