import Daemon
import Glibc
import Testing

@Suite("Listener")
struct TransportListenerTests {
  @Test("the socket is created 0600 and unlinked on close")
  func modeAndUnlink() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let mode = Shared<mode_t?>(nil)
    let closed = Shared(false)
    let loop = try LoopThread { loop in
      let listener = try Listener(loop: loop, path: path) { fd, _ in close(fd) }
      mode.set(fileStatus(path)?.st_mode)
      #expect(listener.ownsSocketFile)
      #expect(listener.path == path)
      // Close from the loop a moment later, as SIGTERM handling would.
      let timer = OneShotTimer(loop: loop) { _ in
        listener.close()
        closed.set(true)
      }
      timer.schedule(after: .milliseconds(20))
      return (listener, timer)
    }
    let info = try #require(mode.value)
    #expect(info & S_IFMT == S_IFSOCK)
    #expect(info & 0o777 == 0o600)
    #expect(closed.wait { $0 })
    #expect(fileStatus(path) == nil)
    #expect(fileStatus(path + ".lock") == nil, "the startup lock file is removed")
    #expect(loop.stop())
  }

  @Test("accepted peers arrive with their credentials")
  func acceptsWithCredentials() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let peers = Shared<[PeerCredentials]>([])
    let flags = Shared<(descriptor: Int32, status: Int32)>((0, 0))
    let loop = try LoopThread { loop in
      try Listener(loop: loop, path: path) { fd, peer in
        flags.set((fcntl(fd, F_GETFD), fcntl(fd, F_GETFL)))
        peers.update { $0.append(peer) }  // last: the test reads `flags` once it sees the peer
        close(fd)
      }
    }
    let client = try TestClient(path: path)
    #expect(peers.wait { $0.count == 1 })
    #expect(peers.value.first == PeerCredentials(pid: getpid(), uid: geteuid(), gid: getegid()))
    #expect(flags.value.descriptor & FD_CLOEXEC != 0, "accepted sockets are close-on-exec")
    #expect(flags.value.status & O_NONBLOCK != 0, "and non-blocking")
    #expect(try client.readLine() == nil, "the handler closed it")
    #expect(loop.stop())
  }

  @Test("a burst of connections is handed over 128 per loop turn, so others are served between")
  func acceptsInTurns() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let loop = try EventLoop()
    // A timer that fires once per iteration of the loop counts its turns.
    var turn = 0
    var turnsOfAccepts: [Int] = []
    let listener = try Listener(loop: loop, path: path) { fd, _ in
      turnsOfAccepts.append(turn)
      close(fd)
    }
    defer { listener.close() }
    var counter: OneShotTimer?
    counter = OneShotTimer(loop: loop) { _ in
      turn += 1
      if turnsOfAccepts.count >= 300 || turn > 1000 { return loop.stop() }
      counter?.schedule(after: .zero)
    }
    // 300 clients connect at once (the kernel completes their connects into the backlog).
    let clients = try (0..<300).map { _ in try TestClient(path: path) }
    counter?.schedule(after: .zero)
    try loop.run()
    #expect(turnsOfAccepts.count == clients.count)
    let perTurn = Dictionary(grouping: turnsOfAccepts, by: { $0 }).values.map(\.count)
    #expect(perTurn.max() == Listener.acceptsPerTurn, "handed over per turn: \(perTurn)")
    counter = nil
  }

  @Test("a stale socket from a dead daemon is replaced")
  func replacesStaleSocket() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    try makeStaleSocket(at: path)
    #expect(throws: TestFailure.self, "nothing answers on a stale socket") {
      try TestClient(path: path)
    }
    let accepted = Shared(0)
    let loop = try LoopThread { loop in
      try Listener(loop: loop, path: path) { fd, _ in
        accepted.update { $0 += 1 }
        close(fd)
      }
    }
    #expect((fileStatus(path)?.st_mode ?? 0) & 0o777 == 0o600)
    _ = try TestClient(path: path)
    #expect(accepted.wait { $0 == 1 })
    #expect(loop.stop())
  }

  @Test("a live socket is never stolen")
  func refusesLiveSocket() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let secondError = Shared<TransportError?>(nil)
    let accepted = Shared(0)
    let loop = try LoopThread { loop in
      let first = try Listener(loop: loop, path: path) { fd, _ in
        accepted.update { $0 += 1 }
        close(fd)
      }
      do throws(TransportError) {
        _ = try Listener(loop: loop, path: path) { fd, _ in close(fd) }
      } catch {
        secondError.set(error)
      }
      return first
    }
    let error = try #require(secondError.value)
    #expect(error.code == .alreadyRunning)
    #expect(error.message == "another dynd is listening on \(path)")
    // The first daemon is untouched and still serving.
    #expect((fileStatus(path)?.st_mode ?? 0) & S_IFMT == S_IFSOCK)
    // (The refused starter's probe was one connection; this client is another.)
    _ = try TestClient(path: path)
    #expect(accepted.wait { $0 == 2 })
    #expect(loop.stop())
  }

  @Test("a file that is not a socket is never deleted")
  func refusesNonSocket() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let fd = open(path, O_CREAT | O_WRONLY, 0o600)
    #expect(write(fd, "precious", 8) == 8)
    close(fd)
    let failure = Shared<TransportError?>(nil)
    let loop = try LoopThread { loop in
      do throws(TransportError) {
        return try Listener(loop: loop, path: path) { fd, _ in close(fd) }
      } catch {
        failure.set(error)
        return ()
      }
    }
    #expect(failure.value?.code == .notASocket)
    #expect(failure.value?.message.contains(path) == true)
    #expect(fileStatus(path)?.st_size == 8)
    #expect(loop.stop())
  }

  @Test("a daemon starting on the same path at the same moment is refused")
  func startupLock() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let lock = open(path + ".lock", O_CREAT | O_WRONLY, 0o600)
    defer { close(lock) }
    #expect(flock(lock, LOCK_EX) == 0)
    let failure = Shared<TransportError?>(nil)
    let loop = try LoopThread { loop in
      do throws(TransportError) {
        return try Listener(loop: loop, path: path) { fd, _ in close(fd) }
      } catch {
        failure.set(error)
        return ()
      }
    }
    #expect(failure.value == TransportError(.alreadyRunning, "another dynd is starting on \(path)"))
    #expect(fileStatus(path) == nil)
    #expect(loop.stop())
  }

  @Test("an adopted socket (systemd's) is never unlinked")
  func adoptedSocketIsNotUnlinked() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(try withSocketAddress(path) { bind(fd, $0, $1) } == 0)
    #expect(listen(fd, 16) == 0)
    let accepted = Shared(0)
    let closed = Shared(false)
    let loop = try LoopThread { loop in
      let listener = try Listener(loop: loop, adoptingListeningSocket: fd) { fd, _ in
        accepted.update { $0 += 1 }
        close(fd)
      }
      #expect(!listener.ownsSocketFile)
      #expect(listener.path == path)
      let timer = OneShotTimer(loop: loop) { _ in
        listener.close()
        closed.set(true)
      }
      timer.schedule(after: .milliseconds(300))
      return (listener, timer)
    }
    _ = try TestClient(path: path)
    #expect(accepted.wait { $0 == 1 })
    #expect(closed.wait { $0 })
    #expect(fileStatus(path) != nil)
    #expect(fcntl(fd, F_GETFD) == -1, "the listener closed the descriptor")
    #expect(loop.stop())
  }

  @Test("an over-long path fails before any system call")
  func pathTooLong() throws {
    let failure = Shared<TransportError.Code?>(nil)
    let loop = try LoopThread { loop in
      do throws(TransportError) {
        return try Listener(loop: loop, path: "/tmp/" + String(repeating: "x", count: 120)) {
          fd, _ in close(fd)
        }
      } catch {
        failure.set(error.code)
        return ()
      }
    }
    #expect(failure.value == .pathTooLong)
    #expect(loop.stop())
  }
}
