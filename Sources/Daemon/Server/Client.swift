import Logging
import Wire

/// One connected peer: decodes its lines, answers each request exactly once and in order, and
/// receives the events of the sessions it watches.
///
/// Realtime frames to a peer that is not reading are coalesced: while its output holds more than
/// `frameBacklog` bytes, frames are counted instead of queued, and once the output drains the
/// latest state goes out with `dropped` = the count. A manual `step` is flow-controlled instead:
/// stepping pauses (and so does reading this peer's further requests) until its output drains.
final class Client: ConnectionDelegate {
  /// Output beyond which realtime frames are coalesced.
  static let frameBacklog = 128 * 1024
  /// Output beyond which a manual `step` waits for the peer to read.
  static let stepBacklog = 128 * 1024

  let id: UInt64
  private(set) var connection: Connection!
  unowned let server: Server
  private let decoder = RequestDecoder()
  var encoder = MessageEncoder()
  /// Frames coalesced per watched session since this peer's last frame of it.
  private var dropped: [String: Int] = [:]
  /// A manual step waiting for this peer to read: the request, and how many frames remain.
  var suspendedStep: (request: Request, session: Session, remaining: Int, dt: Double)?
  private var endOfInput = false

  init(id: UInt64, server: Server) {
    self.id = id
    self.server = server
  }

  func attach(_ connection: Connection) { self.connection = connection }

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

  func connectionOutputDidDrain(_ connection: Connection) {
    if suspendedStep != nil {
      continueStep()
      flush()
    }
    for (name, count) in dropped where count > 0 {
      guard let session = server.sessions[name] else { continue }
      dropped[name] = 0
      encoder.frame(
        session: name, seq: session.seq, t: session.animator.elapsedTime,
        items: session.states(), dropped: count, values: session.values)
    }
    flush()
  }

  func connectionDidReachEndOfInput(_ connection: Connection) {
    // A suspended step still owes its frames and reply: close once it has finished.
    endOfInput = true
    if suspendedStep == nil { connection.closeAfterFlush() }
  }

  func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
    suspendedStep = nil
    server.clientDidClose(self)
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

  /// Queues a frame, or counts it when realtime output to this peer is backed up.
  /// Returns false when the frame was coalesced away.
  @discardableResult
  func sendFrame(
    session: Session, seq: UInt64, t: Double, items: [ItemState], values: [NamedValue],
    coalescible: Bool
  ) -> Bool {
    if coalescible && connection.outputLength > Self.frameBacklog {
      dropped[session.name, default: 0] += 1
      connection.requestDrainNotification()
      return false
    }
    let count = dropped.removeValue(forKey: session.name) ?? 0
    encoder.frame(
      session: session.name, seq: seq, t: t, items: items, dropped: count, values: values)
    flush()
    return true
  }

  func forget(session name: String) { dropped[name] = nil }

  // MARK: manual step

  /// Steps until done or until this peer's output backs up; then waits for it to drain.
  func continueStep() {
    guard var step = suspendedStep else { return }
    while step.remaining > 0 {
      step.session.handling(self) { step.session.advance(by: step.dt, flowControlled: self) }
      step.remaining -= 1
      flush()
      if step.remaining > 0 && connection.outputLength > Self.stepBacklog {
        suspendedStep = step
        connection.pauseReading()
        connection.requestDrainNotification()
        return
      }
    }
    suspendedStep = nil
    encoder.stepReply(
      id: step.request.id, t: step.session.animator.elapsedTime,
      running: step.session.animator.isRunning)
    flush()
    if endOfInput {
      connection.closeAfterFlush()
    } else {
      connection.resumeReading()
    }
  }
}
