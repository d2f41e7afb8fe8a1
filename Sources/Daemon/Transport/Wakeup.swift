internal import CLibevent
import Glibc

/// Lets any thread make a handler run on the loop thread.
///
/// libevent is used without its thread support, so no other thread may touch the loop. A `Wakeup`
/// is registered on the loop thread with a handler; its `trigger` is `Sendable` and may be fired
/// from anywhere: it writes one byte to a socket pair whose other end the loop watches. Fires that
/// arrive before the handler runs are coalesced into one call. Used by tests to stop a loop
/// running on a dedicated thread, and available to the daemon for the same purpose.
public final class Wakeup {
  /// The thread-safe half of a `Wakeup`.
  public final class Trigger: Sendable {
    private let fd: Int32

    fileprivate init(fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// Asks the loop to run the handler. Never blocks; safe after the `Wakeup` is gone (it then
    /// does nothing).
    public func fire() {
      var byte: UInt8 = 1
      // MSG_NOSIGNAL: once the loop side is closed this is EPIPE, never SIGPIPE.
      _ = send(fd, &byte, 1, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }
  }

  /// Fire this from any thread.
  public let trigger: Trigger

  private let loop: EventLoop
  private let handler: () -> Void
  private let readFD: Int32
  private var event: OpaquePointer?

  /// Registers a wakeup whose handler runs on `loop`'s thread.
  public init(loop: EventLoop, handler: @escaping () -> Void) throws(TransportError) {
    loop.assertOnLoopThread()
    var fds: [Int32] = [-1, -1]
    let type = SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue
    guard socketpair(AF_UNIX, Int32(type), 0, &fds) == 0 else {
      throw .system("socketpair for a loop wakeup")
    }
    self.loop = loop
    self.handler = handler
    readFD = fds[0]
    trigger = Trigger(fd: fds[1])
    let event = loop.makeEvent(
      fd: readFD, what: EV_READ | EV_PERSIST, context: Unmanaged.passUnretained(self).toOpaque()
    ) { _, _, context in
      Unmanaged<Wakeup>.fromOpaque(context!).takeUnretainedValue().drain()
    }
    self.event = event
    _ = event_add(event, nil)
  }

  deinit {
    if let event { event_free(event) }
    close(readFD)
  }

  private func drain() {
    var scratch = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    while withUnsafeMutableBytes(of: &scratch, { read(readFD, $0.baseAddress, $0.count) }) > 0 {}
    handler()
  }
}
