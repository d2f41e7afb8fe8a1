import DaemonSocket
import Glibc
import Logging
import Synchronization

/// Whether dynd answers, as the page connections find it: the log says once when dynd goes away
/// and once when it is back (each page says so too, and reconnects by itself), rather than a
/// line for every page's attempt.
public final class DaemonPresence: Sendable {
  private let reachable = Mutex<Bool?>(nil)
  let logger: Logger

  public init(logger: Logger) { self.logger = logger }

  /// A page connection reached dynd.
  public func found() {
    if reachable.withLock({ Self.exchange(&$0, true) }) == false {
      logger.notice("dynd is back; the pages reconnect and resume watching")
    }
  }

  /// A page connection could not reach dynd (`why`: the connection fault, for the log).
  public func lost(_ why: String) {
    if reachable.withLock({ Self.exchange(&$0, false) }) != false {
      logger.warning(
        "dynd is gone (\(why)); the pages say so and reconnect when it returns")
    }
  }

  /// dynd closed a page's connection: gone if its socket no longer answers.
  public func connectionEnded(_ socket: SocketLocation) {
    switch TrustedSocket.connect(socket) {
    case .success(let fd): close(fd)
    case .failure(let fault): lost(fault.sentence)
    }
  }

  private static func exchange(_ state: inout Bool?, _ new: Bool) -> Bool? {
    let old = state
    state = new
    return old
  }
}
