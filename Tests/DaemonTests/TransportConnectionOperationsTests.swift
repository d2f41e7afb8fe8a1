import Daemon
import Glibc
import Testing

/// A delegate that echoes lines, answers refused lines with a fixed reply and records what it
/// heard (as words, for easy comparison).
private final class ReplyingDelegate: ConnectionDelegate {
  static let tooLong = #"{"ok":false,"error":{"code":"line_too_long"}}"# + "\n"
  static let timedOut = #"{"ok":false,"error":{"code":"line_timeout"}}"# + "\n"

  let log: Shared<[String]>
  init(log: Shared<[String]>) { self.log = log }

  func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer) {
    let text = String(decoding: line, as: UTF8.self)
    log.update { $0.append("line \(text)") }
    connection.send(text + "\n")
  }

  func connectionLineTooLong(_ connection: Connection) {
    log.update { $0.append("too long") }
    connection.send(Self.tooLong)
    connection.closeAfterFlush()
  }

  func connectionLineTimedOut(_ connection: Connection) {
    log.update { $0.append("timed out") }
    connection.send(Self.timedOut)
    connection.closeAfterFlush()
  }

  func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
    log.update { $0.append("closed: \(reason)") }
  }
}

/// A server on a fresh path whose connections get a `ReplyingDelegate`.
private struct ReplyingServer {
  let root: String
  let path: String
  let log = Shared<[String]>([])
  let loop: LoopThread

  init(limits: Connection.Limits) throws {
    root = try makeTemporaryDirectory()
    path = root + "/dynd.sock"
    let log = self.log
    let path = self.path
    loop = try LoopThread { loop in
      try Listener(loop: loop, path: path) { fd, peer in
        _ = Connection(
          loop: loop, socket: fd, peer: peer, limits: limits, delegate: ReplyingDelegate(log: log))
      }
    }
  }

  /// Waits for the connection's close and returns the log.
  func closedLog(timeout: Duration = .seconds(10)) -> [String] {
    _ = log.wait(timeout: timeout) { $0.last?.hasPrefix("closed") == true }
    return log.value
  }

  func stop() -> Bool {
    defer { removeTemporaryDirectory(root) }
    return loop.stop()
  }
}

@Suite("Connection operations: lingering close, line time limit")
struct TransportConnectionOperationsTests {
  private static let closedAfterFlush = "closed: \(Connection.CloseReason.closedAfterFlush)"

  @Test("a 2 MiB line written in one go: the write completes, the reply is read, then end of file")
  func lingeringCloseAfterLongLine() throws {
    let server = try ReplyingServer(limits: Connection.Limits())  // 1 MiB lines
    let client = try RawClient(path: server.path, timeout: .seconds(10))
    let line = Array(#"{"op":"hello","id":""#.utf8) + [UInt8](repeating: 0x78, count: 2 << 20)
    let write = client.write(line + Array(#""}"#.utf8) + [0x0A] + Array(#"{"op":"hello"}"#.utf8))
    #expect(write == nil, "the write failed: \(String(cString: strerror(write ?? 0)))")
    let (bytes, ending) = client.readToEnd()
    #expect(String(decoding: bytes, as: UTF8.self) == ReplyingDelegate.tooLong)
    #expect(ending == .endOfFile, "the client saw \(ending), not the end of file")
    client.close()
    #expect(server.closedLog() == ["too long", Self.closedAfterFlush])
    #expect(server.stop())
  }

  @Test("lines before the long one are answered; the peer may keep writing while it reads")
  func lingeringKeepsEarlierReplies() throws {
    let server = try ReplyingServer(limits: Connection.Limits(maxLineLength: 1024))
    let client = try RawClient(path: server.path, timeout: .seconds(10))
    let text = "first\n" + String(repeating: "a", count: 5000) + "\nsecond\n"
    #expect(client.write(text) == nil)
    #expect(client.readLine().line == "first")
    #expect(client.readLine().line.map { $0 + "\n" } == ReplyingDelegate.tooLong)
    // The daemon has stopped sending, but still reads: later writes succeed.
    #expect(client.write([UInt8](repeating: 0x62, count: 256 << 10)) == nil)
    #expect(client.readToEnd().ending == .endOfFile)
    client.close()
    #expect(server.closedLog() == ["line first", "too long", Self.closedAfterFlush])
    #expect(server.stop())
  }

  @Test("the lingering close ends after lingerTime if the peer never closes")
  func lingerTimeBound() throws {
    let server = try ReplyingServer(
      limits: Connection.Limits(maxLineLength: 1024, lingerTime: .milliseconds(300)))
    let client = try RawClient(path: server.path, timeout: .seconds(5))
    #expect(client.write(String(repeating: "a", count: 2000)) == nil)
    let started = ContinuousClock.now
    #expect(client.readLine().line.map { $0 + "\n" } == ReplyingDelegate.tooLong)
    #expect(client.readToEnd().ending == .endOfFile)
    // The client holds its end open; the daemon gives up on it.
    #expect(server.closedLog() == ["too long", Self.closedAfterFlush])
    let waited = ContinuousClock.now - started
    #expect(waited >= .milliseconds(250) && waited < .seconds(3), "\(waited)")
    #expect(server.stop())
  }

  @Test("the lingering close ends after lingerBytes if the peer keeps sending")
  func lingerBytesBound() throws {
    let server = try ReplyingServer(
      limits: Connection.Limits(
        maxLineLength: 1024, lingerTime: .seconds(20), lingerBytes: 64 << 10))
    let client = try RawClient(path: server.path, timeout: .seconds(5))
    #expect(client.write(String(repeating: "a", count: 2000)) == nil)
    let started = ContinuousClock.now
    let chunk = [UInt8](repeating: 0x63, count: 16 << 10)
    var sent = 0
    while ContinuousClock.now - started < .seconds(10) {
      guard case .success(let n) = client.writeWithoutBlocking(chunk) else { break }
      sent += n
      if n == 0 { client.waitUntilWritable(timeout: .milliseconds(100)) }
      if server.log.value.last?.hasPrefix("closed") == true && sent > 1 << 20 { break }
    }
    #expect(server.closedLog() == ["too long", Self.closedAfterFlush])
    #expect(ContinuousClock.now - started < .seconds(10), "the daemon read \(sent) bytes")
    #expect(server.stop())
  }

  @Test("a line trickling in at one byte per 50 ms is cut off after lineTimeout, with a reply")
  func slowLineTimesOut() throws {
    let server = try ReplyingServer(limits: Connection.Limits(lineTimeout: .milliseconds(400)))
    let client = try RawClient(path: server.path, timeout: .milliseconds(50))
    let started = ContinuousClock.now
    var received: [UInt8] = []
    var ending: ReadEnding?
    while ContinuousClock.now - started < .seconds(5) {
      _ = client.writeWithoutBlocking(Array((received.isEmpty ? "{" : "x").utf8))
      let (bytes, end) = client.readToEnd()  // waits up to 50 ms
      received += bytes
      if end != .timeout {
        ending = end
        break
      }
    }
    let waited = ContinuousClock.now - started
    #expect(String(decoding: received, as: UTF8.self) == ReplyingDelegate.timedOut)
    #expect(ending == .endOfFile)
    #expect(waited >= .milliseconds(350) && waited < .seconds(3), "\(waited)")
    client.close()
    #expect(server.closedLog() == ["timed out", Self.closedAfterFlush])
    #expect(server.stop())
  }

  @Test("a connection with no partial line may stay silent far longer than lineTimeout")
  func idleConnectionIsNotTimedOut() throws {
    let server = try ReplyingServer(limits: Connection.Limits(lineTimeout: .milliseconds(200)))
    let client = try RawClient(path: server.path, timeout: .seconds(5))
    #expect(client.write("watch\n") == nil)
    #expect(client.readLine().line == "watch")
    usleep(800_000)  // the scenario: silent for four times lineTimeout
    #expect(client.write("still here\n") == nil)
    #expect(client.readLine().line == "still here")
    #expect(server.log.value == ["line watch", "line still here"])
    client.close()
    #expect(server.closedLog().last?.hasPrefix("closed") == true)
    #expect(server.stop())
  }

  @Test("each line has its own time: a line that starts as another ends restarts the clock")
  func timePerLine() throws {
    let server = try ReplyingServer(limits: Connection.Limits(lineTimeout: .milliseconds(1000)))
    let client = try RawClient(path: server.path, timeout: .seconds(5))
    // Each line takes 600 ms; together they span 1200 ms, beyond the limit.
    #expect(client.write("first") == nil)
    usleep(600_000)
    #expect(client.write(" half\nsecond") == nil)
    #expect(client.readLine().line == "first half")
    usleep(600_000)
    #expect(client.write(" half\n") == nil)
    #expect(client.readLine().line == "second half")
    #expect(server.log.value == ["line first half", "line second half"])
    client.close()
    #expect(server.closedLog().last?.hasPrefix("closed") == true)
    #expect(server.stop())
  }

  @Test("without a delegate reply, a timed-out line still closes the connection cleanly")
  func defaultTimeoutHandling() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      // RecordingDelegate does not implement connectionLineTimedOut: the default applies.
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(lineTimeout: .milliseconds(200)),
        log: log)
    }
    let client = try RawClient(path: path, timeout: .seconds(5))
    #expect(client.write("{\"op\":") == nil)
    let (bytes, ending) = client.readToEnd()
    #expect(bytes.isEmpty)
    #expect(ending == .endOfFile)
    client.close()
    #expect(log.wait { $0.last?.isClose == true })
    #expect(log.value == [.closed(.closedAfterFlush)])
    #expect(loop.stop())
  }
}
