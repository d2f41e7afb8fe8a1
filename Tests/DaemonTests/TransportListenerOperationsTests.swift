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

}
