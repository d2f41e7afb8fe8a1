import SessionHost
import Wire

/// One connected peer: its lines go to the session host, the host's messages to it.
///
/// **One request at a time.** A line is decoded and handed to the host; when the host's answer
/// holds no reply for it (the request waits for its session's job, or is a `step`), reading this
/// peer pauses until the reply comes, so replies stay in order and a peer cannot pile requests
/// up in memory. Other peers are served meanwhile.
///
/// **Slow readers.** Frames and contact events the host marks coalescible (a watcher's, not a
/// step's requester's) are counted instead of queued while this peer's output holds more than
/// `Limits.frameBacklog` bytes; once the output drains, the latest frame goes out with `dropped`
/// (frames) and `dropped_contacts` (contact events) = the counts. A `debug` event goes out only
/// with its frame.
final class Client: ConnectionDelegate {
  /// What a client tells the server that owns it: all it knows of it.
  protocol Owner: AnyObject {
    /// The client read a request: the host applies it.
    func client(_ client: Client, sent request: Request)
    /// The client's backed-up output drained: the host goes on with what waited for it.
    func clientOutputDrained(_ client: Client)
    /// The client's connection closed.
    func clientDidClose(_ client: Client)
    /// The client wrote `count` numbers that were not finite (as 0; must never happen).
    func client(_ client: Client, wroteNonFinite count: Int)
  }

  let id: PeerID
  /// The peer's process (`SO_PEERCRED`), for per-client quotas.
  let pid: Int32
  private(set) var connection: Connection!
  private unowned let owner: any Owner
  /// The loop the connection runs on (the hang-up check's timer).
  private let loop: EventLoop
  /// Where lines too long to parse on the loop are decoded.
  private let largeLines: LargeLineDecoder
  private let decoder = RequestDecoder()
  /// Bytes for the peer collected while a batch of messages is sent (one write per batch).
  private var corked: [UInt8] = []
  private var isCorked = false
  /// The server's batch this client's bytes are being collected for.
  var batch: UInt64 = 0
  /// The request the host has not replied to yet.
  private var awaitingReply = false
  /// When the peer last sent a line or was sent anything (`MonotonicClock`): how long it has
  /// been idle, for `Server`'s choice of the connection that gives way to a new one.
  private(set) var lastActivity = MonotonicClock.now()
  /// Per session: frames and contact events coalesced since this peer's last frame of it, and
  /// the latest such frame.
  private var dropped: [String: (frames: Int, contacts: Int, latest: Frame?)] = [:]

  init(
    id: PeerID, pid: Int32, owner: any Owner, loop: EventLoop, largeLines: LargeLineDecoder
  ) {
    self.id = id
    self.pid = pid
    self.owner = owner
    self.loop = loop
    self.largeLines = largeLines
  }

  func attach(_ connection: Connection) { self.connection = connection }

  // MARK: ConnectionDelegate

  func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer) {
    lastActivity = MonotonicClock.now()
    guard line.count < LargeLineDecoder.threshold else {
      // Parsing it would hold the loop: it is decoded on its own thread, this peer waiting.
      awaitingReply = true
      connection.pauseReading()
      watchForHangUp()
      largeLines.decode(Array(line)) { [weak self] result in
        guard let self, self.connection.isOpen else { return }
        self.awaitingReply = false
        self.handle(result)
        if self.awaitingReply { self.watchForHangUp() } else { self.connection.resumeReading() }
      }
      return
    }
    do throws(RejectedRequest) {
      handle(.success(try decoder.decode(line)))
    } catch {
      handle(.failure(error))
    }
    if awaitingReply {
      connection.pauseReading()
      watchForHangUp()
    }
  }

  /// Hands a decoded request to the host, or answers a refused one.
  private func handle(_ decoded: Result<Request, RejectedRequest>) {
    switch decoded {
    case .failure(let error):
      sendNow(.reply(Reply(id: error.id, error: error.error)))
    case .success(let request):
      awaitingReply = true
      owner.client(self, sent: request)
    }
  }

  func connectionLineTooLong(_ connection: Connection) {
    sendNow(.reply(Reply(id: nil, error: .lineTooLong(limit: connection.limits.maxLineLength))))
    connection.closeAfterFlush()
  }

  /// Whether nothing is under way for this peer on the transport's side: no request waits for
  /// its reply, nothing is queued for it, and the connection is open. (`SessionHost.isIdle`
  /// says whether it holds anything of the host's.)
  var isQuiet: Bool {
    connection.isOpen && !awaitingReply && corked.isEmpty && connection.outputLength == 0
  }

  /// Closes an idle connection to make room for a new one (`Server`): the peer reads `error`,
  /// a reply without `id`, then end of file.
  func evict(_ error: ProtocolError) {
    sendNow(.reply(Reply(id: nil, error: error)))
    connection.closeAfterFlush()
  }

  func connectionLineTimedOut(_ connection: Connection) {
    let seconds = connection.limits.lineTimeout.components
    let limit = Double(seconds.seconds) + Double(seconds.attoseconds) * 1e-18
    sendNow(.reply(Reply(id: nil, error: .lineTimeout(seconds: limit))))
    connection.closeAfterFlush()
  }

  func connectionOutputDidDrain(_ connection: Connection) {
    owner.clientOutputDrained(self)
    // The latest frame, coalesced like those before it, goes out now: `dropped` counts the ones
    // before it. Contact events left out with no frame left out wait for the next frame.
    let pending = dropped.filter { $0.value.frames > 0 && $0.value.latest != nil }
    guard !pending.isEmpty else { return }
    beginBatch()
    for (session, counts) in pending.sorted(by: { $0.key < $1.key }) {
      dropped[session] = nil
      var frame = counts.latest!
      frame.dropped = counts.frames - 1
      frame.droppedContacts += counts.contacts
      append(.event(.frame(frame)))
    }
    endBatch()
  }

  func connectionDidReachEndOfInput(_ connection: Connection) {
    // A request still owes its reply: the connection reports the end again once reading
    // resumes after it. A peer that only ended its sending side may still read it; one that
    // closed altogether never will, and its work (a long step) stops now, not when it is done.
    guard awaitingReply else { return connection.closeAfterFlush() }
    watchForHangUp()
  }

  /// How often a peer whose request is in progress is checked for having hung up.
  static let hangUpCheck = Duration.milliseconds(40)
  private var hangUpTimer: OneShotTimer?

  /// Checks every `hangUpCheck`, while a reply is owed, whether the peer has hung up; if it
  /// has, closes the connection, which closes the sessions it owns and stops their work (its
  /// reading is paused meanwhile, so its end of input alone would go unseen).
  private func watchForHangUp() {
    guard connection.isOpen, awaitingReply, hangUpTimer?.isScheduled != true else { return }
    let timer =
      hangUpTimer
      ?? OneShotTimer(loop: loop) { [weak self] _ in
        guard let self, self.connection.isOpen, self.awaitingReply else { return }
        if self.connection.peerHasHungUp { return self.connection.close() }
        self.watchForHangUp()
      }
    hangUpTimer = timer
    timer.schedule(after: Self.hangUpCheck)
  }

  func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
    hangUpTimer?.cancel()
    owner.clientDidClose(self)
  }

  // MARK: output

  /// Whether more than `bytes` are queued for this peer (then a drain notification comes).
  func isBackedUp(beyond bytes: Int) -> Bool {
    guard connection.isOpen else { return false }
    guard connection.outputLength + corked.count > bytes else { return false }
    connection.requestDrainNotification()
    return true
  }

  /// Starts collecting this peer's bytes; `endBatch` writes them at once.
  func beginBatch() { isCorked = true }

  /// Writes what the batch collected, in one send.
  func endBatch() {
    isCorked = false
    if !corked.isEmpty {
      lastActivity = MonotonicClock.now()
      if connection.isOpen { corked.withUnsafeBytes { _ = connection.send($0) } }
      corked.removeAll(keepingCapacity: corked.capacity <= 1 << 20)
    }
    if !awaitingReply { connection.resumeReading() }
  }

  /// Queues one message encoded once for every recipient (`encoded`), or coalesces it.
  func deliver(
    _ message: Outgoing.Message, encoded: UnsafeRawBufferPointer, _ delivery: Outgoing.Delivery
  ) {
    if delivery == .coalescible, dropped.isEmpty, !isBacklogged {
      corked.append(contentsOf: encoded)  // a watcher keeping up: the frame goes out as is
      return
    }
    if delivery == .always, dropped.isEmpty {
      // The common case, decided without looking into the message.
      if case .reply = message { awaitingReply = false }
      if case .event(.closed) = message {
      } else {
        corked.append(contentsOf: encoded)
        return
      }
    }
    switch message {
    case .reply:
      awaitingReply = false
    case .event(.frame(let frame)):
      if delivery == .coalescible && isBacklogged {
        let counts = dropped[frame.session] ?? (0, 0, nil)
        dropped[frame.session] = (counts.frames + 1, counts.contacts, frame)
        connection.requestDrainNotification()
        return
      }
      if let counts = dropped.removeValue(forKey: frame.session) {
        var frame = frame
        frame.dropped = counts.frames
        frame.droppedContacts += counts.contacts
        append(.event(.frame(frame)))
        return
      }
    case .event(.contact(let contact)) where delivery == .coalescible && isBacklogged:
      let counts = dropped[contact.session] ?? (0, 0, nil)
      dropped[contact.session] = (counts.frames, counts.contacts + 1, counts.latest)
      connection.requestDrainNotification()
      return
    case .event(.debug(let session, _, _, _)):
      if let counts = dropped[session], counts.frames > 0 { return }
    case .event(.closed(let session, _)):
      dropped[session] = nil
    default:
      break
    }
    corked.append(contentsOf: encoded)
  }

  private var isBacklogged: Bool {
    connection.outputLength + corked.count > Limits.frameBacklog
  }

  /// Encodes `message` for this peer alone.
  private func append(_ message: Outgoing.Message) {
    var encoder = MessageEncoder(capacity: 256)
    encoder.encode(message)
    encoder.withBytes { corked.append(contentsOf: $0) }
    if encoder.nonFiniteCount > 0 { owner.client(self, wroteNonFinite: encoder.nonFiniteCount) }
  }

  /// Sends one message of this peer's own (outside any batch).
  private func sendNow(_ message: Outgoing.Message) {
    beginBatch()
    append(message)
    endBatch()
  }
}

extension MessageEncoder {
  mutating func encode(_ message: Outgoing.Message) {
    switch message {
    case .reply(let reply): encode(reply)
    case .event(let event): encode(event)
    }
  }
}
