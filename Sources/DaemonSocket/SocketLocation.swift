import Glibc

/// Where dynctl and dynd-inspect look for the daemon: the rule of protocol/PROTOCOL.md, “2. Socket location,
/// permissions, systemd”, first match wins — `--socket`, `$DYND_SOCKET`,
/// `$XDG_RUNTIME_DIR/dynd/dynd.sock` (absolute runtime directories only), else
/// `/tmp/dynd-$UID/dynd.sock`. Unlike the daemon, the client creates nothing: a directory that is
/// not there just means no daemon. A directory of the last two rules that is there must be
/// private to the user (`SocketTrust`), since the client chose it, not the user.
public struct SocketLocation: Equatable, Sendable {
  /// The socket path.
  public let path: String
  /// The per-user directory the path is in, when the client chose it (rules 3 and 4); nil for a path
  /// the user gave.
  public let privateDirectory: String?

  public static func resolve(
    flag: String?, environment: [String: String] = environment(), userID: uid_t = getuid()
  ) -> SocketLocation {
    if let flag { return SocketLocation(path: flag, privateDirectory: nil) }
    if let explicit = environment["DYND_SOCKET"], !explicit.isEmpty {
      return SocketLocation(path: explicit, privateDirectory: nil)
    }
    let directory: String
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      directory = (runtime.hasSuffix("/") ? runtime : runtime + "/") + "dynd"
    } else {
      directory = "/tmp/dynd-\(userID)"
    }
    return SocketLocation(path: directory + "/dynd.sock", privateDirectory: directory)
  }

  /// The variables the rule reads, from the process environment.
  public static func environment() -> [String: String] {
    var result: [String: String] = [:]
    for name in ["DYND_SOCKET", "XDG_RUNTIME_DIR"] {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    return result
  }
}
