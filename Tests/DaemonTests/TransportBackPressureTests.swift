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
      outputHighWater: 256 << 10, stalledReaderTimeout: .milliseconds(300))
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

/// The loop's turns, at the level of `Connection`: with a zero slice every line takes a turn of
/// its own, which exercises the turns on every line.
@Suite("Transport: turns of the loop")
struct TransportTurnsTests {
  @Test("one line per turn: lines arrive in order, and the end of input after the last one")
  func everyLineATurn() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(requestSlice: .zero), log: log
      ) { delegate in
        delegate.onLine = { connection, line in connection.send(line + [0x0A]) }
      }
    }
    let client = try TestClient(path: path)
    let lines = (0..<500).map { "line \($0)" }
    try client.write(lines.joined(separator: "\n") + "\nlast")
    client.shutdownWrite()
    for expected in lines + ["last"] {
      let echoed = try client.readLineString()
      #expect(echoed == expected)
      if echoed != expected { break }
    }
    #expect(try client.readLine() == nil)
    #expect(log.wait { $0.last?.isClose == true })
    let expected: [ConnectionEvent] =
      (lines + ["last"]).map { .line(Array($0.utf8)) } + [.endOfInput, .closed(.peerClosed)]
    #expect(log.value == expected)
    #expect(loop.stop())
  }

  @Test("two connections with lines buffered take turns, one slice each")
  func roundRobin() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(requestSlice: .zero), log: log)
    }
    let first = try TestClient(path: path)
    let second = try TestClient(path: path)
    try first.write(String(repeating: "a\n", count: 2000))
    try second.write(String(repeating: "b\n", count: 2000))
    #expect(log.wait { $0.count == 4000 })
    // The second connection's lines are not left until the first one's are all delivered.
    let order = log.value.compactMap { if case .line(let l) = $0 { l.first } else { nil } }
    let lastOfFirst = try #require(order.lastIndex(of: UInt8(ascii: "a")))
    let firstOfSecond = try #require(order.firstIndex(of: UInt8(ascii: "b")))
    #expect(firstOfSecond < lastOfFirst, "the first connection's 2 000 lines went first")
    #expect(hangUp(first, log: log))
    #expect(hangUp(second, log: log, closes: 2))
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
