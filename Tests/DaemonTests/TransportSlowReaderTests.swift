import Daemon
import Foundation
import Glibc
import Testing

/// A peer that reads its output slowly but steadily (issue 39, point 4). A Unix stream socket
/// becomes writable again only once its peer has read about three quarters of the send buffer
/// (~160 KiB): a reader slower than that per timeout used to be closed as one that reads nothing.
@Suite("Transport: a slow reader keeps its connection for as long as it reads")
struct TransportSlowReaderTests {
  /// Reads `rate` bytes a second, in reads of at most 4 KiB, until `duration` has passed or the
  /// connection ends; returns the bytes read and whether it ended.
  static func readSteadily(
    _ client: TestClient, rate: Int, for duration: Duration
  ) -> (bytes: Int, ended: Bool) {
    let chunk = 4096
    let interval = Duration.seconds(Double(chunk) / Double(rate))
    let start = ContinuousClock.now
    var total = 0
    var buffer = [UInt8](repeating: 0, count: chunk)
    while ContinuousClock.now - start < duration {
      let n = buffer.withUnsafeMutableBytes { read(client.fd, $0.baseAddress, $0.count) }
      if n <= 0 { return (total, true) }
      total += n
      // Paced by what was read so far: the average rate is `rate` whatever each read got.
      let due = start + interval * (Double(total) / Double(chunk))
      if due > ContinuousClock.now { Thread.sleep(forTimeInterval: (due - .now).seconds) }
    }
    return (total, false)
  }

  @Test("reading 64 KiB/s under a 1 s limit keeps the connection; stopping closes it")
  func slowReaderKept() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let limits = Connection.Limits(outputHighWater: 256 << 10, stalledReaderTimeout: .seconds(1))
    let output = [UInt8](repeating: 0x52, count: 16 << 10)
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, limits: limits, log: log) { delegate in
        // 768 KiB for one request: past the high-water mark even with the kernel's share.
        delegate.onLine = { connection, _ in for _ in 0..<48 { connection.send(output) } }
      }
    }
    let client = try TestClient(path: path)
    try client.write("go\n")
    // 64 KiB/s lets the daemon write again only every 2.5 s: what the peer reads must count.
    let read = Self.readSteadily(client, rate: 64 << 10, for: .seconds(3))
    #expect(
      !read.ended, "closed after \(read.bytes) bytes read: \(log.value.last.map { "\($0)" } ?? "")")
    let closedWhileReading = log.value.contains(where: \.isClose)
    #expect(!closedWhileReading)
    let stopped = ContinuousClock.now
    #expect(log.wait(timeout: .seconds(5)) { $0.contains(where: \.isClose) })
    let waited = ContinuousClock.now - stopped
    #expect(log.value.last == .closed(.stoppedReading))
    #expect(
      waited >= .milliseconds(800) && waited < .seconds(3), "closed \(waited) after the last read")
    client.close()
    #expect(loop.stop())
  }

  @Test("a closing connection flushes to a peer reading 96 KiB/s under a 1 s flush limit")
  func slowReaderGetsEverythingAtTheClose() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let limits = Connection.Limits(flushTimeout: .seconds(1))
    let output = [UInt8](repeating: 0x52, count: 16 << 10)
    let total = 20 * output.count
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, limits: limits, log: log) { delegate in
        delegate.onLine = { connection, _ in
          for _ in 0..<20 { connection.send(output) }
          connection.closeAfterFlush()
        }
      }
    }
    let client = try TestClient(path: path)
    try client.write("go\n")
    let read = Self.readSteadily(client, rate: 96 << 10, for: .seconds(10))
    #expect(read.ended)
    #expect(read.bytes == total, "\(read.bytes) of \(total) bytes read")
    #expect(log.wait { $0.contains(where: \.isClose) })
    #expect(log.value.last == .closed(.closedAfterFlush))
    client.close()
    #expect(loop.stop())
  }
}

extension Duration {
  fileprivate var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) * 1e-18
  }
}
