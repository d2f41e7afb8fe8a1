import Glibc

/// The process on the other end of a Unix socket, as the kernel saw it at `connect` time.
///
/// Read with `getsockopt(SO_PEERCRED)`. Swift's Glibc module does not import `struct ucred` (it
/// needs `_GNU_SOURCE`), so the three 32-bit fields are read by layout: pid, uid, gid.
public struct PeerCredentials: Equatable, Sendable {
  /// The peer's process id when it connected.
  public let pid: pid_t
  /// The peer's effective uid when it connected.
  public let uid: uid_t
  /// The peer's effective gid when it connected.
  public let gid: gid_t

  /// Makes credentials from their fields.
  public init(pid: pid_t, uid: uid_t, gid: gid_t) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  /// The credentials of the peer of a connected Unix socket, or nil if the kernel gives none.
  public static func of(socket fd: Int32) -> PeerCredentials? {
    var fields: (Int32, UInt32, UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout.size(ofValue: fields))
    let rc = withUnsafeMutableBytes(of: &fields) {
      getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length)
    }
    guard rc == 0, Int(length) == MemoryLayout.size(ofValue: fields) else { return nil }
    return PeerCredentials(pid: fields.0, uid: fields.1, gid: fields.2)
  }

  /// The accept decision: a peer may talk to the daemon if it runs as the daemon's own uid or as
  /// root. Every other uid is refused, even though the socket's mode (0600) and its directory
  /// (0700) should already keep it out: defence in depth, as tmux does.
  public static func isAllowed(peerUID: uid_t, serverUID: uid_t) -> Bool {
    peerUID == serverUID || peerUID == 0
  }

  /// Whether this peer may talk to a daemon running as `serverUID`.
  public func isAllowed(serverUID: uid_t = getuid()) -> Bool {
    Self.isAllowed(peerUID: uid, serverUID: serverUID)
  }
}
