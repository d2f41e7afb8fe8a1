import Daemon
import Glibc
import Testing

/// Runs `body` on the loop thread each time the test fires the returned trigger.
private func onLoop(_ loop: EventLoop, _ body: @escaping () -> Void) throws -> Wakeup {
  try Wakeup(loop: loop, handler: body)
}

@Suite("Listener operations")
struct TransportListenerOperationsTests {
  /// `net.core.somaxconn`, the most a listen backlog can be.
  private static var somaxconn: Int32 {
    let text = try? String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8)
    return text.flatMap { Int32($0.filter(\.isNumber)) } ?? Int32(SOMAXCONN)
  }

  @Test("the listen backlog is the system's maximum")
  func backlogIsSomaxconn() throws {
    #expect(Listener.defaultBacklog == Self.somaxconn)
  }

  @Test("a burst of connects while the loop is busy waits in the queue: no EAGAIN")
  func burstWithoutEAGAIN() throws {
    let backlog = Int(Self.somaxconn)
    // Each connection takes a descriptor on both ends in this process.
    let count = min(1000, backlog - 1, (ResourceLimits.openFileLimit() - 256) / 2)
    try #require(count > 200, "the system's backlog (\(backlog)) is too small for this test")
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let accepted = Shared(0)
    let busy = Shared(false)
    let release = Shared(false)
    let block = Shared<Wakeup.Trigger?>(nil)
    let loop = try LoopThread { loop in
      let listener = try Listener(loop: loop, path: path) { fd, _ in
        accepted.update { $0 += 1 }
        close(fd)
      }
      // Keeps the loop thread busy (as a long step would) until the test releases it.
      let blocker = try onLoop(loop) {
        busy.set(true)
        _ = release.wait(timeout: .seconds(20)) { $0 }
      }
      block.set(blocker.trigger)
      return (listener, blocker)
    }
    block.value?.fire()
    #expect(busy.wait { $0 })
    var clients: [Int32] = []
    var again = 0
    for _ in 0..<count {
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
      let rc = try withSocketAddress(path) { connect(fd, $0, $1) }
      if rc == 0 {
        clients.append(fd)
      } else {
        if errno == EAGAIN { again += 1 }
        close(fd)
      }
    }
    release.set(true)
    #expect(again == 0, "\(again) of \(count) connects failed with EAGAIN")
    #expect(accepted.wait { $0 == clients.count }, "accepted \(accepted.value) of \(clients.count)")
    for fd in clients { close(fd) }
    #expect(loop.stop())
  }

  /// A listener on `path` whose `recreateSocketFile()` runs on the loop each time `recreate` is
  /// fired; outcomes go to `outcomes`.
  private struct Recreating {
    let loop: LoopThread
    let recreate: Wakeup.Trigger
    let outcomes: Shared<[Listener.SocketFileRecreation]>
    let accepted: Shared<Int>

    init(path: String, location: SocketPath? = nil) throws {
      let outcomes = Shared<[Listener.SocketFileRecreation]>([])
      let accepted = Shared(0)
      let trigger = Shared<Wakeup.Trigger?>(nil)
      loop = try LoopThread { loop in
        let listener = try Listener(loop: loop, path: path) { fd, _ in
          accepted.update { $0 += 1 }
          close(fd)
        }
        let wakeup = try onLoop(loop) {
          let outcome = listener.recreateSocketFile(location: location)
          outcomes.update { $0.append(outcome) }
        }
        trigger.set(wakeup.trigger)
        return (listener, wakeup)
      }
      recreate = try #require(trigger.value)
      self.outcomes = outcomes
      self.accepted = accepted
    }

    /// Fires `recreate` and waits for its outcome.
    func run() -> Listener.SocketFileRecreation? {
      let before = outcomes.value.count
      recreate.fire()
      guard outcomes.wait(until: { $0.count > before }) else { return nil }
      return outcomes.value.last
    }
  }

  @Test("an intact socket file is left as it is")
  func recreateIntact() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let server = try Recreating(path: path)
    let inode = fileStatus(path)?.st_ino
    #expect(server.run() == .intact)
    #expect(fileStatus(path)?.st_ino == inode)
    _ = try TestClient(path: path)
    #expect(server.accepted.wait { $0 == 1 })
    #expect(server.loop.stop())
  }

  @Test("a removed socket file is re-created (0600) and serves; close unlinks the new one")
  func recreateRemoved() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let server = try Recreating(path: path)
    #expect(unlink(path) == 0)
    #expect(throws: TestFailure.self) { try TestClient(path: path) }
    #expect(server.run() == .recreated)
    let info = try #require(fileStatus(path))
    #expect(info.st_mode & S_IFMT == S_IFSOCK)
    #expect(info.st_mode & 0o777 == 0o600)
    #expect(fileStatus(path + ".lock") == nil)
    _ = try TestClient(path: path)
    #expect(server.accepted.wait { $0 == 1 })
    #expect(server.run() == .intact, "the new file is now the listener's own")
    #expect(server.loop.stop())
    #expect(fileStatus(path) == nil, "the re-created socket is unlinked on close")
  }

  @Test(
    "a removed socket directory is created again (0700) when the listener is told the location",
    arguments: [SocketPath.Source.runtimeDirectory, .flag])
  func recreateDirectory(source: SocketPath.Source) throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let directory = root + "/dynd"
    #expect(mkdir(directory, 0o700) == 0)
    let path = directory + "/dynd.sock"
    let server = try Recreating(path: path, location: SocketPath(path: path, source: source))
    #expect(unlink(path) == 0)
    #expect(rmdir(directory) == 0)
    #expect(server.run() == .recreated)
    #expect((fileStatus(directory)?.st_mode ?? 0) & 0o7777 == 0o700)
    _ = try TestClient(path: path)
    #expect(server.accepted.wait { $0 == 1 })
    #expect(server.loop.stop())
  }

  @Test("a stale socket in its place is replaced")
  func recreateOverStale() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let server = try Recreating(path: path)
    #expect(unlink(path) == 0)
    try makeStaleSocket(at: path)
    #expect(server.run() == .recreated)
    _ = try TestClient(path: path)
    #expect(server.accepted.wait { $0 == 1 })
    #expect(server.loop.stop())
  }

  @Test("a non-socket file in its place is never deleted; the listener carries on")
  func recreateOverFile() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let server = try Recreating(path: path)
    #expect(unlink(path) == 0)
    let fd = open(path, O_CREAT | O_WRONLY, 0o600)
    #expect(write(fd, "precious", 8) == 8)
    close(fd)
    guard case .failed(let error) = server.run() else {
      Issue.record("expected a failure, got \(server.outcomes.value)")
      return
    }
    #expect(error.code == .notASocket)
    #expect(fileStatus(path)?.st_size == 8)
    #expect(server.loop.stop())
    #expect(fileStatus(path)?.st_size == 8, "close does not unlink what is not its socket")
  }

  @Test("another daemon's live socket in its place is never taken")
  func recreateOverLiveSocket() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let server = try Recreating(path: path)
    #expect(unlink(path) == 0)
    let other = try makeListeningSocket(at: path)
    defer { close(other) }
    let inode = fileStatus(path)?.st_ino
    guard case .failed(let error) = server.run() else {
      Issue.record("expected a failure, got \(server.outcomes.value)")
      return
    }
    #expect(error.code == .alreadyRunning)
    #expect(fileStatus(path)?.st_ino == inode)
    #expect(server.loop.stop())
    #expect(fileStatus(path)?.st_ino == inode, "close does not unlink the other daemon's socket")
  }

  @Test("an adopted socket (systemd's) is not re-created")
  func recreateAdopted() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    #expect(try withSocketAddress(path) { bind(fd, $0, $1) } == 0)
    #expect(listen(fd, 16) == 0)
    #expect(unlink(path) == 0)
    let outcome = Shared<Listener.SocketFileRecreation?>(nil)
    let loop = try LoopThread { loop in
      let listener = try Listener(loop: loop, adoptingListeningSocket: fd) { fd, _ in close(fd) }
      outcome.set(listener.recreateSocketFile())
      return listener
    }
    #expect(outcome.value == .notOwned)
    #expect(fileStatus(path) == nil)
    #expect(loop.stop())
  }
}
