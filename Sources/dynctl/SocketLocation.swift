import Glibc

/// Where dynctl looks for the daemon: the rule of PROTOCOL-CORE, first match wins — `--socket`,
/// `$DYND_SOCKET`, `$XDG_RUNTIME_DIR/dynd/dynd.sock` (absolute runtime directories only), else
/// `/tmp/dynd-$UID/dynd.sock`. Unlike the daemon, the client creates and checks nothing: a
/// directory that is not there just means no daemon.
enum SocketLocation {
  static func resolve(flag: String?, environment: [String: String] = environment()) -> String {
    if let flag { return flag }
    if let explicit = environment["DYND_SOCKET"], !explicit.isEmpty { return explicit }
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return (runtime.hasSuffix("/") ? runtime : runtime + "/") + "dynd/dynd.sock"
    }
    return "/tmp/dynd-\(getuid())/dynd.sock"
  }

  /// The variables the rule reads, from the process environment.
  static func environment() -> [String: String] {
    var result: [String: String] = [:]
    for name in ["DYND_SOCKET", "XDG_RUNTIME_DIR"] {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    return result
  }
}
