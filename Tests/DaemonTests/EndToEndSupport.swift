import Daemon
import Dispatch
import Foundation
import Glibc
import Logging
import Synchronization
import Testing

// Shared machinery for the EndToEnd*Tests suites: a whole daemon (`Server`) on a private socket,
// driven by plain blocking clients that speak JSON lines.
//
// Every line the daemon writes to any client of a test is appended to that test's record file;
// when the test finishes, `tools/schema_check.py` must accept every recorded line. No wait can
// hang: reads poll with a deadline, and each daemon is stopped (as SIGTERM would) at the end.

// MARK: - the daemon in this process

/// A `Server` running on its own thread, listening on a socket in a fresh directory under /tmp.
///
/// The server is created, run and released on that thread (libevent is used single-threaded);
/// the test thread reaches it only through sockets and `Server.stopTrigger`.
final class TestDaemon: Sendable {
  /// The private directory holding the socket (mode 0700).
  let directory: String
  /// The daemon's socket.
  let socketPath: String
  /// Every line any client of this daemon read.
  let recorder: LineRecorder
  private let trigger = Shared<Wakeup.Trigger?>(nil)
  private let finished = DispatchSemaphore(value: 0)
  private let stopped = Shared(false)

  /// Starts a daemon; `configure` adjusts its options (the socket path and signal handling are
  /// set for tests before it is called).
  init(_ configure: (inout Server.Options) -> Void = { _ in }) throws {
    SignalHandling.ignoreSIGPIPE()
    directory = try makeTemporaryDirectory()
    socketPath = directory + "/d.sock"
    recorder = try LineRecorder(path: directory + "/daemon-output.jsonl")
    var options = Server.Options()
    options.socketPath = socketPath
    options.handleSignals = false
    options.shutdownDrain = .milliseconds(50)
    configure(&options)
    let ready = DispatchSemaphore(value: 0)
    let failure = Shared<String?>(nil)
    let trigger = self.trigger
    let finished = self.finished
    let settings = options
    let thread = Thread {
      do {
        let logger = Logger(label: "dynd.e2e") { _ in SwiftLogNoOpLogHandler() }
        let server = try Server(options: settings, logger: logger)
        trigger.set(server.stopTrigger)
        ready.signal()
        try server.run()
      } catch {
        failure.set("\(error)")
        ready.signal()
      }
      finished.signal()
    }
    // The daemon's main thread has 8 MiB of stack; give the embedded one as much.
    thread.stackSize = 8 << 20
    thread.start()
    guard ready.wait(timeout: .now() + 10) == .success else {
      throw TestFailure("the daemon thread did not start")
    }
    if let message = failure.value {
      removeTemporaryDirectory(directory)
      throw TestFailure("the daemon did not start: \(message)")
    }
  }

  /// A new client connection whose every received line goes to this daemon's record.
  func connect(_ name: String = "client") throws -> WireClient {
    try WireClient(path: socketPath, name: name, recorder: recorder)
  }

  /// Stops the daemon as SIGTERM would and waits for its thread. False if it did not stop.
  @discardableResult
  func stop() -> Bool {
    guard !stopped.value else { return true }
    stopped.set(true)
    trigger.value?.fire()
    let done = finished.wait(timeout: .now() + 10) == .success
    trigger.set(nil)
    return done
  }

  /// Stops the daemon, checks the record against the schemas, removes the directory.
  func finish(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(stop(), "the daemon did not stop", sourceLocation: sourceLocation)
    recorder.expectValid(sourceLocation: sourceLocation)
    removeTemporaryDirectory(directory)
  }
}

/// Runs `body` with a fresh daemon and always finishes it (stop, schema check, clean-up).
func withDaemon(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: (TestDaemon) throws -> Void
) throws {
  try withDaemon(configured: { _ in }, sourceLocation: sourceLocation, body: body)
}

/// Runs `body` with a fresh daemon whose options `configure` adjusts.
func withDaemon(
  configured configure: (inout Server.Options) -> Void,
  sourceLocation: SourceLocation = #_sourceLocation,
  body: (TestDaemon) throws -> Void
) throws {
  let daemon = try TestDaemon(configure)
  defer { daemon.finish(sourceLocation: sourceLocation) }
  try body(daemon)
}

// MARK: - recording and schema checking

/// Appends every line a daemon wrote to a file, for `tools/schema_check.py`.
final class LineRecorder: Sendable {
  let path: String
  private let file: Mutex<UnsafeMutablePointer<FILE>?>
  private let count = Shared(0)

  init(path: String) throws {
    self.path = path
    guard let handle = fopen(path, "w") else {
      throw TestFailure("cannot create \(path): \(String(cString: strerror(errno)))")
    }
    file = Mutex(handle)
  }

  deinit { file.withLock { if let handle = $0 { fclose(handle) } } }

  /// How many lines were recorded.
  var lineCount: Int { count.value }

  /// Appends one line (a `\n` is added).
  func record(_ line: [UInt8]) {
    file.withLock { handle in
      guard let handle else { return }
      _ = line.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, handle) }
      fputc(0x0A, handle)
    }
    count.update { $0 += 1 }
  }

  /// Expects at least one line, and `tools/schema_check.py` to accept them all.
  func expectValid(sourceLocation: SourceLocation = #_sourceLocation) {
    file.withLock { handle in
      if let handle { fflush(handle) }
    }
    #expect(lineCount > 0, "the daemon wrote nothing to check", sourceLocation: sourceLocation)
    let result = SchemaCheck.run(path)
    #expect(
      result.status == 0, "schema_check.py rejected daemon output:\n\(result.output)",
      sourceLocation: sourceLocation)
  }
}

/// `python3 tools/schema_check.py FILE`, the protocol's own checker.
enum SchemaCheck {
  /// The package root, found from this file's path (Tests/DaemonTests/…).
  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

  /// Runs the checker on `file`; status 0 means every line passed.
  static func run(_ file: String) -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", repositoryRoot + "/tools/schema_check.py", file]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    do {
      try process.run()
    } catch {
      return (-1, "cannot run python3: \(error)")
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    // Only the failing lines and the summary matter; keep a long report readable.
    return (process.terminationStatus, String(text.suffix(4000)))
  }
}

// MARK: - a client

/// One line from the daemon, parsed with Foundation (independently of the daemon's codec).
///
/// Unchecked `Sendable`: it is immutable, and the parsed tree holds only immutable values.
struct Message: CustomStringConvertible, @unchecked Sendable {
  let text: String
  let object: [String: Any]

  init(_ line: [UInt8]) throws {
    text = String(decoding: line, as: UTF8.self)
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
    else { throw TestFailure("the daemon wrote a line that is not a JSON object: \(text)") }
    self.object = object
  }

  var description: String { text }

  /// The event name, for events.
  var event: String? { object["ev"] as? String }
  /// Whether this is a reply (it has `ok`).
  var isReply: Bool { object["ok"] != nil }
  var ok: Bool { object["ok"] as? Bool ?? false }
  /// The error code of a failed reply.
  var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
  var errorMessage: String? { (object["error"] as? [String: Any])?["message"] as? String }
  var session: String? { object["session"] as? String }

  func string(_ key: String) -> String? { object[key] as? String }
  func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
  func bool(_ key: String) -> Bool? { object[key] as? Bool }

  /// The request id echoed, as its JSON text or string.
  var id: String? {
    if let text = object["id"] as? String { return text }
    return (object["id"] as? NSNumber).map { "\($0)" }
  }

  /// A frame's sequence number.
  var seq: Int? { (object["seq"] as? NSNumber)?.intValue }
  /// Frames coalesced away before this one (0 when absent).
  var dropped: Int { (object["dropped"] as? NSNumber)?.intValue ?? 0 }
  var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }
}

/// What a request produced: the events written before its reply, and the reply.
struct Exchange {
  var events: [Message]
  var reply: Message

  func events(_ name: String) -> [Message] { events.filter { $0.event == name } }
}

/// A blocking client of the daemon: writes lines, reads lines with deadlines, and records every
/// line it reads.
final class WireClient {
  let name: String
  private(set) var fd: Int32
  private let recorder: LineRecorder?
  private var buffer: [UInt8] = []
  private var start = 0
  /// Bytes read from the socket so far.
  private(set) var bytesRead = 0

  init(path: String, name: String, recorder: LineRecorder?) throws {
    self.name = name
    self.recorder = recorder
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw TestFailure("socket: \(String(cString: strerror(errno)))") }
    var limit = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    let rc = try withSocketAddress(path) { connect(fd, $0, $1) }
    guard rc == 0 else {
      let message = String(cString: strerror(errno))
      Glibc.close(fd)
      throw TestFailure("\(name): connect \(path): \(message)")
    }
  }

  deinit { close() }

  /// Closes the socket at once, whatever is unread (idempotent).
  func close() {
    if fd >= 0 { Glibc.close(fd) }
    fd = -1
  }

  /// Sends `line` and a newline.
  func send(_ line: String) throws { try send(bytes: Array(line.utf8) + [0x0A]) }

  /// Sends raw bytes.
  func send(bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
      guard n > 0 else {
        throw TestFailure("\(name): write: \(String(cString: strerror(errno)))")
      }
      offset += n
    }
  }

  /// The next line without its newline; nil at end of stream. Throws after `timeout`.
  func readLine(timeout: Duration = .seconds(10)) throws -> [UInt8]? {
    let deadline = ContinuousClock.now + timeout
    var searched = start
    while true {
      if let newline = buffer[searched...].firstIndex(of: 0x0A) {
        let line = Array(buffer[start..<newline])
        start = newline + 1
        if start > 1 << 16 && start * 2 > buffer.count {
          buffer.removeSubrange(..<start)
          start = 0
        }
        recorder?.record(line)
        return line
      }
      searched = buffer.count
      guard try fill(until: deadline) else {
        // A last line without a newline is recorded too, so a truncated line fails the check.
        guard start < buffer.count else { return nil }
        let line = Array(buffer[start...])
        start = buffer.count
        recorder?.record(line)
        return line
      }
    }
  }

  /// The next message, or nil at end of stream.
  func readMessage(timeout: Duration = .seconds(10)) throws -> Message? {
    try readLine(timeout: timeout).map { try Message($0) }
  }

  /// Reads messages until one satisfies `predicate`; returns all of them, that one last.
  func read(
    timeout: Duration = .seconds(10), until predicate: (Message) -> Bool
  ) throws -> [Message] {
    let deadline = ContinuousClock.now + timeout
    var messages: [Message] = []
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero, let message = try readMessage(timeout: left) else {
        throw TestFailure(
          "\(name): the awaited line never came; last lines: "
            + messages.suffix(3).map(\.text).joined(separator: " | "))
      }
      messages.append(message)
      if predicate(message) { return messages }
    }
  }

  /// Sends a request and reads up to its reply.
  @discardableResult
  func request(_ line: String, timeout: Duration = .seconds(10)) throws -> Exchange {
    try send(line)
    let messages = try read(timeout: timeout) { $0.isReply }
    return Exchange(events: Array(messages.dropLast()), reply: messages.last!)
  }

  /// Sends a request that must succeed; returns what it produced.
  @discardableResult
  func expectOK(
    _ line: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Exchange {
    let exchange = try request(line)
    #expect(
      exchange.reply.ok, "\(line) → \(exchange.reply.text)", sourceLocation: sourceLocation)
    return exchange
  }

  /// Sends a request that must fail with `code`.
  @discardableResult
  func expectError(
    _ code: String, _ line: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Message {
    let exchange = try request(line)
    #expect(
      !exchange.reply.ok && exchange.reply.errorCode == code,
      "\(line) → \(exchange.reply.text)", sourceLocation: sourceLocation)
    #expect(
      exchange.reply.errorMessage?.isEmpty == false, "an error needs a sentence",
      sourceLocation: sourceLocation)
    return exchange.reply
  }

  /// Everything up to end of stream; throws if the stream is not over within `timeout`.
  func readToEnd(timeout: Duration = .seconds(10)) throws -> [Message] {
    let deadline = ContinuousClock.now + timeout
    var messages: [Message] = []
    while let line = try readLine(timeout: max(deadline - ContinuousClock.now, .zero)) {
      messages.append(try Message(line))
    }
    return messages
  }

  /// Reads once into the buffer; false at end of stream (or reset).
  private func fill(until deadline: ContinuousClock.Instant) throws -> Bool {
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero else { throw TestFailure("\(name): timed out waiting for a line") }
      let milliseconds = Int32(min(left.components.seconds * 1000 + 1, 1000))
      var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let ready = poll(&entry, 1, milliseconds)
      if ready < 0 && errno != EINTR {
        throw TestFailure("\(name): poll: \(String(cString: strerror(errno)))")
      }
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
      if n > 0 {
        buffer.append(contentsOf: chunk[..<n])
        bytesRead += n
        return true
      }
      if n == 0 || errno == ECONNRESET { return false }
      if errno == EINTR || errno == EAGAIN { continue }
      throw TestFailure("\(name): read: \(String(cString: strerror(errno)))")
    }
  }
}

// MARK: - scenes used by several suites

enum Scenes {
  /// A 20×20 box that falls onto the floor of a 200×200 box and comes to rest (a contact with
  /// the reference bounds, then `pause`).
  static let dropOnFloor =
    #"{"bounds":[200,200],"items":[{"id":"a","center":[100,150],"size":[20,20]}],"#
    + #""behaviors":[{"type":"gravity","id":"g","items":["a"]},"#
    + #"{"type":"collision","id":"c","items":["a"],"reference_bounds":true}]}"#

  /// `count` boxes falling forever (gravity, nothing to land on): a session that never rests.
  static func endlessFall(items count: Int) -> String {
    let items = (0..<count).map {
      #"{"id":"i\#($0)","center":[\#(10 + $0 % 30 * 10),10],"# + #""size":[5,5]}"#
    }
    let ids = (0..<count).map { #""i\#($0)""# }
    return #"{"bounds":[320,568],"items":["# + items.joined(separator: ",")
      + #"],"behaviors":[{"type":"gravity","items":["# + ids.joined(separator: ",") + "]}]}"
  }
}
