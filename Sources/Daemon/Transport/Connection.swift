internal import CLibevent
import Glibc
import Logging
import Wire

/// What a `Connection` reports to the code that owns the conversation (the daemon's client).
///
/// Every method is called on the loop thread, never re-entrantly from inside a `Connection`
/// method the delegate itself called.
public protocol ConnectionDelegate: AnyObject {
  /// One complete line, without its `\n`. The bytes are raw: a `\r` before the `\n` is part of the
  /// line, and nothing is validated (that is the codec's job). They are valid only during the call.
  func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer)

  /// The peer sent more than `maxLineLength` bytes without a newline (or a complete line longer
  /// than that). Called at most once per connection; no further line will be delivered (what the
  /// peer sends from now on is read and discarded). Write the error reply, then call
  /// `closeAfterFlush()`; if the connection is still open when this returns, the connection calls
  /// it itself. The close is a lingering one (see `Connection`), so the peer reads the reply.
  func connectionLineTooLong(_ connection: Connection)

  /// The peer started a line and did not finish it within `Limits.lineTimeout` (a stalled or
  /// deliberately slow client, "slowloris"). Called at most once per connection, instead of any
  /// further line; the rules of `connectionLineTooLong` apply: write the error reply (proposed
  /// code `line_timeout`), then call `closeAfterFlush()`. The default implementation closes
  /// without a reply.
  func connectionLineTimedOut(_ connection: Connection)

  /// The output buffer has drained to `outputLowWater` bytes or fewer, after a call to
  /// `requestDrainNotification()`. Resume flow-controlled work (e.g. a manual `step`) here.
  func connectionOutputDidDrain(_ connection: Connection)

  /// The peer ended its side (EOF), after its last line was delivered (even an unterminated
  /// one). It may still be reading: sends still work. Call `closeAfterFlush()` once nothing more
  /// is owed to it, e.g. at once, or when a flow-controlled `step` it asked for is complete.
  /// The default implementation calls `closeAfterFlush()` at once.
  func connectionDidReachEndOfInput(_ connection: Connection)

  /// The connection is closed and its socket released; called exactly once, whatever the cause.
  /// The connection drops its reference to the delegate after this call.
  func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason)
}

extension ConnectionDelegate {
  /// Default: close (lingering) without a reply.
  public func connectionLineTimedOut(_ connection: Connection) {
    connection.closeAfterFlush()
  }

  /// Default: nothing to resume.
  public func connectionOutputDidDrain(_ connection: Connection) {}

  /// Default: close once everything queued has been written.
  public func connectionDidReachEndOfInput(_ connection: Connection) {
    connection.closeAfterFlush()
  }
}

/// One client connection: a libevent bufferevent that reads bounded lines and writes bytes.
///
/// **Reading.** Lines end with `\n` and are delivered to the delegate as raw bytes. A line may be at
/// most `Limits.maxLineLength` bytes (without its `\n`); the read high watermark is set just above
/// that, so the input buffer never holds much more than one maximal line. When the limit is
/// exceeded the delegate hears `connectionLineTooLong` exactly once, no further line is delivered
/// and the connection closes once the reply is flushed (protocol/PROTOCOL.md, “1. Transport and
/// framing”; “8. Error codes”, `line_too_long`). A peer that has started a line must finish it
/// within `Limits.lineTimeout`, or the delegate hears `connectionLineTimedOut` and the connection
/// closes the same way; a peer with no partial line (say, a watcher that only reads) may stay
/// silent for ever. If the peer ends its side (EOF) with an unterminated last line, that line is
/// delivered too, so `printf '{"op":"hello"}' | socat - UNIX:…` gets its reply; then the
/// delegate hears `connectionDidReachEndOfInput` and decides when to close (a half-closed peer
/// still reads).
///
/// **Turns.** Buffered lines are delivered for at most `Limits.requestSlice` at a time (at least
/// one line); then the connection stops reading and waits for its next turn (`InputTurns`), after
/// the other connections waiting have had theirs, and with the sockets polled in between. Lines are delivered in order whatever the turns.
///
/// **Writing.** `send` appends to libevent's output buffer, which is flushed as the socket allows.
/// libevent does not bound that buffer (write high watermarks are not enforced for socket
/// bufferevents), so the caller decides with `outputLength` (coalescing realtime frames, pausing a
/// manual `step`) and can `requestDrainNotification()` to hear when it is low again.
///
/// **Back-pressure.** While more than `Limits.outputHighWater` bytes are queued, no further
/// line is delivered and the socket is not read, until the peer has read the output down to
/// `Limits.outputLowWater`: a peer that pipelines requests is paced by what it reads. A peer
/// that reads nothing for `Limits.stalledReaderTimeout` while that much is queued is closed
/// (`.stoppedReading`); what it reads is measured by `ReaderProgress`, so a peer that reads,
/// however slowly, is never taken for one that stopped. Each write to the socket is at most
/// `largestWrite` bytes, the step in which the kernel lets the daemon see a peer's reading. As
/// a last resort, a `send` that would take the buffer past `Limits.outputHardLimit` closes the
/// connection at once, and so may the daemon-wide `OutputBudget`; each says in its log line
/// what happened.
///
/// **Closing.** `closeAfterFlush()` stops reading, drops later sends, and frees the bufferevent
/// from its write callback once the output is empty (`bufferevent_free` itself would discard
/// pending output). A closing connection whose peer reads nothing (`ReaderProgress`) for
/// `Limits.flushTimeout` is closed anyway. `close()` closes at once, discarding output. Socket
/// errors close at once.
///
/// **Lingering close** (nginx's `lingering_close`). After a too-long or timed-out line the peer
/// may still be sending: closing a socket with unread input makes the kernel reset the
/// connection, and the peer's write fails with `EPIPE` and its read with `ECONNRESET`, often
/// before it has read its error reply. So from the moment the line is refused, everything the peer
/// sends is read and discarded; once the reply is flushed the connection shuts down its sending
/// side (`shutdown(SHUT_WR)`, so the peer reads the reply and then end of file) and keeps
/// discarding until the peer closes its side, for at most `Limits.lingerTime` (from the flush)
/// and `Limits.lingerBytes` (sent after the refused line), and only then closes.
///
/// **Lifetime.** The connection keeps itself alive (the `Unmanaged` retain that is the libevent
/// callback argument) until the bufferevent is freed, and keeps its delegate until
/// `connectionDidClose` has been delivered. The bufferevent is never touched after it is freed.
public final class Connection {
  /// Bounds for one connection.
  public struct Limits: Sendable, Equatable {
    /// The longest accepted line, in bytes, without its newline. Default 1 MiB (`dynd --max-line`).
    public var maxLineLength: Int
    /// Output beyond this many queued bytes closes the connection at once: a last resort, since
    /// back-pressure paces the replies to the peer's own requests. Default
    /// `Wire.Limits.maxConnectionOutput` (8 MiB).
    public var outputHardLimit: Int
    /// `connectionOutputDidDrain` fires, and lines held by back-pressure are delivered again, when
    /// at most this many bytes are queued. Default `Wire.Limits.outputLowWater` (64 KiB).
    public var outputLowWater: Int
    /// How long a closing connection waits for the peer to read anything before giving up (an
    /// idle timeout: whatever the peer reads restarts it, `ReaderProgress`). Default 5 s.
    public var flushTimeout: Duration
    /// How long a peer may take to finish a line it has started (from its first byte to its
    /// newline) before `connectionLineTimedOut`. Time while reading is paused by
    /// `pauseReading()` does not count. Zero or less: no limit. Default 10 s.
    public var lineTimeout: Duration
    /// After a refused line, the longest a lingering close waits for the peer to close its side
    /// once the reply is flushed. Default 2 s.
    public var lingerTime: Duration
    /// After a refused line, the most bytes a lingering close reads and discards before it gives
    /// up and closes. Default 16 MiB.
    public var lingerBytes: Int
    /// With more than this many bytes queued, no further line is delivered (back-pressure) until
    /// the output drains to `outputLowWater`. Default `Wire.Limits.outputHighWater` (1 MiB).
    public var outputHighWater: Int
    /// How long a peer with more than `outputHighWater` bytes queued may read nothing before
    /// the connection is closed (`.stoppedReading`); whatever it reads restarts the time
    /// (`ReaderProgress`). Zero or less: never. Default `Wire.Limits.stalledReaderTimeout`
    /// (30 s).
    public var stalledReaderTimeout: Duration
    /// The longest the connection delivers buffered lines in one turn of the loop (at least one
    /// line). Default `Wire.Limits.requestSlice` (2 ms).
    public var requestSlice: Duration

    /// Limits with the defaults given for each field.
    public init(
      maxLineLength: Int = Wire.Limits.defaultMaxLineBytes,
      outputHardLimit: Int = Wire.Limits.maxConnectionOutput,
      outputLowWater: Int = Wire.Limits.outputLowWater,
      flushTimeout: Duration = .seconds(5),
      lineTimeout: Duration = .seconds(10),
      lingerTime: Duration = .seconds(2),
      lingerBytes: Int = 16 << 20,
      outputHighWater: Int = Wire.Limits.outputHighWater,
      stalledReaderTimeout: Duration = Wire.Limits.stalledReaderTimeout,
      requestSlice: Duration = Wire.Limits.requestSlice
    ) {
      self.maxLineLength = maxLineLength
      self.outputHardLimit = outputHardLimit
      self.outputLowWater = outputLowWater
      self.flushTimeout = flushTimeout
      self.lineTimeout = lineTimeout
      self.lingerTime = lingerTime
      self.lingerBytes = lingerBytes
      self.outputHighWater = outputHighWater
      self.stalledReaderTimeout = stalledReaderTimeout
      self.requestSlice = requestSlice
    }
  }

  /// Why a connection closed.
  public enum CloseReason: Equatable, Sendable, CustomStringConvertible {
    /// The peer ended its side (EOF) and the connection closed after it, once flushed; or the
    /// peer could no longer be written to.
    case peerClosed
    /// `closeAfterFlush()` finished (including the lingering close after a refused line).
    case closedAfterFlush
    /// `close()` was called.
    case closedByCaller
    /// A `send` would have queued more than `Limits.outputHardLimit` bytes, or more than the
    /// daemon-wide `OutputBudget` allows.
    case outputLimitExceeded
    /// More than `Limits.outputHighWater` bytes were queued and the peer read none of them
    /// for `Limits.stalledReaderTimeout`.
    case stoppedReading
    /// While closing, the peer read nothing for `Limits.flushTimeout`; its output was dropped.
    case flushTimeout
    /// The socket failed with this errno (e.g. `ECONNRESET`, `EPIPE`).
    case error(Int32)

    public var description: String {
      switch self {
      case .peerClosed: "the peer closed the connection"
      case .closedAfterFlush: "closed after flushing"
      case .closedByCaller: "closed by the daemon"
      case .outputLimitExceeded: "output limit exceeded"
      case .stoppedReading: "the peer stopped reading its output"
      case .flushTimeout: "the peer stopped reading while the connection was closing"
      case .error(let code): "socket error: \(errnoDescription(code))"
      }
    }
  }

  private enum State {
    case open
    case closing
    case closed
  }

  /// The most bytes written to the socket in one system call. A Unix stream socket frees what
  /// was written one write at a time, once its peer has read all of it: this is the step in
  /// which the daemon can see a slow peer read (`ReaderProgress`). 16 KiB is libevent's own
  /// default for a bufferevent's writes; a single `send` of a large message would otherwise make
  /// buffers of 36 KiB (36 s for a peer reading 1 KB/s).
  public static let largestWrite = 16 << 10

  /// A number unique within the loop, for logs.
  public let id: UInt64
  /// The limits this connection enforces.
  public let limits: Limits
  /// Who is on the other end, if known (from the `Listener`).
  public let peer: PeerCredentials?
  /// The delegate; released after `connectionDidClose`.
  public private(set) var delegate: (any ConnectionDelegate)?

  private let loop: EventLoop
  private var logger: Logger
  private var state = State.open
  private var bufferEvent: OpaquePointer?
  private var selfRetain: Unmanaged<Connection>?
  /// Splits the input into lines (`Wire.LineReader`: each byte examined once however the input
  /// is chunked).
  private var reader: LineReader
  private var lineTooLongReported = false
  /// A line was refused (too long or too slow): input is read and discarded from now on.
  private var discardingInput = false
  private var discardedBytes = 0
  /// The lingering close has shut down the sending side and waits for the peer's end of file.
  private var lingering = false
  private var lingerTimer: OneShotTimer?
  /// Runs while the input holds a partial line; `lineTimeout` after the line's first byte.
  private var lineTimer: OneShotTimer?
  private var inputEnded = false
  /// Whether `EV_READ` is enabled, as this connection last set it (`updateReading`).
  private var readEnabled = true
  /// Lines are being delivered (`deliverLines` is on the stack).
  private var isDelivering = false
  /// Back-pressure: more than `outputHighWater` bytes were queued; no line is delivered until
  /// the output drains to `outputLowWater`.
  private var outputHeld = false
  /// The peer's reading is watched with `stalledReaderTimeout` (more than `outputHighWater`
  /// bytes were queued and have not drained to `outputLowWater` since).
  private var watchingForStall = false
  /// Bytes written to the socket so far: the output buffer's drains, and direct sends.
  private var bytesWritten = 0
  /// Watches the peer read while the output is backed up or being flushed at the close; made
  /// when first needed.
  private var readerProgress: ReaderProgress?
  /// Lines are left after a slice: the connection waits in `turns` for its next one.
  private var awaitingTurn = false
  /// The loop's turns, shared with its other connections.
  private let turns: InputTurns
  private var drainRequested = false
  private var drainCheckScheduled = false
  private var closingReason = CloseReason.closedAfterFlush

  /// The output budget shared with the daemon's other connections, if any.
  private let outputBudget: OutputBudget?
  /// This connection's entry in its output buffer's callbacks, which keep `bytesWritten` and
  /// `outputBudget` current.
  private var outputEntry: OpaquePointer?

  /// Takes ownership of the connected stream socket `fd` (it is closed with the connection) and
  /// starts reading from it. With an `outputBudget`, its queued output counts towards the budget.
  public init(
    loop: EventLoop,
    socket fd: Int32,
    peer: PeerCredentials? = nil,
    limits: Limits = Limits(),
    outputBudget: OutputBudget? = nil,
    logger: Logger = Logger(label: "dynd.transport"),
    delegate: any ConnectionDelegate
  ) {
    precondition(limits.maxLineLength > 0, "maxLineLength must be positive")
    precondition(limits.outputHardLimit > 0, "outputHardLimit must be positive")
    loop.assertOnLoopThread()
    self.loop = loop
    turns = loop.inputTurns
    self.limits = limits
    reader = LineReader(maxLineBytes: limits.maxLineLength)
    self.outputBudget = outputBudget
    self.peer = peer
    self.delegate = delegate
    self.id = loop.makeIdentifier()
    self.logger = logger
    self.logger[metadataKey: "connection"] = "\(id)"
    if let peer { self.logger[metadataKey: "peer_pid"] = "\(peer.pid)" }

    _ = evutil_make_socket_nonblocking(fd)
    guard
      let bufferEvent = bufferevent_socket_new(
        loop.base, fd, Int32(BEV_OPT_CLOSE_ON_FREE.rawValue))
    else {
      fatalError("libevent: bufferevent_socket_new failed (out of memory)")
    }
    self.bufferEvent = bufferEvent
    let retained = Unmanaged.passRetained(self)
    selfRetain = retained
    bufferevent_setcb(
      bufferEvent,
      { _, context in
        Unmanaged<Connection>.fromOpaque(context!).takeUnretainedValue().readable()
      },
      { _, context in
        Unmanaged<Connection>.fromOpaque(context!).takeUnretainedValue().writable()
      },
      { _, what, context in
        let code = errno
        Unmanaged<Connection>.fromOpaque(context!).takeUnretainedValue()
          .handleEvent(Int32(what), errno: code)
      },
      retained.toOpaque())
    // Every change to the output buffer (a queued message, a write to the socket) is counted:
    // what was written, for `ReaderProgress`, and what is queued, for the budget.
    outputEntry = evbuffer_add_cb(
      bufferevent_get_output(bufferEvent),
      { _, info, context in
        guard let info, let context else { return }
        let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
        connection.bytesWritten += Int(info.pointee.n_deleted)
        connection.outputBudget?.queued += Int(info.pointee.n_added) - Int(info.pointee.n_deleted)
      }, retained.toOpaque())
    _ = bufferevent_set_max_single_write(bufferEvent, Self.largestWrite)
    // Input may reach one byte past the longest line: enough to see the newline of a maximal
    // line, or to know that a line without one is too long. libevent stops reading at this mark
    // and resumes when deliverLines drains complete lines.
    bufferevent_setwatermark(bufferEvent, Int16(EV_READ), 0, limits.maxLineLength + 1)
    bufferevent_setwatermark(bufferEvent, Int16(EV_WRITE), max(0, limits.outputLowWater), 0)
    _ = bufferevent_enable(bufferEvent, Int16(EV_READ | EV_WRITE))
  }

  /// Whether `send` still queues output (not closing or closed).
  public var isOpen: Bool { state == .open }
  /// Whether the socket has been released.
  public var isClosed: Bool { state == .closed }
  /// Whether the peer has ended its side (EOF); it may still be reading.
  public var isInputEnded: Bool { inputEnded }

  /// Whether the peer has closed the connection altogether, not only ended its sending side
  /// (`POLLHUP`: a Unix stream socket reports it only once neither side can send to the other).
  /// After end of input this tells a peer that may still read its reply from one that is gone.
  public var peerHasHungUp: Bool {
    guard let bufferEvent else { return true }
    var entry = pollfd(fd: bufferevent_getfd(bufferEvent), events: Int16(POLLOUT), revents: 0)
    guard poll(&entry, 1, 0) == 1 else { return false }
    return entry.revents & Int16(POLLHUP | POLLERR) != 0
  }

  /// Bytes queued for the peer and not yet written: the caller's backpressure signal.
  public var outputLength: Int {
    guard let bufferEvent else { return 0 }
    return evbuffer_get_length(bufferevent_get_output(bufferEvent))
  }

  /// Queues `bytes` for the peer. Returns false, queueing nothing, if the connection is closing or
  /// closed, or if the bytes would take the output past `Limits.outputHardLimit` (the connection
  /// is then closed with `.outputLimitExceeded`, even if this one message alone is that large).
  @discardableResult
  public func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
    loop.assertOnLoopThread()
    guard state == .open, let bufferEvent else { return false }
    guard let base = bytes.baseAddress, bytes.count > 0 else { return true }
    let queued = outputLength
    if queued + bytes.count > limits.outputHardLimit {
      if bytes.count > limits.outputHardLimit {
        logger.warning(
          "closing the connection: a message of \(bytes.count) bytes is larger than the connection's output limit of \(limits.outputHardLimit) bytes by itself (\(queued) bytes were queued)"
        )
      } else {
        logger.warning(
          "closing the connection: \(queued) bytes are queued unread and a message of \(bytes.count) bytes would take them past the connection's output limit of \(limits.outputHardLimit) bytes"
        )
      }
      finish(.outputLimitExceeded)
      return false
    }
    if let budget = outputBudget, queued > budget.slowReaderBytes,
      budget.queued + bytes.count > budget.limit
    {
      logger.warning(
        "closing the connection: dynd's connections hold \(budget.queued) bytes of output together, \(bytes.count) more would pass the daemon's budget of \(budget.limit), and this connection has \(queued) bytes queued unread"
      )
      finish(.outputLimitExceeded)
      return false
    }
    // With nothing queued, write at once: queueing would cost the loop an extra turn and four
    // syscalls per message (enable EV_WRITE, wait, write, disable). Only what the socket does not
    // take is queued; a failed write queues everything, so libevent reports the error as before.
    // At most `largestWrite` bytes a call, as libevent writes.
    var written = 0
    if queued == 0 {
      let fd = bufferevent_getfd(bufferEvent)
      while written < bytes.count {
        let sent = Glibc.send(
          fd, base + written, min(bytes.count - written, Self.largestWrite), Int32(MSG_NOSIGNAL))
        if sent < 0 && (errno == EPIPE || errno == ECONNRESET) {
          // The peer is gone: queueing its replies would only cost memory until libevent noticed
          // (a peer that hung up with a thousand requests pipelined would get them all encoded).
          finish(.error(errno))
          return false
        }
        guard sent > 0 else { break }
        written += sent
      }
      bytesWritten += written
      if written == bytes.count { return true }
    }
    guard bufferevent_write(bufferEvent, base + written, bytes.count - written) == 0 else {
      fatalError("libevent: bufferevent_write failed (out of memory)")
    }
    if queued + bytes.count - written > limits.outputHighWater { watchForStall() }
    return true
  }

  /// Queues `bytes` for the peer; see `send(_: UnsafeRawBufferPointer)`.
  @discardableResult
  public func send(_ bytes: some Collection<UInt8>) -> Bool {
    if let sent = bytes.withContiguousStorageIfAvailable({ send(UnsafeRawBufferPointer($0)) }) {
      return sent
    }
    return Array(bytes).withUnsafeBytes { send($0) }
  }

  /// Queues the UTF-8 bytes of `text`; see `send(_: UnsafeRawBufferPointer)`.
  @discardableResult
  public func send(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { send(UnsafeRawBufferPointer($0)) }
  }

  /// Asks for one `connectionOutputDidDrain` call once at most `Limits.outputLowWater` bytes
  /// are queued. If that is already the case, the call comes from the loop shortly after.
  public func requestDrainNotification() {
    loop.assertOnLoopThread()
    guard state == .open else { return }
    drainRequested = true
    if outputLength <= limits.outputLowWater && !drainCheckScheduled {
      // libevent calls the write callback only after a write; with nothing to write, report from
      // the loop (never from inside this call).
      drainCheckScheduled = true
      loop.performSoon { [self] in
        drainCheckScheduled = false
        notifyDrainIfLow()
      }
    }
  }

  /// Stops reading and closes once everything queued has been written (or after
  /// `Limits.flushTimeout` without progress). Later sends are dropped. The libevent pattern:
  /// disable `EV_READ`, write low watermark 0, free in the write callback, because
  /// `bufferevent_free` alone would drop what is queued (<event2/bufferevent.h>: pending data
  /// "probably won't be flushed before the bufferevent is freed"). After a refused line this is
  /// the lingering close of protocol/PROTOCOL.md, “1. Transport and framing”.
  public func closeAfterFlush() {
    loop.assertOnLoopThread()
    beginClosing(inputEnded ? .peerClosed : .closedAfterFlush)
  }

  /// Closes now, discarding queued output.
  public func close() {
    loop.assertOnLoopThread()
    finish(.closedByCaller)
  }

  /// Stops delivering lines (and reading from the socket) until `resumeReading()`; the line
  /// being delivered when this is called is the last one. Used for flow control: the peer's
  /// further requests wait in the kernel and in libevent's bounded input buffer.
  public func pauseReading() {
    loop.assertOnLoopThread()
    guard !readingPaused else { return }
    readingPaused = true
    lineTimer?.cancel()  // the daemon holds the peer up: its line's time does not run
    updateReading()
  }

  /// Delivers the lines already buffered (in the connection's next turn: never from inside this
  /// call), then reads again.
  public func resumeReading() {
    loop.assertOnLoopThread()
    guard readingPaused else { return }
    readingPaused = false
    guard state == .open, !discardingInput, let bufferEvent else { return }
    // Resumed by the line being delivered, delivery simply goes on; otherwise what is buffered
    // waits for a turn.
    if !isDelivering
      && (reader.pendingByteCount > 0 || inputEnded
        || evbuffer_get_length(bufferevent_get_input(bufferEvent)) > 0)
    {
      // It waited for its own request, taking no turn meanwhile.
      requestTurn(fresh: true)
    } else {
      updateReading()
    }
  }

  /// Whether `pauseReading()` is in force.
  public private(set) var readingPaused = false

  // MARK: libevent callbacks

  private func readable() {
    if discardingInput {
      discardInput()
      return
    }
    // Waiting (paused, held or for a turn): what was read stays in libevent's bounded buffer.
    guard state == .open, !inputEnded, !readingPaused, !outputHeld, !awaitingTurn else { return }
    // Past the loop's slice for read callbacks, wait for a turn: ahead of the pipelining
    // connections if this one sent a single request (a `hello` in a crowd of pipeliners).
    guard turns.mayServeDirectly else { return requestTurn(fresh: !inputHoldsSeveralLines) }
    let start = MonotonicClock.now()
    serveInput()
    turns.servedDirectly(for: MonotonicClock.now() - start)
  }

  /// Called by `turns` when this connection's turn has come.
  func takeTurn() {
    guard awaitingTurn else { return }
    awaitingTurn = false
    serveInput()
    updateReading()
  }

  /// Whether what libevent has read holds two complete lines or more (the peer pipelines).
  /// Looks no further than the second newline.
  private var inputHoldsSeveralLines: Bool {
    guard let bufferEvent else { return false }
    let input = bufferevent_get_input(bufferEvent)
    var first = evbuffer_search(input, "\n", 1, nil)
    guard first.pos >= 0, evbuffer_ptr_set(input, &first, 1, EVBUFFER_PTR_ADD) == 0 else {
      return false
    }
    return evbuffer_search(input, "\n", 1, &first).pos >= 0
  }

  /// Waits for a turn of the loop to deliver buffered lines (and to report the end of input).
  private func requestTurn(fresh: Bool) {
    guard state == .open, !awaitingTurn else { return }
    awaitingTurn = true
    updateReading()
    turns.enqueue(self, fresh: fresh)
  }

  /// What `deliverLines` stopped at.
  private enum Delivery {
    /// Every complete line was delivered (a partial one may wait for its end).
    case allDelivered
    /// The slice is used up and lines are left.
    case sliceUsed
    /// More than `outputHighWater` bytes are queued.
    case outputBacklogged
    /// Reading was paused, or the connection is closing.
    case stopped
  }

  /// Delivers buffered lines for one slice, then waits for what stopped it: its next turn, the
  /// output to drain, or the delegate (`resumeReading`). Reports the end of input once every
  /// line is delivered.
  private func serveInput() {
    guard state == .open, !discardingInput, !readingPaused, !outputHeld else { return }
    switch deliverLines() {
    case .allDelivered:
      if inputEnded, state == .open, !readingPaused {
        delegate?.connectionDidReachEndOfInput(self)
      }
    case .sliceUsed:
      requestTurn(fresh: false)
    case .outputBacklogged:
      outputHeld = true
      watchForStall()
      updateReading()
    case .stopped:
      break
    }
  }

  /// Delivers the complete lines read so far, for at most `Limits.requestSlice` (at least one),
  /// while at most `Limits.outputHighWater` bytes are queued. At the end of input, the
  /// peer's unterminated last line is delivered too.
  ///
  /// What libevent read is moved into `reader` (one copy), which finds the newlines without
  /// rescanning (`evbuffer_readln` would rescan from the buffer's start on every read: O(n²) for
  /// a long line arriving in many small reads) and lends each line to the delegate in place.
  private func deliverLines() -> Delivery {
    guard let bufferEvent else { return .stopped }
    absorb(bufferevent_get_input(bufferEvent))
    // The reader is taken out while the delegate runs, so that nothing it calls can reach it.
    var reader = LineReader(maxLineBytes: 1)
    swap(&reader, &self.reader)
    isDelivering = true
    defer {
      swap(&reader, &self.reader)
      isDelivering = false
    }
    let start = MonotonicClock.now()
    var delivered = false
    while state == .open, !readingPaused, self.bufferEvent != nil {
      // Waiting for the output or for a turn, the daemon holds the peer up: its line's time
      // does not run.
      if outputLength > limits.outputHighWater {
        lineTimer?.cancel()
        return .outputBacklogged
      }
      // Only with input left: a connection that has none is done, not sent to the back.
      if delivered, reader.pendingByteCount > 0, MonotonicClock.now() - start >= limits.requestSlice
      {
        lineTimer?.cancel()
        return .sliceUsed
      }
      let found = reader.lendNextLine { line in
        delegate?.connection(self, didReceiveLine: line)
      }
      switch found {
      case .line:
        delivered = true
      case .tooLong:
        reportLineTooLong()
        return .stopped
      case nil:
        guard reader.pendingByteCount > 0 else {
          lineTimer?.cancel()
          return .allDelivered
        }
        guard inputEnded else {
          // A partial line: its time runs from its first byte, so a line that began in this
          // read (after one that ended) starts the clock again.
          startLineTimer(restart: delivered)
          return .allDelivered
        }
        // The peer's last line, unterminated.
        _ = reader.withRemainder { line in delegate?.connection(self, didReceiveLine: line) }
        return .allDelivered
      }
    }
    // Paused (or closing) with input left: the daemon holds the peer up, not the other way round.
    lineTimer?.cancel()
    return .stopped
  }

  /// Enables `EV_READ` exactly while input is wanted: lines may be delivered now (open, not
  /// paused, held or waiting for a turn), or a refused line's input is being discarded; never
  /// after the end of input.
  private func updateReading() {
    guard state != .closed, let bufferEvent else { return }
    let wanted =
      !inputEnded
      && (discardingInput
        || (state == .open && !readingPaused && !outputHeld && !awaitingTurn))
    guard wanted != readEnabled else { return }
    readEnabled = wanted
    if wanted {
      _ = bufferevent_enable(bufferEvent, Int16(EV_READ))
    } else {
      _ = bufferevent_disable(bufferEvent, Int16(EV_READ))
    }
  }

  /// More than `outputHighWater` bytes are queued: from now on, a peer that reads none of
  /// them for `stalledReaderTimeout` is closed.
  private func watchForStall() {
    guard !watchingForStall, limits.stalledReaderTimeout > .zero else { return }
    watchingForStall = true
    watchReading(for: limits.stalledReaderTimeout) { [unowned self] in
      logger.warning(
        "closing the connection: its peer has read nothing for \(limits.stalledReaderTimeout) while \(outputLength) bytes were queued for it (more than the high-water mark of \(limits.outputHighWater) bytes)"
      )
      finish(.stoppedReading)
    }
  }

  /// Calls `onStall` once the peer has read nothing for `timeout`, until `readerProgress` is
  /// stopped.
  private func watchReading(for timeout: Duration, onStall: @escaping () -> Void) {
    guard let bufferEvent else { return }
    let progress =
      readerProgress
      ?? ReaderProgress(loop: loop, socket: bufferevent_getfd(bufferEvent)) { [unowned self] in
        self.bytesWritten
      }
    readerProgress = progress
    progress.start(timeout: timeout, onStall: onStall)
  }

  /// The output drained to `outputLowWater`: the peer reads; held lines are delivered again.
  private func outputDrained() {
    guard outputLength <= limits.outputLowWater else { return }
    if watchingForStall {
      watchingForStall = false
      readerProgress?.stop()
    }
    if outputHeld {
      outputHeld = false
      requestTurn(fresh: false)
    }
  }

  /// Moves what libevent has read into the line reader.
  private func absorb(_ input: OpaquePointer?) {
    let length = evbuffer_get_length(input)
    guard length > 0 else { return }
    let count = Int(evbuffer_peek(input, -1, nil, nil, 0))
    withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
      let filled = Int(evbuffer_peek(input, -1, nil, vectors.baseAddress, Int32(count)))
      for vector in vectors.prefix(filled) {
        reader.append(UnsafeRawBufferPointer(start: vector.iov_base, count: vector.iov_len))
      }
    }
    evbuffer_drain(input, length)
  }

  private func startLineTimer(restart: Bool) {
    guard limits.lineTimeout > .zero else { return }
    if let lineTimer, lineTimer.isScheduled, !restart { return }
    let timer =
      lineTimer ?? OneShotTimer(loop: loop) { [unowned self] _ in self.lineTimedOut() }
    lineTimer = timer
    timer.schedule(after: limits.lineTimeout)
  }

  private func reportLineTooLong() {
    guard !lineTooLongReported, !discardingInput else { return }
    lineTooLongReported = true
    refuseInput()
    logger.info("line longer than \(limits.maxLineLength) bytes; closing after the reply")
    delegate?.connectionLineTooLong(self)
    if state == .open { beginClosing(.closedAfterFlush) }
  }

  private func lineTimedOut() {
    guard state == .open, !discardingInput, !readingPaused else { return }
    refuseInput()
    logger.info(
      "the peer left a line unfinished for \(limits.lineTimeout); closing the connection")
    delegate?.connectionLineTimedOut(self)
    if state == .open { beginClosing(.closedAfterFlush) }
  }

  /// No further line will be delivered: from now on input is read and discarded (the first half
  /// of the lingering close), so the peer is never stuck writing to a daemon that stopped reading.
  private func refuseInput() {
    discardingInput = true
    lineTimer?.cancel()
    updateReading()
    guard let bufferEvent else { return }
    // The refused line itself (up to a MiB nobody will read) does not count towards lingerBytes.
    let input = bufferevent_get_input(bufferEvent)
    evbuffer_drain(input, evbuffer_get_length(input))
  }

  private func discardInput() {
    guard let bufferEvent else { return }
    let input = bufferevent_get_input(bufferEvent)
    let length = evbuffer_get_length(input)
    evbuffer_drain(input, length)
    discardedBytes += length
    if discardedBytes > limits.lingerBytes && state != .closed {
      logger.info(
        "the peer sent over \(limits.lingerBytes) bytes after its refused line; closing without waiting for it"
      )
      finish(state == .closing ? closingReason : .closedAfterFlush)
    }
  }

  private func writable() {
    switch state {
    case .closing:
      if outputLength == 0 && !lingering { flushed() }
    case .open:
      outputDrained()
      notifyDrainIfLow()
    case .closed:
      break
    }
  }

  private func notifyDrainIfLow() {
    guard state == .open, drainRequested, outputLength <= limits.outputLowWater else { return }
    drainRequested = false
    delegate?.connectionOutputDidDrain(self)
  }

  private func handleEvent(_ what: Int32, errno code: Int32) {
    if what & BEV_EVENT_EOF != 0 && what & BEV_EVENT_READING != 0 && discardingInput {
      // The peer closed its side after a refused line: the lingering close is over once the
      // reply is out (if it is still being flushed, `flushed()` closes).
      inputEnded = true
      if lingering { finish(closingReason) }
    } else if what & BEV_EVENT_EOF != 0 && what & BEV_EVENT_READING != 0 {
      // The peer finished sending (libevent has stopped reading). Deliver its unterminated last
      // line; a half-closed peer can still read, so the delegate decides when to close.
      // Lines held (paused, by back-pressure or for a turn) are delivered, and the end
      // reported, when that wait ends.
      guard state == .open, !lineTooLongReported, !inputEnded else { return }
      inputEnded = true
      updateReading()
      guard !readingPaused, !outputHeld, !awaitingTurn else { return }
      serveInput()
    } else if what & BEV_EVENT_EOF != 0 {
      finish(.peerClosed)
    } else if what & BEV_EVENT_ERROR != 0 {
      finish(.error(code))
    }
  }

  // MARK: closing

  private func beginClosing(_ reason: CloseReason) {
    guard state == .open, let bufferEvent else { return }
    state = .closing
    closingReason = reason
    drainRequested = false
    lineTimer?.cancel()
    // A refused line keeps reading (and discarding) through the flush: see "Lingering close".
    updateReading()
    guard outputLength > 0 else {
      flushed()
      return
    }
    // The write callback now fires only when the output is empty; a peer that reads nothing
    // for `flushTimeout` bounds the wait (a slow reader still drains).
    bufferevent_setwatermark(bufferEvent, Int16(EV_WRITE), 0, 0)
    watchingForStall = false
    watchReading(for: limits.flushTimeout) { [unowned self] in
      logger.info(
        "the peer read nothing for \(limits.flushTimeout) while closing; dropping its output")
      finish(.flushTimeout)
    }
  }

  /// Everything queued has been written while closing: close, or, after a refused line whose
  /// peer has not closed its side, linger.
  private func flushed() {
    guard discardingInput, !inputEnded, let bufferEvent else {
      finish(closingReason)
      return
    }
    lingering = true
    // No more output: the peer reads the reply, then end of file.
    _ = shutdown(bufferevent_getfd(bufferEvent), Int32(SHUT_WR))
    _ = bufferevent_disable(bufferEvent, Int16(EV_WRITE))
    readerProgress?.stop()
    let timer = OneShotTimer(loop: loop) { [unowned self] _ in
      self.logger.debug(
        "the peer did not close its side within \(self.limits.lingerTime) of its refused line")
      self.finish(self.closingReason)
    }
    lingerTimer = timer
    timer.schedule(after: limits.lingerTime)
  }

  private func finish(_ reason: CloseReason) {
    guard state != .closed else { return }
    state = .closed
    lineTimer?.cancel()
    lingerTimer?.cancel()
    readerProgress?.stop()
    if let bufferEvent {
      if let outputEntry {
        let output = bufferevent_get_output(bufferEvent)
        evbuffer_remove_cb_entry(output, outputEntry)
        self.outputEntry = nil
        outputBudget?.queued -= evbuffer_get_length(output)
      }
      // Clears the callbacks at once; the socket is closed by libevent's finalizer on the loop.
      bufferevent_free(bufferEvent)
      self.bufferEvent = nil
    }
    logger.debug("connection closed: \(reason)")
    // Reported from the loop, so a delegate that caused the close (say, by a send past the limit)
    // is not re-entered. The closure keeps the connection alive until then.
    loop.performSoon { [self] in
      let delegate = self.delegate
      self.delegate = nil
      delegate?.connectionDidClose(self, reason: reason)
    }
    // Safe now: libevent holds no callback that could use the retained pointer.
    selfRetain?.release()
    selfRetain = nil
  }
}

/// Output queued for all the connections of one daemon together, and the bound on it: a peer
/// that is not reading (more than `slowReaderBytes` queued) is closed when more is sent to it
/// while the total is over `limit`. Each connection's own hard limit still applies.
public final class OutputBudget {
  /// Bytes all connections together may queue before slow readers are closed.
  public let limit: Int
  /// Queued bytes beyond which a connection counts as not reading.
  public let slowReaderBytes: Int
  /// Bytes queued now, in every connection given this budget.
  public internal(set) var queued = 0

  public init(limit: Int, slowReaderBytes: Int) {
    self.limit = limit
    self.slowReaderBytes = slowReaderBytes
  }
}
