import Foundation
import Glibc
import Testing

/// dynctl checks whom it talks to before it sends a byte: the socket directory it chose must be
/// private to the user, and the daemon must run as the user or root; otherwise exit 77.
/// dynctl runs in-process as the test's own user (`Trust.dynctl`); where it must run as another
/// user (a user is a process's), the binary is spawned as that user.
@Suite("dynctl: whom it talks to")
struct SocketTrustTests {
  // MARK: The checks, with injected uids (SocketTrust.swift is dynctl's own file)

  @Test("a private directory passes for its owner only")
  func privateDirectory() throws {
    let directory = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(SocketTrust.directoryFault(directory, userID: getuid()) == nil)
    let other = getuid() == 0 ? Trust.user : 0
    let fault = try #require(SocketTrust.directoryFault(directory, userID: other))
    #expect(fault.contains("refusing the socket directory \(directory)"))
    #expect(fault.contains("owned by uid \(getuid()), not by you (uid \(other))"))
    #expect(fault.contains("nothing was sent"))
  }

  @Test(
    "a directory of another uid fails for the user, passes for that uid",
    .enabled(if: Trust.isRoot, Trust.needsRoot))
  func directoryOfAnotherUID() throws {
    let parent = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let directory = parent + "/dynd"
    try Trust.makeDirectory(directory, mode: 0o700, owner: Trust.user)
    #expect(SocketTrust.directoryFault(directory, userID: Trust.user) == nil)
    #expect(
      SocketTrust.directoryFault(directory, userID: Trust.otherUser)?.contains(
        "it is owned by uid \(Trust.user), not by you (uid \(Trust.otherUser))") == true)
    #expect(
      SocketTrust.directoryFault(directory, userID: 0)?.contains(
        "it is owned by uid \(Trust.user), not by you (uid 0)") == true)
  }

  @Test("any group or other permission bit fails, naming the mode")
  func modes() throws {
    let parent = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let directory = parent + "/dynd"
    try Trust.makeDirectory(directory, mode: 0o700)
    for mode: mode_t in [0o755, 0o777, 0o701, 0o710, 0o1777, 0o704] {
      #expect(chmod(directory, mode) == 0)
      let fault = SocketTrust.directoryFault(directory, userID: getuid())
      #expect(
        fault?.contains("its mode is \(SocketTrust.octal(mode))") == true,
        "\(String(mode, radix: 8))")
      #expect(fault?.contains("chmod 700 \(directory)") == true)
    }
    for mode: mode_t in [0o700, 0o500, 0o300] {
      #expect(chmod(directory, mode) == 0)
      #expect(SocketTrust.directoryFault(directory, userID: getuid()) == nil)
    }
    #expect(chmod(directory, 0o700) == 0)
  }

  @Test("a symbolic link fails even to a private directory; so does a file; a missing one passes")
  func symlinksAndFiles() throws {
    let parent = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: parent) }
    let target = parent + "/real"
    try Trust.makeDirectory(target, mode: 0o700)
    #expect(symlink(target, parent + "/link") == 0)
    #expect(
      SocketTrust.directoryFault(parent + "/link", userID: getuid())?.contains(
        "it is a symbolic link") == true)
    #expect(FileManager.default.createFile(atPath: parent + "/file", contents: nil))
    #expect(
      SocketTrust.directoryFault(parent + "/file", userID: getuid())?.contains(
        "it is not a directory") == true)
    #expect(SocketTrust.directoryFault(parent + "/missing", userID: getuid()) == nil)
  }

  @Test("the daemon may run as the user or root, never as another uid")
  func peers() throws {
    #expect(SocketTrust.peerFault(path: "/s", peerUID: Trust.user, userID: Trust.user) == nil)
    #expect(SocketTrust.peerFault(path: "/s", peerUID: 0, userID: Trust.user) == nil)
    let fault = try #require(
      SocketTrust.peerFault(path: "/s", peerUID: Trust.otherUser, userID: Trust.user))
    #expect(
      fault.contains(
        "refusing the daemon at /s: it runs as uid 65533, not as you (uid 65534) or root"))
    #expect(fault.contains("nothing was sent"))
    #expect(SocketTrust.peerFault(path: "/s", peerUID: Trust.user, userID: 0) != nil)
    #expect(SocketTrust.peerFault(path: "/s", peerUID: nil, userID: 0) != nil)
    // The kernel's answer for a socket pair is this process's uid.
    var pair: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    defer { for fd in pair { close(fd) } }
    #expect(SocketTrust.peerUID(socket: pair[0]) == getuid())
  }

  // MARK: dynctl end to end

  /// Each way of squatting the default directory ($XDG_RUNTIME_DIR/dynd here, the same check
  /// as /tmp/dynd-$UID), with a daemon listening inside: refused before connecting.
  @Test(
    "a squatted default directory is refused with 77 before connecting",
    arguments: ["mode 0755", "symbolic link"])
  func squattedDefaultDirectory(_ squat: String) throws {
    try expectRefusedDirectory(squat)
  }

  @Test(
    "a default directory owned by another uid is refused with 77 before connecting",
    .enabled(if: Trust.isRoot, Trust.needsRoot))
  func defaultDirectoryOfAnotherUID() throws {
    try expectRefusedDirectory("owned by another uid")
  }

  func expectRefusedDirectory(_ squat: String) throws {
    let runtime = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let directory = runtime + "/dynd"
    var socketDirectory = directory
    let expected: String
    switch squat {
    case "mode 0755":
      try Trust.makeDirectory(directory, mode: 0o755)
      expected = "its mode is 0755"
    case "symbolic link":
      socketDirectory = runtime + "/elsewhere"
      try Trust.makeDirectory(socketDirectory, mode: 0o700)
      #expect(symlink(socketDirectory, directory) == 0)
      expected = "it is a symbolic link"
    default:
      try Trust.makeDirectory(directory, mode: 0o755, owner: Trust.otherUser)
      expected = "it is owned by uid \(Trust.otherUser), not by you (uid \(getuid()))"
    }
    let daemon = try FakeDaemon(socket: socketDirectory + "/dynd.sock", replies: [fakeHelloReply])
    let result = try Trust.dynctl(
      ["hello"], environment: ["XDG_RUNTIME_DIR": runtime], in: runtime)
    #expect(result.status == 77, "\(result.error)")
    #expect(result.error.hasPrefix("dynctl: refusing the socket directory \(directory): "))
    #expect(result.error.contains(expected), "\(result.error)")
    #expect(result.output.isEmpty)
    let received = try daemon.received()
    #expect(received.connections == 0)
    #expect(received.bytes == 0)
  }

  @Test("a private default directory is used")
  func privateDefaultDirectory() throws {
    let runtime = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    try Trust.makeDirectory(runtime + "/dynd", mode: 0o700)
    let daemon = try FakeDaemon(socket: runtime + "/dynd/dynd.sock", replies: [fakeHelloReply])
    let result = try Trust.dynctl(
      ["hello"], environment: ["XDG_RUNTIME_DIR": runtime], in: runtime)
    #expect(result.status == 0, "\(result.error)")
    #expect(try daemon.received().bytes > 0)
  }

  @Test(
    "a daemon running as another uid is refused with 77 before a byte is sent, at any path",
    .enabled(if: Trust.isRoot, Trust.needsRoot))
  func daemonOfAnotherUID() throws {
    let directory = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try Trust.chownOrFail(directory, Trust.otherUser)
    let socket = directory + "/s.sock"
    let daemon = try FakeDaemon(socket: socket, as: Trust.otherUser, replies: [fakeHelloReply])
    for (arguments, environment) in [
      (["--socket", socket, "hello"], [:]),
      (["hello"], ["DYND_SOCKET": socket]),
      (["send", #"{"op":"hello"}"#], ["DYND_SOCKET": socket]),
    ] {
      let result = try Trust.dynctl(arguments, environment: environment, in: directory)
      #expect(result.status == 77, "\(arguments): \(result.error)")
      #expect(
        result.error.hasPrefix(
          "dynctl: refusing the daemon at \(socket): it runs as uid \(Trust.otherUser), not as "
            + "you (uid 0) or root"), "\(result.error)")
    }
    let received = try daemon.received(connections: 3)
    #expect(received.connections == 3)
    #expect(received.bytes == 0)
    // The same daemon's own user gets through: the fake daemon does see bytes when sent.
    let own = try Trust.dynctl(["--socket", socket, "hello"], as: Trust.otherUser, in: directory)
    #expect(own.status == 0, "\(own.error)")
    #expect(try daemon.received().bytes > 0)
  }

  /// dynctl run as an ordinary user (65534) meets a daemon of another ordinary user (65533).
  @Test(
    "as a non-root user: another user's daemon and squatted directory are refused, root's daemon is not",
    .enabled(if: Trust.isRoot, Trust.needsRoot))
  func asAnOrdinaryUser() throws {
    let directory = try Trust.temporaryDirectory("trust")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    #expect(chmod(directory, 0o755) == 0)
    // Another user's daemon, on a socket the user names.
    let theirs = directory + "/theirs"
    try Trust.makeDirectory(theirs, mode: 0o755, owner: Trust.otherUser)
    let impostor = try FakeDaemon(
      socket: theirs + "/dynd.sock", as: Trust.otherUser, replies: [fakeHelloReply])
    let refused = try Trust.dynctl(
      ["--socket", theirs + "/dynd.sock", "hello"], as: Trust.user, in: directory)
    #expect(refused.status == 77, "\(refused.error)")
    #expect(
      refused.error.contains(
        "it runs as uid \(Trust.otherUser), not as you (uid \(Trust.user)) or root"))
    // The same daemon found through the default directory, which that user squatted with a
    // symbolic link, then with a directory of theirs: refused at the directory, unconnected.
    let environment = ["XDG_RUNTIME_DIR": directory]
    #expect(symlink(theirs, directory + "/dynd") == 0)
    let viaLink = try Trust.dynctl(
      ["hello"], as: Trust.user, environment: environment, in: directory)
    #expect(viaLink.status == 77, "\(viaLink.error)")
    #expect(viaLink.error.contains("it is a symbolic link"))
    let received = try impostor.received(connections: 1)
    #expect(received.connections == 1)
    #expect(received.bytes == 0)
    #expect(unlink(directory + "/dynd") == 0)
    try Trust.makeDirectory(directory + "/dynd", mode: 0o755, owner: Trust.otherUser)
    let squatter = try FakeDaemon(
      socket: directory + "/dynd/dynd.sock", as: Trust.otherUser, replies: [fakeHelloReply])
    let owned = try Trust.dynctl(
      ["hello"], as: Trust.user, environment: environment, in: directory)
    #expect(owned.status == 77, "\(owned.error)")
    #expect(
      owned.error.contains(
        "it is owned by uid \(Trust.otherUser), not by you (uid \(Trust.user))"))
    #expect(try squatter.received().connections == 0)
    // Root's daemon is trusted by every user.
    let rootDirectory = directory + "/root"
    try Trust.makeDirectory(rootDirectory, mode: 0o755)
    let rootDaemon = try FakeDaemon(socket: rootDirectory + "/s.sock", replies: [fakeHelloReply])
    let accepted = try Trust.dynctl(
      ["--socket", rootDirectory + "/s.sock", "hello"], as: Trust.user, in: directory)
    #expect(accepted.status == 0, "\(accepted.error)")
    #expect(try rootDaemon.received().bytes > 0)
  }

  /// The real default of a user without $XDG_RUNTIME_DIR, /tmp/dynd-$UID, squatted by another
  /// user. Skipped when that directory exists already (it belongs to someone).
  @Test(
    "as a non-root user: a squatted /tmp/dynd-$UID is refused",
    .enabled(if: Trust.isRoot, Trust.needsRoot),
    .enabled(
      if: access("/tmp/dynd-\(Trust.user)", F_OK) != 0,
      "/tmp/dynd-\(Trust.user) exists already; it is not this test's to squat"))
  func squattedTemporaryDirectory() throws {
    let directory = "/tmp/dynd-\(Trust.user)"
    try Trust.makeDirectory(directory, mode: 0o755, owner: Trust.otherUser)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let impostor = try FakeDaemon(
      socket: directory + "/dynd.sock", as: Trust.otherUser, replies: [fakeHelloReply])
    let result = try Trust.dynctl(["hello"], as: Trust.user, in: "/tmp")
    #expect(result.status == 77, "\(result.error)")
    #expect(
      result.error.hasPrefix(
        "dynctl: refusing the socket directory \(directory): it is owned by uid "
          + "\(Trust.otherUser), not by you (uid \(Trust.user))"), "\(result.error)")
    let received = try impostor.received()
    #expect(received.connections == 0)
    #expect(received.bytes == 0)
  }
}
