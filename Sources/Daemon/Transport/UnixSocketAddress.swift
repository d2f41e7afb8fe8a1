import Glibc

/// A filled-in `sockaddr_un` for a filesystem path.
struct UnixSocketAddress {
  private var storage = sockaddr_un()

  /// Fails with `.pathTooLong`/`.invalidPath` before any system call if `path` cannot fit.
  init(path: String) throws(TransportError) {
    try SocketPath.checkLength(path)
    storage.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &storage.sun_path) { destination in
      // checkLength guarantees room for the bytes and the terminating NUL (already zero).
      destination.copyBytes(from: path.utf8)
    }
  }

  /// Calls `body` with the address as a `sockaddr` and its length.
  func withSockAddr<Result>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
  ) -> Result {
    withUnsafePointer(to: storage) { address in
      address.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }

  /// The path bound to a Unix socket (for sockets received from systemd), or nil if unnamed.
  static func boundPath(of fd: Int32) -> String? {
    var address = sockaddr_un()
    var length = socklen_t(MemoryLayout<sockaddr_un>.size)
    let rc = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard rc == 0, address.sun_family == sa_family_t(AF_UNIX) else { return nil }
    let path = withUnsafeBytes(of: address.sun_path) { raw -> String in
      let bytes = raw.prefix(while: { $0 != 0 })
      return String(decoding: bytes, as: UTF8.self)
    }
    return path.isEmpty ? nil : path
  }
}
