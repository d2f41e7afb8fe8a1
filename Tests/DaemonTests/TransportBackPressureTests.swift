import Daemon
import Dispatch
import Foundation
import Glibc
import Logging
import Testing

/// A peer that pipelines requests and never reads, at the level of one `Connection`.
@Suite("Transport: back-pressure on a peer that does not read")
struct TransportBackPressureTests {
  @Test("a peer that pipelines and never reads is paused, then closed once it reads nothing")
  func stalledReaderIsClosed() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let warnings = Shared<[String]>([])
    let limits = Connection.Limits(
      outputHighWatermark: 256 << 10, stalledReaderTimeout: .milliseconds(300))
    // Every request is answered with 16 KiB: the peer's own replies, paced by back-pressure.
    let reply = [UInt8](repeating: 0x52, count: 16 << 10) + [0x0A]
    let loop = try LoopThread { loop in
      try Listener(loop: loop, path: path) { fd, peer in
        let delegate = RecordingDelegate(log: log)
        delegate.onLine = { connection, _ in connection.send(reply) }
        let logger = Logger(label: "dynd.test") { _ in CapturingLogHandler(warnings) }
        _ = Connection(
          loop: loop, socket: fd, peer: peer, limits: limits, logger: logger, delegate: delegate)
      }
    }
    let attacker = try TestClient(path: path)
    let fd = attacker.fd
    let writerDone = DispatchSemaphore(value: 0)
    let started = ContinuousClock.now
    Thread {
      // Requests until the daemon closes the connection (or 10 s pass).
      let requests = [UInt8](repeating: 0, count: 4096).enumerated().map {
        $0.offset % 2 == 0 ? UInt8(ascii: "r") : 0x0A
      }
      while ContinuousClock.now - started < .seconds(10) {
        let n = requests.withUnsafeBytes {
          Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        if n < 0 && errno != EAGAIN && errno != EINTR { break }
      }
      writerDone.signal()
    }.start()
    #expect(log.wait { $0.contains(where: \.isClose) })
    let waited = ContinuousClock.now - started
    #expect(log.value.last == .closed(.stoppedReading))
    // Paced: the daemon stopped handling its requests near the high-water mark, far below the
    // hard limit (the kernel's socket buffers hold a few hundred KiB more).
    let answered = log.value.filter { if case .line = $0 { true } else { false } }.count
    #expect(answered * reply.count < limits.outputHardLimit / 4, "\(answered) requests answered")
    #expect(waited >= .milliseconds(250) && waited < .seconds(5), "closed after \(waited)")
    #expect(
      warnings.value.contains { $0.contains("has read nothing for 0.3 seconds") },
      "logged: \(warnings.value)")
    _ = writerDone.wait(timeout: .now() + 15)
    attacker.close()
    // The loop serves the next peer as before.
    let next = try TestClient(path: path)
    try next.write("ping\n")
    #expect(try next.readLine()?.count == reply.count - 1)
    #expect(hangUp(next, log: log, closes: 2))
    #expect(loop.stop())
  }
}

/// Keeps the messages logged at `warning` or above.
private struct CapturingLogHandler: LogHandler {
  let messages: Shared<[String]>
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .warning

  init(_ messages: Shared<[String]>) { self.messages = messages }

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    messages.update { $0.append(event.message.description) }
  }
}
