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
  public enum Source: String, Sendable {
    case flag
    case environment
    case runtimeDirectory
    case temporaryDirectory
  }

  /// The longest socket path, in bytes: `sockaddr_un.sun_path` is 108 bytes including the NUL.
  public static let maximumLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
  /// The socket's file name inside the per-user directory.
  public static let fileName = "dynd.sock"

  /// The resolved socket path.
  public let path: String
  /// Which rule produced it.
  public let source: Source

  /// The private directory resolution created and checked for this path (rules 3 and 4), to be
  /// created and checked again when the socket file is re-created
  /// (`Listener.recreateSocketFile(privateDirectory:)`); nil for a path from the flag or the
  /// environment, whose directory is the user's business.
  public var privateDirectory: String? {
    switch source {
    case .flag, .environment:
      return nil
    case .runtimeDirectory, .temporaryDirectory:
      guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
      return String(path[..<slash])
    }
  }

  /// Makes a path without resolving or checking it.
  public init(path: String, source: Source) {
    self.path = path
    self.source = source
  }

  /// Resolves the socket path, creating and checking the private directory when it comes from
  /// rule 3 or 4.
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
    if let flag {
      try checkLength(flag)
      return SocketPath(path: flag, source: .flag)
    }
    if let explicit = environment["DYND_SOCKET"], !explicit.isEmpty {
      try checkLength(explicit)
      return SocketPath(path: explicit, source: .environment)
    }
    let directory: String
    let source: Source
    if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
      directory = join(runtime, "dynd")
      source = .runtimeDirectory
    } else {
      directory = join(temporaryRoot, "dynd-\(userID)")
      source = .temporaryDirectory
    }
    let path = join(directory, fileName)
    // Before creating anything: a path that cannot be bound must not leave a directory behind.
    try checkLength(path)
    try preparePrivateDirectory(directory, userID: userID)
    return SocketPath(path: path, source: source)
  }

  /// The variables resolution reads, taken from the process environment.
  public static func processEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    for name in ["DYND_SOCKET", "XDG_RUNTIME_DIR"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return environment
  }

  /// Fails unless `path` is non-empty, has no NUL byte and fits in `sun_path`.
  public static func checkLength(_ path: String) throws(TransportError) {
    let length = path.utf8.count
    if length == 0 {
      throw TransportError(.invalidPath, "the socket path is empty")
    }
    if path.utf8.contains(0) {
      throw TransportError(.invalidPath, "the socket path contains a NUL byte")
    }
    if length > maximumLength {
      throw TransportError(
        .pathTooLong,
        "the socket path is \(length) bytes long; a Unix socket path can have at most "
          + "\(maximumLength) bytes: \(path)")
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
        "the socket directory \(directory) has mode \(octal(info.st_mode & 0o7777)); it must give "
          + "no access to group or others (mode 0700)")
    }
  }

  private static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }
}

/// `mode` as four octal digits, e.g. "0755".
func octal(_ mode: mode_t) -> String {
  let digits = String(mode, radix: 8)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
