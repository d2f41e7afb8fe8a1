internal import CLibevent
import Glibc

/// systemd socket activation without libsystemd: a re-implementation of `sd_listen_fds(3)`.
///
/// systemd passes the sockets of `dynd.socket` as descriptors 3, 4, … and describes them in the
/// environment: `LISTEN_PID` (the process they are meant for) and `LISTEN_FDS` (how many). As
/// `sd_listen_fds` does, this ignores the variables unless `LISTEN_PID` is our pid (they may have
/// been inherited by a child), sets `FD_CLOEXEC` on every passed descriptor, and unsets
/// `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` so no child of ours inherits them.
///
/// dynd needs exactly one socket, and checks what it is ("whether a socket is a datagram or stream
/// socket matters a lot", sd_listen_fds(3)): an `AF_UNIX` `SOCK_STREAM` socket that is listening.
/// It is made non-blocking, because `evconnlistener` requires that and systemd's `NonBlocking=`
/// is off by default. See `packaging/systemd/` for the units.
///
/// dynd looks for a passed socket whether or not `--systemd` is given
/// (`listeningSocketIfActivated`); the flag only makes its absence an error.
public enum SocketActivation {
  /// `SD_LISTEN_FDS_START`: systemd's first passed descriptor.
  public static let firstDescriptor: Int32 = 3

  /// The environment variables this protocol reads (and unsets).
  public static let variableNames = ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"]

  /// The range of descriptors passed to process `processID` according to `environment`, or nil if
  /// none were passed to it. Throws `.activation` for values that are not numbers.
  public static func passedDescriptors(
    environment: [String: String], processID: Glibc.pid_t, firstDescriptor: Int32 = firstDescriptor
  ) throws(TransportError) -> Range<Int32>? {
    guard let pidText = environment["LISTEN_PID"] else { return nil }
    guard let pid = pid_t(pidText), pid > 0 else {
      throw TransportError(.activation, "LISTEN_PID is not a process id: \"\(pidText)\"")
    }
    guard pid == processID else { return nil }
    guard let countText = environment["LISTEN_FDS"] else { return nil }
    guard let count = Int32(countText), count >= 0, count <= Int32.max - firstDescriptor else {
      throw TransportError(.activation, "LISTEN_FDS is not a descriptor count: \"\(countText)\"")
    }
    return count == 0 ? nil : firstDescriptor..<(firstDescriptor + count)
  }

  /// The listening socket systemd passed, ready for `Listener(loop:adoptingListeningSocket:)`, or
  /// nil if this process was not socket-activated.
  ///
  /// - Parameters:
  ///   - environment: defaults to the process's `LISTEN_*` variables.
  ///   - processID: defaults to `getpid()`.
  ///   - firstDescriptor: 3, except in tests.
  ///   - unsetEnvironment: unset the `LISTEN_*` variables afterwards, whatever the outcome.
  public static func listeningSocket(
    environment: [String: String] = processEnvironment(),
    processID: Glibc.pid_t = getpid(),
    firstDescriptor: Int32 = firstDescriptor,
    unsetEnvironment: Bool = true
  ) throws(TransportError) -> Int32? {
    defer {
      if unsetEnvironment { for name in variableNames { unsetenv(name) } }
    }
    guard
      let descriptors = try passedDescriptors(
        environment: environment, processID: processID, firstDescriptor: firstDescriptor)
    else { return nil }
    for fd in descriptors {
      let flags = fcntl(fd, F_GETFD)
      guard flags >= 0, fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 else {
        throw TransportError(
          .activation, "descriptor \(fd) passed by systemd is unusable: \(errnoDescription(errno))")
      }
    }
    guard descriptors.count == 1 else {
      throw TransportError(
        .activation,
        "systemd passed \(descriptors.count) sockets; dynd expects exactly one "
          + "(a single ListenStream= in dynd.socket)")
    }
    let fd = descriptors.lowerBound
    try validateListeningSocket(fd)
    guard evutil_make_socket_nonblocking(fd) == 0 else {
      throw TransportError(.activation, "cannot make the socket passed by systemd non-blocking")
    }
    return fd
  }

  /// Whether the environment passes this process descriptors (`LISTEN_PID` is its pid and
  /// `LISTEN_FDS` is positive), without touching them or the environment. Malformed values count
  /// as activation, so that `listeningSocket()` reports them instead of dynd silently binding a
  /// path of its own.
  public static func isActivated(
    environment: [String: String] = processEnvironment(), processID: Glibc.pid_t = getpid()
  ) -> Bool {
    do {
      return try passedDescriptors(environment: environment, processID: processID) != nil
    } catch {
      return true
    }
  }

  /// The socket to serve if a service manager passed one, detected as `sd_listen_fds` daemons do
  /// (whether or not `--systemd` was given); nil if none was passed, and the caller binds its path.
  ///
  /// A passed socket is taken as `listeningSocket()` takes it (checked, close-on-exec,
  /// non-blocking; the `LISTEN_*` variables are unset in every case), so it never leaks into the
  /// daemon unused. `$DYND_SOCKET` does not compete with it (a user environment may set it for
  /// clients).
  ///
  /// - Parameters:
  ///   - required: `--systemd` was given: no passed socket is an error, not nil.
  ///   - socketFlag: `--socket`, if given: with a passed socket it is an error (the two exclude
  ///     each other, as `--systemd` and `--socket` do).
  public static func listeningSocketIfActivated(
    required: Bool = false,
    socketFlag: String? = nil,
    environment: [String: String] = processEnvironment(),
    processID: Glibc.pid_t = getpid(),
    firstDescriptor: Int32 = firstDescriptor,
    unsetEnvironment: Bool = true
  ) throws(TransportError) -> Int32? {
    guard
      let fd = try listeningSocket(
        environment: environment, processID: processID, firstDescriptor: firstDescriptor,
        unsetEnvironment: unsetEnvironment)
    else {
      if required {
        throw TransportError(
          .activation, "--systemd was given but no socket was passed (LISTEN_FDS is not set)")
      }
      return nil
    }
    if let socketFlag {
      Glibc.close(fd)
      throw TransportError(
        .activation,
        "--socket \(socketFlag) was given but the service manager passed a socket (LISTEN_FDS); "
          + "drop --socket to serve the passed socket")
    }
    return fd
  }

  /// Fails unless `fd` is a listening `AF_UNIX` `SOCK_STREAM` socket.
  public static func validateListeningSocket(_ fd: Int32) throws(TransportError) {
    guard let type = integerOption(fd, SO_TYPE) else {
      throw TransportError(
        .activation,
        "descriptor \(fd) passed by systemd is not a socket: \(errnoDescription(errno))")
    }
    guard type == Int32(SOCK_STREAM.rawValue) else {
      throw TransportError(
        .activation,
        "the socket passed by systemd is not a stream socket (use ListenStream=, not "
          + "ListenDatagram= or ListenSequentialPacket=)")
    }
    guard integerOption(fd, SO_DOMAIN) == AF_UNIX else {
      throw TransportError(
        .activation, "the socket passed by systemd is not a Unix domain socket (AF_UNIX)")
    }
    guard integerOption(fd, SO_ACCEPTCONN) == 1 else {
      throw TransportError(.activation, "the socket passed by systemd is not listening")
    }
  }

  /// The `LISTEN_*` variables of this process.
  public static func processEnvironment() -> [String: String] {
    var environment: [String: String] = [:]
    for name in variableNames {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return environment
  }

  private static func integerOption(_ fd: Int32, _ option: Int32) -> Int32? {
    var value: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, option, &value, &length) == 0 else { return nil }
    return value
  }
}
