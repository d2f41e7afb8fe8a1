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
/// directory it did not create, as tmux does not. The directory of a path from the flag or the
/// environment is the user's choice: used as it is when it exists (not checked), and when it is
/// missing created and checked as the private directory is, its last component only (a missing
/// parent is an error naming it: a mistyped path does not become a tree of directories).
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

  /// The private directory of this path (rules 3 and 4), which `prepareDirectory(userID:)`
  /// creates if missing and always checks; nil for a path from the flag or the environment,
  /// whose directory is the user's business unless it is missing.
  public var privateDirectory: String? {
    SocketLocation(path: path, rule: source).privateDirectory
  }

  /// Makes a path without resolving or checking it.
  public init(path: String, source: Source) {
    self.path = path
    self.source = source
  }

  /// Resolves the socket path by the rule every program shares (`SocketLocation`), then checks
  /// it and prepares its directory (`prepareDirectory(userID:)`).
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
    let resolved = SocketPath(path: location.path, source: location.rule)
    try resolved.prepareDirectory(userID: userID)
    return resolved
  }

  /// Creates and checks the socket's directory as the rule that chose the path asks: the private
  /// directory of rules 3 and 4 is created if missing and always checked
  /// (`preparePrivateDirectory`); the directory of a path the user gave is created and checked
  /// the same way only when it is missing (`prepareGivenDirectory`). Resolution runs it, and
  /// `Listener.recreateSocketFile(location:)` again before it binds a removed socket anew.
  public func prepareDirectory(userID: uid_t = getuid()) throws(TransportError) {
    if let privateDirectory {
      try Self.preparePrivateDirectory(privateDirectory, userID: userID)
    } else {
      try Self.prepareGivenDirectory(SocketLocation.parent(of: path), userID: userID)
    }
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

  /// Creates the directory of a socket path the user gave (`--socket`, `$DYND_SOCKET`) when it
  /// is missing, as the private directory is created and checked (`preparePrivateDirectory`).
  /// An existing one is the user's choice (`/tmp`, a shared runtime directory) and is used as it
  /// is, unchecked; a symbolic link to a directory counts as one.
  public static func prepareGivenDirectory(
    _ directory: String, userID: uid_t
  ) throws(TransportError) {
    var info = stat()
    if stat(directory, &info) == 0 { return }
    // A dangling symbolic link is not a missing directory: the check below refuses it.
    guard errno == ENOENT else { throw .system("cannot inspect the socket directory \(directory)") }
    try preparePrivateDirectory(directory, userID: userID)
  }

  /// Creates `directory` with mode 0700 if it is missing (its last component only: its parent
  /// must exist), then checks it with `lstat`: a real directory, owned by `userID`, with no group
  /// or other permission bits.
  public static func preparePrivateDirectory(
    _ directory: String, userID: uid_t
  ) throws(TransportError) {
    if mkdir(directory, 0o700) == 0 {
      // The umask may have cleared owner bits; the directory is new and ours, so set them exactly.
      _ = chmod(directory, 0o700)
    } else if errno == ENOENT {
      let parent = SocketLocation.parent(of: directory)
      throw TransportError(
        .missingDirectory,
        "cannot create the socket directory \(directory): its parent \(parent) does not exist "
          + "(dynd creates the socket's own directory, not its parents; create \(parent) or "
          + "choose another path)")
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
