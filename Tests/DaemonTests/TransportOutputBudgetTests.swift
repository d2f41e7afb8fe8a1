import Daemon
import Glibc
import Testing

/// The daemon-wide output budget: connections that do not read cannot together hold more than
/// it (plus a slow reader's allowance each), and closing them gives their bytes back.
@Suite("Transport: the output budget shared by all connections")
struct TransportOutputBudgetTests {
  @Test("over the shared budget, a connection that is not reading is closed; readers are not")
  func slowReadersAreClosedOverTheBudget() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let queuedAtLastClose = Shared(-1)
    let chunk = [UInt8](repeating: 0x41, count: 100_000) + [0x0A]
    let loop = try LoopThread { loop in
      let budget = OutputBudget(limit: 1 << 20, slowReaderBytes: 64 << 10)
      return try Listener(loop: loop, path: path) { fd, peer in
        let delegate = RecordingDelegate(log: log)
        delegate.onLine = { connection, _ in connection.send(chunk) }
        delegate.onClose = { _, _ in queuedAtLastClose.set(budget.queued) }
        // Back-pressure would stop handling their requests at 1 MiB each: out of the way here,
        // so that two peers alone pass the budget.
        let limits = Connection.Limits(outputHardLimit: 8 << 20, outputHighWater: 8 << 20)
        _ = Connection(
          loop: loop, socket: fd, peer: peer, limits: limits, outputBudget: budget,
          delegate: delegate)
      }
    }
    // Two peers that ask for output and never read: together they pass the 1 MiB budget.
    let first = try TestClient(path: path)
    for _ in 0..<12 { try first.write("more\n") }
    #expect(log.wait { $0.filter(\.isLineEvent).count == 12 })
    let closedEarly = log.value.contains { $0.isClose }
    #expect(!closedEarly, "under the budget nothing is closed")
    // The daemon may close one of them (that is the point) before the second has written all
    // its requests: a write that meets the closed socket ends the loop.
    let second = try TestClient(path: path)
    for _ in 0..<12 {
      do { try second.write("more\n") } catch { break }
    }
    #expect(log.wait { $0.contains(.closed(.outputLimitExceeded)) })
    // A peer that reads what it asked for is served whatever the others hold.
    let reader = try TestClient(path: path)
    for _ in 0..<5 {
      try reader.write("more\n")
      let line = try reader.readLine()
      #expect(line?.count == chunk.count - 1)
    }
    first.close()
    second.close()
    reader.close()
    #expect(log.wait { $0.filter(\.isClose).count == 3 })
    #expect(loop.stop())
    #expect(queuedAtLastClose.value == 0, "closed connections give their queued bytes back")
  }
}

extension ConnectionEvent {
  fileprivate var isLineEvent: Bool {
    if case .line = self { return true }
    return false
  }
}
