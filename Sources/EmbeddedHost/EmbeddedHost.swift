import SessionHost
import Wire

/// A `SessionHost` with peers that speak lines, and no socket: what tests and the fuzzer drive.
///
/// `send(_:from:)` decodes a line as the daemon does, applies it, runs the jobs it started (a
/// `step`'s batches, a parked request), and returns every line each peer received meanwhile,
/// encoded as the daemon encodes them. Realtime sessions advance only with `advance(by:)`.
/// Output is never coalesced here (that is the daemon's transport's doing); a peer marked
/// `stall`ed only holds its `step`s up, as a peer that stopped reading would.
public final class EmbeddedHost {
  public let environment: EmbeddedEnvironment
  public let host: SessionHost
  private let decoder = RequestDecoder()
  private var encoder = MessageEncoder()
  /// Lines received by each peer since they were last taken.
  private var received: [PeerID: [String]] = [:]
  private var nextPeer: UInt64 = 1
  /// Numbers the encoder wrote as 0 because they were not finite (must stay 0).
  public var nonFiniteCount: Int { encoder.nonFiniteCount }

  /// With `workers`, frames are computed on those threads (`EmbeddedEnvironment(workers:)`).
  public init(configuration: SessionHost.Configuration = .init(), workers: StepWorkers? = nil) {
    environment = EmbeddedEnvironment(workers: workers)
    host = SessionHost(configuration: configuration, environment: environment)
    host.output = { [unowned self] in self.record($0) }
  }

  /// A new peer (from process `pid`).
  public func connect(pid: Int32 = 1) -> PeerID {
    let peer = PeerID(nextPeer)
    nextPeer += 1
    host.connect(peer, pid: pid)
    received[peer] = []
    return peer
  }

  /// Sends one request line from `peer`; returns the lines every peer received meanwhile. With
  /// `settle` (the default) the jobs it started, and theirs, run first; without, they wait for
  /// `runPending()` or `runNext()`.
  @discardableResult
  public func send(_ line: String, from peer: PeerID, settle: Bool = true) -> [PeerID: [String]] {
    send(Array(line.utf8), from: peer, settle: settle)
  }

  /// Sends one request line (without its `\n`) from `peer`.
  @discardableResult
  public func send(_ line: [UInt8], from peer: PeerID, settle: Bool = true) -> [PeerID: [String]] {
    do {
      let request = try decoder.decode(line)
      record(host.apply(request, from: peer))
    } catch {
      record([.reply(Reply(id: error.id, error: error.error), to: peer)])
    }
    if settle { environment.runPending() }
    return takeReceived()
  }

  /// Runs waiting jobs and results until none is left; returns what every peer received.
  @discardableResult
  public func runPending() -> [PeerID: [String]] {
    environment.runPending()
    return takeReceived()
  }

  /// Runs the next waiting job or result only (see `EmbeddedEnvironment.runNext()`); returns
  /// what every peer received.
  @discardableResult
  public func runNext() -> [PeerID: [String]] {
    environment.runNext()
    return takeReceived()
  }

  /// The peer leaves; returns what the others received because of it.
  @discardableResult
  public func disconnect(_ peer: PeerID) -> [PeerID: [String]] {
    record(host.disconnect(peer))
    environment.runPending()
    received[peer] = nil
    return takeReceived()
  }

  /// The peer stops reading: its steps wait. `resume` lets them go on.
  public func stall(_ peer: PeerID) { environment.backedUp.insert(peer) }

  /// The peer reads again; returns what every peer received because of it.
  @discardableResult
  public func resume(_ peer: PeerID) -> [PeerID: [String]] {
    environment.backedUp.remove(peer)
    record(host.outputDrained(peer))
    environment.runPending()
    return takeReceived()
  }

  /// Moves time on (realtime frames, the idle reaper); returns what every peer received.
  @discardableResult
  public func advance(by duration: Duration) -> [PeerID: [String]] {
    environment.advance(by: duration)
    return takeReceived()
  }

  /// What each peer received since the last call, emptied.
  public func takeReceived() -> [PeerID: [String]] {
    let taken = received.filter { !$0.value.isEmpty }
    for key in received.keys { received[key] = [] }
    return taken
  }

  private func record(_ outgoing: [Outgoing]) {
    for message in outgoing {
      encoder.removeAll()
      switch message.message {
      case .reply(let reply): encoder.encode(reply)
      case .event(let event): encoder.encode(event)
      }
      var line = String(decoding: encoder.bytes, as: UTF8.self)
      line.removeLast()  // the `\n`
      for recipient in message.recipients where received[recipient.peer] != nil {
        received[recipient.peer]!.append(line)
      }
    }
  }
}
