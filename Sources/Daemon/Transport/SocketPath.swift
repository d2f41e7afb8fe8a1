import DaemonSocket
import Glibc

/// Where the daemon's socket lives, and the checks that keep it private.
///
/// Resolution order, first match wins (protocol/PROTOCOL.md, “2. Socket location, permissions,
/// systemd”):
/// 1. the `--socket PATH` flag;
/// 2. `$DYND_SOCKET`;
/// 3. `$XDG_RUNTIME_DIR/dynd/dynd.sock`: the `dynd` directory is created with mode 0700;
/// 4. `/tmp/dynd-$UID/dynd.sock`: the directory is created with mode 0700.
///
/// A directory of the last two kinds, new or pre-existing, is accepted only if `lstat` shows a real
/// directory (not a symlink), owned by our uid, with no group or other permission bits. Otherwise
/// resolution fails with a sentence naming the directory and what is wrong; it never repairs a
/// directory it did not create, as tmux does not. Paths from the flag or the environment are the
/// user's choice and are used as given (their directories are not created or checked).
///
/// Empty environment values count as unset; a relative `$XDG_RUNTIME_DIR` is ignored, as the XDG
/// base directory specification asks.
public struct SocketPath: Equatable, Sendable {
  /// Which rule produced the path.
  public typealias Source = SocketLocation.Rule

  /// The longest socket path, in bytes (`SocketLocation.maximumPathBytes`).
  public static let maximumLength = SocketLocation.maximumPathBytes
  /// The socket's file name inside the per-user directory.
  public static let fileName = SocketLocation.fileName

  /// The resolved socket path.
  public let path: String
  /// Which rule produced it.
  public let source: Source

  /// The private directory resolution created and checked for this path (rules 3 and 4), to be
  /// created and checked again when the socket file is re-created
  /// (`Listener.recreateSocketFile(privateDirectory:)`); nil for a path from the flag or the
  /// environment, whose directory is the user's business.
  public var privateDirectory: String? {
    SocketLocation(path: path, rule: source).privateDirectory
  }

  /// Makes a path without resolving or checking it.
  public init(path: String, source: Source) {
    self.path = path
    self.source = source
  }

  /// Resolves the socket path by the rule every program shares (`SocketLocation`), then checks
  /// it and creates and checks the private directory when it comes from rule 3 or 4.
  ///
  /// - Parameters:
  ///   - flag: the `--socket` value, if given.
  ///   - environment: `DYND_SOCKET` and `XDG_RUNTIME_DIR`; defaults to the process environment.
  ///   - userID: the uid that must own the directory; defaults to `getuid()`.
  ///   - temporaryRoot: the parent of `dynd-$UID`; `/tmp` except in tests.
  public static func resolve(
    flag: String?,
    environment: [String: String] = processEnvironment(),
    userID: uid_t = getuid(),
    temporaryRoot: String = "/tmp"
  ) throws(TransportError) -> SocketPath {
    let location = SocketLocation.resolve(
      flag: flag, environment: environment, userID: userID, temporaryRoot: temporaryRoot)
    // Before creating anything: a path that cannot be bound must not leave a directory behind.
    try checkLength(location.path)
    if let directory = location.privateDirectory {
      try preparePrivateDirectory(directory, userID: userID)
    }
    return SocketPath(path: location.path, source: location.rule)
  }

  /// The variables resolution reads, taken from the process environment.
  public static func processEnvironment() -> [String: String] { SocketLocation.environment() }

  /// Fails unless `path` is non-empty, has no NUL byte and fits in `sun_path`.
  public static func checkLength(_ path: String) throws(TransportError) {
    guard let fault = SocketLocation.pathFault(path) else { return }
    switch fault.code {
    case .invalidPath: throw TransportError(.invalidPath, fault.message)
    case .pathTooLong: throw TransportError(.pathTooLong, fault.message)
    }
  }

  /// Creates `directory` with mode 0700 if it is missing, then checks it with `lstat`: a real
  /// directory, owned by `userID`, with no group or other permission bits.
  public static func preparePrivateDirectory(
    _ directory: String, userID: uid_t
  ) throws(TransportError) {
    if mkdir(directory, 0o700) == 0 {
      // The umask may have cleared owner bits; the directory is new and ours, so set them exactly.
      _ = chmod(directory, 0o700)
    } else if errno != EEXIST {
      throw .system("cannot create the socket directory \(directory)")
    }
    var info = stat()
    guard lstat(directory, &info) == 0 else {
      throw .system("cannot inspect the socket directory \(directory)")
    }
    let kind = info.st_mode & S_IFMT
    if kind == S_IFLNK {
      throw TransportError(
        .unsafeDirectory,
        "the socket directory \(directory) is a symbolic link; refusing to use it "
          + "(remove it, or choose a path with --socket)")
    }
    if kind != S_IFDIR {
      throw TransportError(
        .unsafeDirectory, "the socket directory \(directory) exists but is not a directory")
    }
    if info.st_uid != userID {
      throw TransportError(
        .unsafeDirectory,
        "the socket directory \(directory) is owned by uid \(info.st_uid), not by uid \(userID); "
          + "refusing to use it")
    }
    if info.st_mode & 0o077 != 0 {
      throw TransportError(
        .unsafeDirectory,
        "the socket directory \(directory) has mode \(SocketTrust.octal(info.st_mode & 0o7777)); it must give "
          + "no access to group or others (mode 0700)")
    }
  }
}
