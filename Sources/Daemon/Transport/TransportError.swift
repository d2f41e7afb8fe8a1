import Glibc

/// A failure of the transport layer, as a code and a sentence a person can act on.
///
/// The daemon prints `message` and exits non-zero for every startup failure (bad socket directory,
/// a live daemon on the path, a path that is too long); the code lets callers and tests tell the
/// cases apart without matching text.
public struct TransportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What kind of failure this is.
  public enum Code: String, Sendable {
    /// The socket path does not fit in `sockaddr_un.sun_path` (107 bytes plus the NUL).
    case pathTooLong = "path_too_long"
    /// The socket path is empty or contains a NUL byte.
    case invalidPath = "invalid_path"
    /// The socket directory is not a real directory owned by us with mode 0700 (or stricter).
    case unsafeDirectory = "unsafe_directory"
    /// The socket directory is missing and cannot be created: its parent is missing too.
    case missingDirectory = "missing_directory"
    /// Another daemon answers on the socket path (or is starting up on it right now).
    case alreadyRunning = "already_running"
    /// Something that is not a socket sits at the socket path; it is never deleted.
    case notASocket = "not_a_socket"
    /// The systemd socket-activation environment or the socket it passed is unusable.
    case activation = "activation"
    /// A system call failed; `message` carries the call and `strerror`.
    case system = "system"
  }

  /// What kind of failure this is.
  public let code: Code
  /// A complete sentence naming the path or call involved.
  public let message: String

  /// Makes an error from a code and a sentence.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  public var description: String { message }

  /// A `.system` error for a failed call, reading `errno` now.
  static func system(_ what: String, errno code: Int32 = errno) -> TransportError {
    TransportError(.system, "\(what): \(errnoDescription(code))")
  }
}

/// `strerror` text for an errno value, e.g. "Connection refused".
func errnoDescription(_ code: Int32) -> String {
  guard let text = strerror(code) else { return "errno \(code)" }
  return String(cString: text)
}
