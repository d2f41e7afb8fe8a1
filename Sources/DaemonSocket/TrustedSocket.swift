import Glibc

/// Why a client could not connect to dynd, as a sentence for the user.
public enum ConnectFault: Error, Equatable, Sendable {
  /// Nothing listens at `path` (or it cannot be reached); `reason` is the system's word for it.
  case unreachable(path: String, reason: String)
  /// The socket directory or the daemon failed `SocketTrust`; nothing was sent.
  case untrusted(String)

  /// The whole sentence, for a log or an error message.
  public var sentence: String {
    switch self {
    case .unreachable(let path, let reason): "no dynd at \(path): \(reason)"
    case .untrusted(let sentence): sentence
    }
  }
}

/// A connected stream socket to dynd, made only after the checks of `SocketTrust`.
public enum TrustedSocket {
  /// Connects to the daemon at `location` and returns the blocking descriptor (close-on-exec),
  /// once the socket's directory (if the client chose it) and the daemon's uid are trusted.
  public static func connect(
    _ location: SocketLocation, userID: uid_t = getuid()
  ) -> Result<Int32, ConnectFault> {
    if let directory = location.privateDirectory,
      let fault = SocketTrust.directoryFault(directory, userID: userID)
    {
      return .failure(.untrusted(fault))
    }
    return connect(path: location.path, userID: userID)
  }

  /// Connects to the socket at `path` whatever its directory; the daemon's uid is still checked.
  public static func connect(path: String, userID: uid_t = getuid()) -> Result<Int32, ConnectFault>
  {
    // The daemon's own check of a path (`SocketLocation.pathFault`), before a byte is copied.
    if let fault = SocketLocation.pathFault(path) {
      return .failure(.unreachable(path: path, reason: fault.message))
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: path.utf8)
      raw[path.utf8.count] = 0
    }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return .failure(.unreachable(path: path, reason: lastError())) }
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard status == 0 else {
      let reason = lastError()
      close(fd)
      return .failure(.unreachable(path: path, reason: reason))
    }
    if let fault = SocketTrust.peerFault(
      path: path, peerUID: SocketTrust.peerUID(socket: fd), userID: userID)
    {
      close(fd)
      return .failure(.untrusted(fault))
    }
    return .success(fd)
  }

  private static func lastError() -> String { String(cString: strerror(errno)) }
}
