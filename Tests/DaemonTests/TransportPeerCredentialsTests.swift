import Daemon
import Glibc
import Testing

@Suite("PeerCredentials")
struct TransportPeerCredentialsTests {
  @Test(
    "only our own uid and root may connect",
    arguments: [
      (peer: 1000, server: 1000, allowed: true),
      (peer: 0, server: 1000, allowed: true),
      (peer: 1001, server: 1000, allowed: false),
      (peer: 65534, server: 1000, allowed: false),
      (peer: 0, server: 0, allowed: true),
      (peer: 1000, server: 0, allowed: false),
    ] as [(peer: uid_t, server: uid_t, allowed: Bool)])
  func decision(peer: uid_t, server: uid_t, allowed: Bool) {
    #expect(PeerCredentials.isAllowed(peerUID: peer, serverUID: server) == allowed)
    #expect(PeerCredentials(pid: 1, uid: peer, gid: 1).isAllowed(serverUID: server) == allowed)
  }

  @Test("SO_PEERCRED reports this process on a socket pair")
  func readsCredentials() throws {
    var fds: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    let peer = try #require(PeerCredentials.of(socket: fds[0]))
    #expect(peer == PeerCredentials(pid: getpid(), uid: geteuid(), gid: getegid()))
    #expect(PeerCredentials.of(socket: -1) == nil)
  }
}
