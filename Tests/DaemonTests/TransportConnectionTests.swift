import Daemon
import Glibc
import Testing

@Suite("Connection")
struct TransportConnectionTests {
  private static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  @Test("lines split across writes arrive whole; \\r stays part of the line")
  func splitLines() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, log: log)
    }
    let client = try TestClient(path: path)
    for piece in ["{\"a\":", "1}\n{\"b\"", ":2}\r", "\n\nx", "\n"] {
      try client.write(piece)
      usleep(20_000)  // the scenario: each piece in a read of its own
    }
    let expected: [ConnectionEvent] = [
      .line(Self.bytes("{\"a\":1}")), .line(Self.bytes("{\"b\":2}\r")), .line([]),
      .line(Self.bytes("x")),
    ]
    #expect(log.wait { $0.count >= expected.count })
    #expect(log.value == expected)
    #expect(hangUp(client, log: log))
    #expect(loop.stop())
  }

  @Test("1000 pipelined lines arrive intact and in order")
  func pipelinedLines() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, log: log) { delegate in
        delegate.onLine = { connection, line in connection.send(line + [UInt8(ascii: "\n")]) }
      }
    }
    let lines = (1...1000).map {
      "{\"op\":\"get\",\"id\":\($0),\"pad\":\"\(String(repeating: "p", count: $0 % 97))\"}"
    }
    let client = try TestClient(path: path)
    try client.write(lines.joined(separator: "\n") + "\n")
    for expected in lines {
      let echoed = try #require(try client.readLineString())
      #expect(echoed == expected)
      if echoed != expected { break }
    }
    #expect(log.value == lines.map { .line(Self.bytes($0)) })
    #expect(hangUp(client, log: log))
    #expect(loop.stop())
  }

  @Test("an over-long line gets one report, the reply is flushed, then the connection closes")
  func lineTooLong() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let reply = "{\"ok\":false,\"error\":{\"code\":\"line_too_long\"}}\n"
    let loop = try LoopThread { loop in
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(maxLineLength: 1024), log: log
      ) { delegate in
        delegate.onLine = { connection, line in connection.send(line + [UInt8(ascii: "\n")]) }
        delegate.onLineTooLong = { connection in
          connection.send(reply)
          connection.closeAfterFlush()
        }
      }
    }
    let client = try TestClient(path: path)
    try client.write("first\n" + String(repeating: "a", count: 5000) + "\nsecond\n")
    #expect(try client.readLineString() == "first")
    #expect(try client.readLineString().map { $0 + "\n" } == reply)
    #expect(try client.readLine() == nil)
    client.close()  // ends the daemon's lingering close at once
    #expect(log.wait { $0.last?.isClose == true })
    #expect(log.value == [.line(Self.bytes("first")), .lineTooLong, .closed(.closedAfterFlush)])
    #expect(loop.stop())
  }

  @Test("a complete line over the limit is too long as well, and the close is automatic")
  func completeLineTooLong() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(maxLineLength: 16), log: log
      ) { delegate in
        // Replies but does not ask to close: the connection closes after the flush anyway.
        delegate.onLineTooLong = { connection in connection.send("too long\n") }
      }
    }
    let client = try TestClient(path: path)
    // Exactly the limit is fine; one byte more is not.
    try client.write(
      String(repeating: "b", count: 16) + "\n" + String(repeating: "c", count: 17) + "\nafter\n")
    #expect(try client.readLineString() == "too long")
    #expect(try client.readLine() == nil)
    client.close()
    #expect(log.wait { $0.last?.isClose == true })
    #expect(
      log.value == [
        .line(Self.bytes(String(repeating: "b", count: 16))), .lineTooLong,
        .closed(.closedAfterFlush),
      ])
    #expect(loop.stop())
  }

  @Test("closeAfterFlush delivers every queued byte before closing")
  func closeAfterFlushDeliversEverything() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let total = 4 << 20
    let loop = try LoopThread { loop in
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(outputHardLimit: 16 << 20), log: log
      ) { delegate in
        delegate.onLine = { connection, _ in
          var chunk = [UInt8](repeating: 0, count: 65536)
          for offset in stride(from: 0, to: total, by: chunk.count) {
            for index in chunk.indices {
              chunk[index] = UInt8(truncatingIfNeeded: (offset + index) % 251)
            }
            connection.send(chunk)
          }
          connection.closeAfterFlush()
          #expect(!connection.send("dropped"), "nothing is queued once closing")
        }
      }
    }
    let client = try TestClient(path: path)
    try client.write("big\n")
    let received = try client.readToEnd()
    #expect(received.count == total)
    #expect(received.indices.allSatisfy { received[$0] == UInt8(truncatingIfNeeded: $0 % 251) })
    #expect(log.wait { $0.last?.isClose == true })
    #expect(log.value.last == .closed(.closedAfterFlush))
    #expect(loop.stop())
  }

  @Test("a closing connection whose peer reads nothing is dropped after the flush timeout")
  func flushTimeout() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let closedAt = Shared<ContinuousClock.Instant?>(nil)
    let limits = Connection.Limits(outputHardLimit: 16 << 20, flushTimeout: .milliseconds(200))
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, limits: limits, log: log) { delegate in
        delegate.onLine = { connection, _ in
          connection.send([UInt8](repeating: 0x44, count: 4 << 20))
          connection.closeAfterFlush()
        }
        delegate.onClose = { _, _ in closedAt.set(.now) }
      }
    }
    let client = try TestClient(path: path)
    let sent = ContinuousClock.now
    try client.write("go\n")
    #expect(log.wait { $0.contains(where: \.isClose) })
    #expect(log.value.last == .closed(.flushTimeout))
    #expect(closedAt.wait { $0 != nil })  // set by the delegate after the log's entry
    let waited = try #require(closedAt.value) - sent
    #expect(waited >= .milliseconds(150))
    #expect(waited < .seconds(3))
    #expect(loop.stop())
  }

  @Test("a client that vanishes with output queued does not hurt the daemon")
  func vanishingClient() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(outputHardLimit: 64 << 20), log: log
      ) { delegate in
        delegate.onLine = { connection, line in
          if line == Array("big".utf8) {
            connection.send([UInt8](repeating: 0x41, count: 4 << 20))
          } else {
            connection.send(line + [UInt8(ascii: "\n")])
          }
        }
      }
    }
    do {
      let client = try TestClient(path: path)
      try client.write("big\n")
      #expect(log.wait { $0.contains(.line(Self.bytes("big"))) })
      #expect(client.waitForInput(), "the 4 MiB reply did not start to arrive")
    }  // closed here, unread output and all
    #expect(log.wait { $0.contains(where: \.isClose) })
    let reason = log.value.first(where: \.isClose)
    #expect(
      reason == .closed(.error(EPIPE)) || reason == .closed(.error(ECONNRESET))
        || reason == .closed(.peerClosed), "got \(String(describing: reason))")
    // Still serving.
    let next = try TestClient(path: path)
    try next.write("ping\n")
    #expect(try next.readLineString() == "ping")
    #expect(hangUp(next, log: log, closes: 2))
    #expect(loop.stop())
  }

  @Test("a client that never reads is cut off at the output limit")
  func neverReadingClient() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let limit = 1 << 20
    let largestQueue = Shared(0)
    let loop = try LoopThread { loop in
      try makeRecordingServer(
        loop: loop, path: path, limits: Connection.Limits(outputHardLimit: limit), log: log
      ) { delegate in
        var flood: RepeatingTimer?
        delegate.onLine = { connection, _ in
          let chunk = [UInt8](repeating: 0x42, count: 32 << 10)
          flood = RepeatingTimer(loop: loop, period: .milliseconds(1)) { _ in
            connection.send(chunk)
            let queued = connection.outputLength
            largestQueue.update { $0 = max($0, queued) }
          }
          flood?.start()
        }
        delegate.onClose = { _, _ in
          flood?.stop()
          flood = nil
        }
      }
    }
    let client = try TestClient(path: path)
    try client.write("flood\n")
    #expect(log.wait { $0.contains(where: \.isClose) })
    #expect(log.value.last == .closed(.outputLimitExceeded))
    #expect(largestQueue.value > limit / 2, "the queue did grow")
    #expect(largestQueue.value <= limit)
    _ = client
    #expect(loop.stop())
  }

  @Test("a drain notification comes once the output is low again")
  func drainNotification() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let total = 1 << 20
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, log: log) { delegate in
        delegate.onLine = { connection, line in
          if line == Array("fill".utf8) {
            connection.send([UInt8](repeating: 0x43, count: total))
            #expect(connection.outputLength > connection.limits.outputLowWater)
          }
          connection.requestDrainNotification()
          connection.requestDrainNotification()  // asking twice still gives one notification
        }
        delegate.onDrain = { connection in
          connection.send("drained\n")
        }
      }
    }
    let client = try TestClient(path: path)
    try client.write("fill\n")
    usleep(100_000)  // the scenario: 100 ms of not reading
    #expect(!log.value.contains(.drained), "nothing drains while the client does not read")
    // The fill has no newline: the first line is the whole fill followed by "drained".
    let first = try #require(try client.readLine())
    #expect(first.count == total + 7)
    #expect(first.suffix(7) == Array("drained".utf8))
    #expect(log.wait { $0.filter { $0 == .drained }.count == 1 })
    // Already drained: the notification comes from the loop, not from inside the call.
    try client.write("again\n")
    #expect(try client.readLineString() == "drained")
    #expect(log.wait { $0.filter { $0 == .drained }.count == 2 })
    #expect(hangUp(client, log: log))
    #expect(loop.stop())
  }

  @Test("an unterminated last line before EOF is delivered, and the reply still flushed")
  func lastLineAtEOF() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, log: log) { delegate in
        delegate.onLine = { connection, line in connection.send(line + [UInt8(ascii: "\n")]) }
      }
    }
    let client = try TestClient(path: path)
    try client.write("one\nlast")
    client.shutdownWrite()
    #expect(try client.readLineString() == "one")
    #expect(try client.readLineString() == "last")
    #expect(try client.readLine() == nil)
    #expect(log.wait { $0.last?.isClose == true })
    #expect(
      log.value == [
        .line(Self.bytes("one")), .line(Self.bytes("last")), .endOfInput, .closed(.peerClosed),
      ])
    #expect(loop.stop())
  }

  @Test("after EOF a half-closed peer still receives what is sent until the delegate closes")
  func halfClosedPeerStillReads() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, log: log) { delegate in
        var later: RepeatingTimer?
        delegate.onEndOfInput = { connection in
          #expect(connection.isInputEnded)
          // Keep streaming for a while, as a flow-controlled step would, then close. A tick
          // counts the periods that passed (ticks skip on a loaded machine); frames count sends.
          var sent = 0
          later = RepeatingTimer(loop: loop, period: .milliseconds(5)) { timer in
            sent += 1
            connection.send("frame \(sent)\n")
            if sent == 3 {
              timer.stop()
              connection.closeAfterFlush()
            }
          }
          later?.start()
        }
        delegate.onClose = { _, _ in later = nil }
      }
    }
    let client = try TestClient(path: path)
    try client.write("step")
    client.shutdownWrite()
    #expect(try client.readLineString() == "frame 1")
    #expect(try client.readLineString() == "frame 2")
    #expect(try client.readLineString() == "frame 3")
    #expect(try client.readLine() == nil)
    #expect(log.wait { $0.last?.isClose == true })
    #expect(log.value == [.line(Self.bytes("step")), .endOfInput, .closed(.peerClosed)])
    #expect(loop.stop())
  }

  @Test("close() from inside a line callback stops delivery and is reported later, once")
  func closeInsideCallback() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let path = root + "/dynd.sock"
    let log = Shared<[ConnectionEvent]>([])
    let loop = try LoopThread { loop in
      try makeRecordingServer(loop: loop, path: path, log: log) { delegate in
        delegate.onLine = { connection, _ in
          connection.close()
          connection.close()
          #expect(connection.isClosed)
          #expect(connection.outputLength == 0)
          #expect(!connection.send("late"))
          log.append(.note("returned from close"))
        }
      }
    }
    let client = try TestClient(path: path)
    try client.write("a\nb\nc\n")
    #expect(try client.readLine() == nil)
    #expect(log.wait { $0.last?.isClose == true })
    // Once the loop has stopped, nothing more can be delivered.
    #expect(loop.stop())
    #expect(
      log.value == [.line(Self.bytes("a")), .note("returned from close"), .closed(.closedByCaller)])
  }
}
