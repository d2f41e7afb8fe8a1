import Glibc

/// Whether a connection's peer is reading what is queued for it: `onStall` is called once the
/// peer has read nothing for `timeout`.
///
/// libevent's write timeout cannot tell: it restarts only when the socket takes more bytes, and a
/// Unix stream socket is writable again only once its peer has read about three quarters of the
/// send buffer (`unix_writable`: a quarter of `SO_SNDBUF` left, ~160 KiB of the default
/// 208 KiB). A peer reading 3 KB/s let the daemon write once a minute, and was closed as one
/// that reads nothing. So progress is sampled instead, every eighth of `timeout`: the peer has
/// read if the daemon wrote more since the last sample (the socket took bytes: the output
/// buffer drained, even partly), or if the kernel holds fewer bytes unread for it (`SIOCOUTQ`).
/// The kernel frees what the daemon wrote one write at a time, once the peer has read all of
/// it; each write is at most `Connection.largestWrite` (16 KiB), so a peer that reads at least
/// that much per `timeout` (550 bytes a second at 30 s) is never taken for one that stopped.
final class ReaderProgress {
  private let loop: EventLoop
  private let socket: Int32
  /// Bytes written to the socket so far (never less than before).
  private let written: () -> Int
  private var timeout = Duration.zero
  private var onStall: () -> Void = {}
  private var timer: OneShotTimer?
  private var lastWritten = 0
  private var lastUnread = 0
  private var lastProgress = Duration.zero

  /// Watches `socket`; `written` tells how many bytes have been written to it so far.
  init(loop: EventLoop, socket: Int32, written: @escaping () -> Int) {
    self.loop = loop
    self.socket = socket
    self.written = written
  }

  /// Whether a watch is running.
  var isWatching: Bool { timer?.isScheduled == true }

  /// Starts watching (again) from now: `onStall` runs once the peer has read nothing for
  /// `timeout`, unless `stop()` comes first.
  func start(timeout: Duration, onStall: @escaping () -> Void) {
    self.timeout = timeout
    self.onStall = onStall
    lastWritten = written()
    lastUnread = unreadByPeer()
    lastProgress = MonotonicClock.now()
    let timer = self.timer ?? OneShotTimer(loop: loop) { [unowned self] _ in self.sample() }
    self.timer = timer
    timer.schedule(after: timeout / 8)
  }

  func stop() {
    timer?.cancel()
    onStall = {}
  }

  private func sample() {
    let now = MonotonicClock.now()
    let written = written()
    let unread = unreadByPeer()
    if written > lastWritten || unread < lastUnread { lastProgress = now }
    lastWritten = written
    lastUnread = unread
    guard now - lastProgress < timeout else {
      let stalled = onStall
      stop()
      return stalled()
    }
    timer?.schedule(after: timeout / 8)
  }

  /// What the kernel holds of the daemon's writes that the peer has not read (in the kernel's
  /// accounting: whole buffers, with their overhead), or 0 if the socket cannot tell.
  private func unreadByPeer() -> Int {
    var unread: Int32 = 0
    guard ioctl(socket, UInt(TIOCOUTQ), &unread) == 0 else { return 0 }
    return Int(unread)
  }
}
