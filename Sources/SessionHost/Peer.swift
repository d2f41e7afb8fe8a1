import Wire

/// A client of the host as the host sees it: the sessions it watches and the request of its it
/// is carrying out. Its requests are handled one at a time, in order.
final class Peer {
  let id: PeerID
  /// The client's process (`SO_PEERCRED` in the daemon), for the per-client session quota.
  let pid: Int32
  /// Sessions this peer watches, so that leaving costs O(its own sessions).
  private(set) var watched: [ObjectIdentifier: Session] = [:]
  /// The request being carried out: waiting for its session's job, a `step` in batches, an
  /// `open` whose scene a worker builds, or a `define` whose document a worker checks.
  var inProgress: InProgress?
  /// Requests that came while one was in progress (a transport that pauses reading, as the
  /// daemon does, never lets more than a line or two wait here).
  var queued: [Request] = []
  var isGone = false

  enum InProgress {
    /// Waiting for the session's job to finish.
    case parked(Request)
    /// A manual step: frames left, the frame length, whether a batch is being computed.
    case step(ManualStep)
    /// An `open` whose scene is being built on a worker (`SessionHost.buildOnWorker`).
    case opening(Request)
    /// A `define` whose document is being checked on a worker (`SessionHost.defineOnWorker`).
    case defining(Request)
  }

  struct ManualStep {
    let request: Request
    let session: Session
    /// Frames asked for, and frames not computed yet.
    let count: Int
    var remaining: Int
    let dt: Double
    var computing = false
  }

  init(id: PeerID, pid: Int32) {
    self.id = id
    self.pid = pid
  }

  func didStartWatching(_ session: Session) { watched[ObjectIdentifier(session)] = session }

  func forget(_ session: Session) { watched[ObjectIdentifier(session)] = nil }

  var step: ManualStep? {
    if case .step(let step) = inProgress { return step }
    return nil
  }
}
