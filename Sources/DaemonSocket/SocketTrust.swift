import Glibc

/// The checks dynctl and dynd-inspect make that they talk to the user's own dynd, made before it sends a byte.
///
/// Another local user who creates the per-user socket directory first (`/tmp/dynd-$UID` is in a
/// world-writable directory), or who gets the user to connect to a socket of theirs, would
/// receive the user's requests and answer them. So, as tmux's client does:
///
/// 1. a socket directory the client found by itself (`$XDG_RUNTIME_DIR/dynd`, `/tmp/dynd-$UID`;
///    not one the user named with `--socket` or `$DYND_SOCKET`) must pass dynd's own check
///    (`SocketPath.preparePrivateDirectory`): `lstat` shows a real directory, not a symbolic link,
///    owned by the user, with no group or other permission bits. A missing directory just means
///    no daemon;
/// 2. on every connection, whatever the path, the daemon's credentials (`SO_PEERCRED`, taken by
///    the kernel when it listened) must be the user's uid or root's, the rule dynd applies to its
///    clients.
///
/// The functions take the uid to check against, so tests can ask for any user. This file
/// imports nothing but Glibc: `Tests/DynctlTests` compiles the same file (a symbolic link) to
/// test it with injected uids.
public enum SocketTrust {
  /// How an existing socket directory fails the check, as a sentence for the user; nil if it
  /// passes or does not exist (`lstat` fails: connecting will say why there is no daemon).
  public static func directoryFault(_ directory: String, userID: uid_t) -> String? {
    var info = stat()
    guard lstat(directory, &info) == 0 else { return nil }
    let refusing = "refusing the socket directory \(directory):"
    let elsewhere = "or choose a socket with --socket or $DYND_SOCKET"
    switch info.st_mode & S_IFMT {
    case S_IFLNK:
      return "\(refusing) it is a symbolic link, which another user may have planted to receive "
        + "your requests; nothing was sent. Remove it (dynd creates the directory again), "
        + elsewhere
    case S_IFDIR:
      break
    default:
      return "\(refusing) it is not a directory; nothing was sent. Remove it, \(elsewhere)"
    }
    if info.st_uid != userID {
      return "\(refusing) it is owned by uid \(info.st_uid), not by you (uid \(userID)); another "
        + "user may have created it to receive your requests, so nothing was sent. Have it "
        + "removed (dynd creates it again), \(elsewhere)"
    }
    let mode = info.st_mode & 0o7777
    if mode & 0o077 != 0 {
      return "\(refusing) its mode is \(octal(mode)), which lets other users replace the socket; "
        + "nothing was sent. Make it private (chmod 700 \(directory)), \(elsewhere)"
    }
    return nil
  }

  /// The uid the daemon on the connected socket `fd` runs as (its `SO_PEERCRED`), or nil if the
  /// kernel gives none. `struct ucred` is not imported without `_GNU_SOURCE`, so its three
  /// 32-bit fields (pid, uid, gid) are read by layout.
  public static func peerUID(socket fd: Int32) -> uid_t? {
    var fields: (Int32, UInt32, UInt32) = (0, 0, 0)
    var length = socklen_t(MemoryLayout.size(ofValue: fields))
    let status = withUnsafeMutableBytes(of: &fields) {
      getsockopt(fd, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length)
    }
    guard status == 0, Int(length) == MemoryLayout.size(ofValue: fields) else { return nil }
    return fields.1
  }

  /// Why the daemon at `path`, running as `peerUID` (nil: unknown), may not be talked to by
  /// `userID`; nil if it may: it runs as the user or as root.
  public static func peerFault(path: String, peerUID: uid_t?, userID: uid_t) -> String? {
    guard let peerUID else {
      return "refusing the daemon at \(path): the kernel does not say which user runs it "
        + "(SO_PEERCRED); nothing was sent"
    }
    if peerUID == userID || peerUID == 0 { return nil }
    return "refusing the daemon at \(path): it runs as uid \(peerUID), not as you "
      + "(uid \(userID)) or root, so it may be another user's program posing as dynd; nothing "
      + "was sent. See who owns the socket (ls -ln \(path)), then start your own dynd or "
      + "choose another socket with --socket or $DYND_SOCKET"
  }

  /// `mode` as four octal digits, e.g. "0755".
  public static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
