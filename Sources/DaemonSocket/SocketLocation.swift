import Glibc

/// Where dynd's socket is: the rule of protocol/PROTOCOL.md, “2. Socket location, permissions,
/// systemd”, first match wins — `--socket`, `$DYND_SOCKET`, `$XDG_RUNTIME_DIR/dynd/dynd.sock`
/// (absolute runtime directories only), else `/tmp/dynd-$UID/dynd.sock`; empty variables count
/// as unset. The only Swift copy of the rule: dynd (`SocketPath`), dynctl and dynd-inspect all
/// resolve through it, and `Tests/Shared/socket-location-cases.json` holds the cases it and the
/// Python client's copy must pass.
///
/// Resolution touches no file. The daemon then creates and checks the private directory, and
/// creates a missing directory of a path the user gave (`SocketPath`); a client creates nothing
/// — a directory that is not there just means no daemon — and checks that one of the last two
/// rules is private to the user (`SocketTrust`).
public struct SocketLocation: Equatable, Sendable {
  /// Which rule chose the path.
  public enum Rule: String, Sendable {
    case flag
    case environment
    case runtimeDirectory
    case temporaryDirectory
  }

  /// Why a path cannot be a Unix socket's address: the daemon's error codes.
  public struct PathFault: Error, Equatable, Sendable {
    public enum Code: String, Sendable {
      case invalidPath = "invalid_path"
      case pathTooLong = "path_too_long"
    }
    public let code: Code
    /// A sentence for the user.
    public let message: String
  }

  /// The longest socket path, in bytes: `sockaddr_un.sun_path` is 108 bytes including the NUL.
  public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
  /// The socket's file name inside the per-user directory.
  public static let fileName = "dynd.sock"

  /// The socket path.
  public let path: String
  /// Which rule chose it.
  public let rule: Rule
  /// The directory the socket is in (`parent(of: path)`), whichever rule chose the path.
  public var directory: String { Self.parent(of: path) }

  /// The per-user directory the path is in, when the rule chose it (rules 3 and 4); nil for a
  /// path the user gave.
  public var privateDirectory: String? {
    switch rule {
    case .flag, .environment:
      return nil
    case .runtimeDirectory, .temporaryDirectory:
      return directory
    }
  }

  public init(path: String, rule: Rule) {
    self.path = path
    self.rule = rule
  }

  /// Applies the rule. `temporaryRoot` is the parent of `dynd-$UID`: `/tmp` except in tests.
  public static func resolve(
    flag: String?, environment: [String: String] = environment(), userID: uid_t = getuid(),
    temporaryRoot: String = "/tmp"
  ) -> SocketLocation {
    if let flag { return SocketLocation(path: flag, rule: .flag) }
    if let explicit = environment["DYND_SOCKET"], !explicit.isEmpty {
      return SocketLocation(path: explicit, rule: .environment)
    }
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      return SocketLocation(
        path: join(join(runtime, "dynd"), fileName), rule: .runtimeDirectory)
    }
    return SocketLocation(
      path: join(join(temporaryRoot, "dynd-\(userID)"), fileName), rule: .temporaryDirectory)
  }

  /// Why `path` cannot be bound or connected to (empty, a NUL byte, longer than `sun_path`
  /// holds); nil if it can.
  public static func pathFault(_ path: String) -> PathFault? {
    let length = path.utf8.count
    if length == 0 { return PathFault(code: .invalidPath, message: "the socket path is empty") }
    if path.utf8.contains(0) {
      return PathFault(code: .invalidPath, message: "the socket path contains a NUL byte")
    }
    if length > maximumPathBytes {
      return PathFault(
        code: .pathTooLong,
        message: "the socket path is \(length) bytes long; a Unix socket path can have at most "
          + "\(maximumPathBytes) bytes: \(path)")
    }
    return nil
  }

  /// The variables the rule reads, from the process environment.
  public static func environment() -> [String: String] {
    var result: [String: String] = [:]
    for name in ["DYND_SOCKET", "XDG_RUNTIME_DIR"] {
      if let value = getenv(name) { result[name] = String(cString: value) }
    }
    return result
  }

  /// The directory `path` names an entry of, as `dirname(3)` gives it: "." for a bare name,
  /// "/" for an entry of the root; repeated and trailing slashes do not count.
  public static func parent(of path: String) -> String {
    func trimmed(_ text: Substring) -> Substring {
      var text = text
      while text.count > 1 && text.hasSuffix("/") { text = text.dropLast() }
      return text
    }
    let entry = trimmed(Substring(path))
    guard let slash = entry.lastIndex(of: "/") else { return "." }
    return String(trimmed(entry[...slash]))
  }

  private static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}
