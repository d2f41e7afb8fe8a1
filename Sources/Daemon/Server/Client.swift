import Dynamics
import Logging
import Wire

/// One connected peer: decodes its lines, answers each request exactly once and in order, and
/// receives the events of the sessions it watches.
///
/// **Requests wait, the loop does not.** A request naming a session whose frames a worker is
/// computing is parked: reading this peer pauses, and the request runs once the session is
/// idle (`Session.waitUntilIdle`). Other peers are served meanwhile; this peer's later requests
/// wait behind it, so replies stay in order.
///
/// **Slow readers.** Realtime frames to a peer that is not reading are coalesced: while its
/// output holds more than `frameBacklog` bytes, frames and contact events are counted instead
/// of queued, and once the output drains the latest state goes out with `dropped` (frames) and
/// `dropped_contacts` (contact events) = the counts. A manual `step` is flow-controlled instead:
/// its next batch waits (and so does reading this peer's further requests) until the output
/// drains.
final class Client: ConnectionDelegate {
  /// Output beyond which realtime frames and contact events are coalesced.
  static let frameBacklog = 128 * 1024
  /// Output beyond which a manual `step` waits for the peer to read.
  static let stepBacklog = 128 * 1024

  let id: UInt64
  /// The peer's process (`SO_PEERCRED`), for per-client quotas.
  let pid: Int32
  private(set) var connection: Connection!
  unowned let server: Server
  private let decoder = RequestDecoder()
  var encoder = MessageEncoder()
  /// Per watched session: frames and contact events coalesced since this peer's last frame.
  private var dropped: [ObjectIdentifier: (frames: Int, contacts: Int)] = [:]
  /// Sessions this peer watches, so that leaving costs O(its own sessions).
  private(set) var watched: [ObjectIdentifier: Session] = [:]
  /// A manual step in progress: the request, its session, the frames left, the frame length,
  /// and whether a batch is being computed.
  var manualStep: (request: Request, session: Session, remaining: Int, dt: Double, busy: Bool)?
  /// A request waiting for its session's job to end.
  private var parked: Request?
  private var endOfInput = false

  init(id: UInt64, pid: Int32, server: Server) {
    self.id = id
    self.pid = pid
    self.server = server
  }

  func attach(_ connection: Connection) { self.connection = connection }

  func didStartWatching(_ session: Session) { watched[ObjectIdentifier(session)] = session }

  /// Whether a request of this peer is still being carried out (parked, or a step).
  private var isOccupied: Bool { parked != nil || manualStep != nil }

  // MARK: ConnectionDelegate

  func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer) {
    let request: Request
    do {
      request = try decoder.decode(Array(line))
    } catch {
      encoder.errorReply(error)
      flush()
      return
    }
    handle(request)
    flush()
  }

  func connectionLineTooLong(_ connection: Connection) {
    encoder.errorReply(id: nil, .lineTooLong(limit: server.options.maxLine))
    flush()
    connection.closeAfterFlush()
  }

  func connectionLineTimedOut(_ connection: Connection) {
    let seconds = connection.limits.lineTimeout.components
    encoder.errorReply(
      id: nil,
      .lineTimeout(seconds: Double(seconds.seconds) + Double(seconds.attoseconds) * 1e-18))
    flush()
    connection.closeAfterFlush()
  }

  func connectionOutputDidDrain(_ connection: Connection) {
    if manualStep != nil {
      continueStep()
      flush()
    }
    // The latest frame, coalesced like those before it, goes out now: `dropped` counts the ones
    // before it. Contact events left out with no frame left out wait for the next frame.
    for (key, counts) in dropped where counts.frames > 0 {
      guard let session = watched[key], !session.isClosed else { continue }
      dropped[key] = nil
      let p = session.published
      encoder.frame(
        session: session.name, seq: session.seq, t: p.t, items: p.states,
        dropped: counts.frames - 1, droppedContacts: counts.contacts, values: p.values)
    }
    flush()
  }

  func connectionDidReachEndOfInput(_ connection: Connection) {
    // A parked request or a step still owes its reply: close once it has finished.
    endOfInput = true
    if !isOccupied { connection.closeAfterFlush() }
  }

  func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
    manualStep = nil
    parked = nil
    server.clientDidClose(self)
  }

  // MARK: requests

  /// Handles `request` now, or parks it until its session's job is done.
  func handle(_ request: Request) {
    if let name = request.op.session, let session = server.sessions[name], session.isBusy {
      parked = request
      connection.pauseReading()
      session.waitUntilIdle { [weak self] in self?.resumeParked() }
      return
    }
    respond(to: request)
  }

  private func resumeParked() {
    guard let request = parked, connection.isOpen else { return }
    parked = nil
    handle(request)
    flush()
    if !isOccupied { resumeAfterRequest() }
  }

  /// Delivers the requests that arrived meanwhile and reads again. If the peer has ended its
  /// side, the connection reports that again once they are delivered, and this peer closes then.
  private func resumeAfterRequest() {
    connection.resumeReading()
  }

  // MARK: output

  /// Hands what was encoded to the connection.
  func flush() {
    guard !encoder.bytes.isEmpty else { return }
    if connection.isOpen { encoder.withBytes { _ = connection.send($0) } }
    encoder.removeAll()
  }

  func sendEvent(_ encode: (inout MessageEncoder) -> Void) {
    encode(&encoder)
    flush()
  }

  /// Whether realtime output to this peer is backed up (frames and contacts are coalesced).
  private var isBackedUp: Bool { connection.outputLength > Self.frameBacklog }

  /// Queues a frame encoded once for every recipient (`encoded`), or counts it when realtime
  /// output to this peer is backed up. Returns false when the frame was coalesced away.
  @discardableResult
  func sendFrame(session: Session, encoded: MessageEncoder, coalescible: Bool) -> Bool {
    let key = ObjectIdentifier(session)
    if coalescible && isBackedUp {
      dropped[key, default: (0, 0)].frames += 1
      connection.requestDrainNotification()
      return false
    }
    if let counts = dropped.removeValue(forKey: key) {
      let p = session.published
      encoder.frame(
        session: session.name, seq: session.seq, t: p.t, items: p.states,
        dropped: counts.frames, droppedContacts: counts.contacts, values: p.values)
      flush()
    } else if connection.isOpen {
      encoded.withBytes { _ = connection.send($0) }
    }
    return true
  }

  /// Queues a contact event, or counts it when realtime output to this peer is backed up (the
  /// count goes out as the next frame's `dropped_contacts`).
  func sendContact(_ contact: ContactEvent, session: Session, coalescible: Bool) {
    if coalescible && isBackedUp {
      dropped[ObjectIdentifier(session), default: (0, 0)].contacts += 1
      connection.requestDrainNotification()
      return
    }
    encoder.contact(contact, session: session.name)
    flush()
  }

  func forget(session: Session) {
    let key = ObjectIdentifier(session)
    dropped[key] = nil
    watched[key] = nil
  }

  // MARK: manual step

  /// Starts a manual step: frames are computed in batches on a worker and sent as they come;
  /// the reply follows the last.
  func beginStep(_ request: Request, session: Session, count: Int, dt: Double) {
    manualStep = (request, session, count, dt, false)
    connection.pauseReading()
    continueStep()
  }

  /// Runs the step's next batch, unless one is running or this peer's output is backed up
  /// (then it waits for the drain); replies after the last batch.
  func continueStep() {
    guard let step = manualStep, !step.busy else { return }
    if step.session.isClosed {
      manualStep = nil
      encoder.errorReply(
        id: step.request.id,
        ProtocolError(
          .unknownSession, "session '\(step.session.name)' was closed during the step"))
      flush()
      resumeAfterRequest()
      return
    }
    if step.remaining == 0 {
      manualStep = nil
      let p = step.session.published
      encoder.stepReply(id: step.request.id, t: p.t, running: p.running)
      flush()
      resumeAfterRequest()
      return
    }
    if connection.outputLength > Self.stepBacklog {
      connection.requestDrainNotification()
      return
    }
    manualStep?.busy = true
    step.session.waitUntilIdle { [weak self, session = step.session] in
      guard let self, self.manualStep?.session === session, !session.isClosed else {
        self?.manualStep?.busy = false
        self?.continueStep()
        return
      }
      session.runFrames(step.remaining, dt: step.dt, requester: self) { [weak self] done in
        guard let self, self.manualStep?.session === session else { return }
        self.manualStep?.remaining -= done
        self.manualStep?.busy = false
        self.flush()
        self.continueStep()
      }
    }
  }
}
