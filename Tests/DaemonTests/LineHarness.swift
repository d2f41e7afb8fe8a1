import Glibc
import HostFuzzing
import JSON
import Logging
import SessionHost
import Wire

@testable import Daemon

/// Applies the request lines of one input to a fresh daemon, over up to four connections, with no
/// client process: what the fuzzer (`dynd-fuzz`) and the corpus replay test run.
///
/// Each `run` builds a new `Server` (so session names such as `s1` mean the same in every run)
/// and writes the input's lines to it through socket pairs, each attached as a `Client` exactly
/// as a peer on the listening socket is. The daemon's own `Connection` splits the lines,
/// `RequestDecoder` decodes them and the daemon's request handling applies them to real sessions
/// (scenes, transitions, both clocks).
///
/// **Input syntax.** Lines are separated by `\n`. A line that starts with `@N ` (N a digit 0…3)
/// belongs to connection N, without the prefix; any other line belongs to connection 0, so an
/// input without prefixes is one client's conversation. Connection N is opened at its first
/// line. Four words after the prefix are the client's actions instead of lines:
///
/// - `@N close`: the client ends its side (EOF); the daemon answers what it owes and closes.
/// - `@N reset`: the client vanishes: its socket is closed without reading what the daemon still
///   owes. Its previous line is then not waited for, so a `step` can be cut off in the middle.
/// - `@N stall`: the client stops reading (its output backs up in the daemon: realtime frames
///   are coalesced, a manual step pauses, a watcher may be dropped past 8 MiB); its lines are
///   still sent, but not waited for.
/// - `@N read`: it reads again.
///
/// After `close` or `reset` (or a `line_too_long`, after which the daemon closes), the next line
/// for N opens a new connection N. Connections 0…2 accept lines up to `Budget.maxLineBytes` (the
/// daemon's default, 1 MiB), so large scenes reach the daemon; connection 3 only up to
/// `Budget.strictLineBytes`, so that `line_too_long` stays within reach of short inputs (its
/// reply names the daemon's limit, `--max-line`, not this one).
///
/// **Order.** Lines are sent in the input's order, each after the reply to the one before (unless
/// that connection is stalled, or its next action is `reset`), so the interleaving of the
/// connections, and the output, is the same on every run.
///
/// **Checks.** After the last line the harness ends every connection's side and reads until the
/// daemon has closed them all: the peers' sessions close with them, as in the daemon. What the
/// daemon wrote to each connection is then checked by `LineHarness.problems(in:…)`: strict JSON
/// objects, replies and events only, exactly one reply per line and in order (only a prefix of
/// them for a connection that vanished, or that the daemon dropped for not reading); and no
/// encoder may have replaced a non-finite number.
///
/// Work per input is bounded by a `Budget`: lines past `maxLines`, and `step` requests that would
/// take the input past its frame, item-frame or simulated-time allowance, are not sent (they are
/// counted in `Outcome.skippedLines`).
///
/// Not thread-safe: use one harness per thread. Each run creates and runs its loop on the
/// calling thread.
public final class LineHarness {
  /// How many connections an input can address (`@0` … `@3`).
  public static let connectionCount = 4

  /// Limits on the work one input may cause.
  public struct Budget: Sendable {
    /// Lines of the input (actions included) that are considered; the rest is ignored.
    public var maxLines = 128
    /// Frames all the `step` requests of one input may ask for together.
    public var maxStepFrames = 200
    /// Frames × items of the stepped sessions, over all the `step` requests of one input (a
    /// session's items are over-estimated from the input: its scene, then every `add_item`).
    public var maxStepItemFrames = 20_000
    /// Animator seconds all the `step` requests of one input may cover together.
    public var maxStepSeconds = 20.0
    /// The line limit of connections 0…2: the daemon's `--max-line` default.
    public var maxLineBytes = Limits.defaultMaxLineBytes
    /// The line limit of connection 3: small, so that fuzz inputs reach `line_too_long`.
    public var strictLineBytes = 2048
    /// Wall time after which a run is reported as hung.
    public var timeout: Duration = .seconds(10)

    /// The defaults given for each field.
    public init() {}

    /// The longest line connection `index` accepts.
    public func lineLimit(connection index: Int) -> Int {
      index == LineHarness.connectionCount - 1 ? strictLineBytes : maxLineBytes
    }
  }

  /// What one input made the daemon do.
  public struct Outcome: Sendable {
    /// Every line the daemon wrote, connection by connection (each connection in the order it
    /// was opened), prefixed `@N ` for connections other than 0.
    public var output: [String] = []
    /// The replies, parsed.
    public var replies: [JSONValue] = []
    /// The events (`ev`), parsed.
    public var events: [JSONValue] = []
    /// Lines sent to the daemon.
    public var sentLines = 0
    /// Lines sent whose reply was not read: the client vanished (`reset`) first, or the daemon
    /// dropped it for not reading.
    public var unansweredLines = 0
    /// Lines left out by the budget.
    public var skippedLines = 0
    /// Connections opened (a connection N opened again after `close` counts again).
    public var connections = 0
    /// Everything wrong with the output; empty when the daemon behaved.
    public var problems: [String] = []
  }

  /// The limits every run keeps to.
  public let budget: Budget
  private let decoder = RequestDecoder()
  private let logger = Logger(label: "dynd.line-harness") { _ in SwiftLogNoOpLogHandler() }

  /// A harness whose runs are bounded by `budget`.
  public init(budget: Budget = Budget()) {
    self.budget = budget
  }

  /// Runs `input` (request lines separated by `\n`, see the type's documentation) against a fresh
  /// daemon.
  public func run(_ input: [UInt8]) -> Outcome {
    var outcome = Outcome()
    let plan = plan(input)
    outcome.skippedLines = plan.skipped
    do {
      let run = try Exchange(harness: self)
      defer {
        let left = run.tearDown()
        if left > 0 {
          outcome.problems.append("\(left) jobs still in flight after the daemon shut down")
        }
      }
      try run.perform(plan.actions)
      outcome.connections = run.finished.count
      for peer in run.finished {
        outcome.sentLines += peer.expectedReplyIDs.count
        let label = peer.index == 0 ? "" : "@\(peer.index) "
        var part = Outcome()
        Self.examine(
          peer.output, expectedReplyIDs: peer.expectedReplyIDs, complete: peer.complete,
          into: &part)
        outcome.output += part.output.map { label + $0 }
        outcome.replies += part.replies
        outcome.events += part.events
        outcome.unansweredLines += peer.expectedReplyIDs.count - part.replies.count
        let name =
          "connection \(peer.index)" + (peer.generation > 0 ? " (opened again)" : "")
        outcome.problems += part.problems.map { "\(name): \($0)" }
      }
      if run.server.nonFiniteCount > 0 {
        outcome.problems.append(
          "the encoder replaced \(run.server.nonFiniteCount) non-finite numbers by 0")
      }
    } catch {
      outcome.problems.append("the harness could not run: \(error)")
    }
    return outcome
  }

  // MARK: planning

  /// What the client does, in order.
  enum Action {
    /// Send `bytes` (with its `\n` if `terminated`) to connection `index`, whose reply must echo
    /// `id` (`nil`: no id); `wait` for the reply before going on.
    case line(index: Int, bytes: [UInt8], terminated: Bool, id: RequestID?, wait: Bool)
    /// The line is longer than the connection accepts: `line_too_long`, then the daemon closes.
    case tooLong(index: Int, bytes: [UInt8], terminated: Bool)
    case close(index: Int)
    case reset(index: Int)
    case stall(index: Int)
    case read(index: Int)

    var index: Int {
      switch self {
      case .line(let index, _, _, _, _), .tooLong(let index, _, _), .close(let index),
        .reset(let index), .stall(let index), .read(let index):
        return index
      }
    }
  }

  /// The actions and how many lines the budget left out.
  struct Plan {
    var actions: [Action] = []
    var skipped = 0
  }

  /// The connection a line of an input is for and the line without its prefix
  /// (`FuzzInput.address`).
  public static func address(_ segment: ArraySlice<UInt8>) -> (index: Int, line: ArraySlice<UInt8>)
  {
    FuzzInput.address(segment)
  }

  /// Splits `input` into lines as `Connection` does, applies the budget, and predicts the replies.
  func plan(_ input: [UInt8]) -> Plan {
    var plan = Plan()
    var segments = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // An unterminated last line is delivered at end of input only if it is not empty.
    let lastIsTerminated = segments.last?.isEmpty ?? true
    if lastIsTerminated { segments.removeLast() }
    var steps = StepBudget(
      maxFrames: budget.maxStepFrames, maxItemFrames: budget.maxStepItemFrames,
      maxSeconds: budget.maxStepSeconds)
    for (position, segment) in segments.enumerated() {
      guard position < budget.maxLines else {
        plan.skipped += segments.count - position
        break
      }
      let terminated = position < segments.count - 1 || lastIsTerminated
      let (index, slice) = Self.address(segment)
      let line = Array(slice)
      switch FuzzInput.action(line) {
      case .close?:
        plan.actions.append(.close(index: index))
        continue
      case .reset?:
        plan.actions.append(.reset(index: index))
        continue
      case .stall?:
        plan.actions.append(.stall(index: index))
        continue
      case .read?:
        plan.actions.append(.read(index: index))
        continue
      case nil:
        break
      }
      if line.count > budget.lineLimit(connection: index) {
        plan.actions.append(.tooLong(index: index, bytes: line, terminated: terminated))
        continue
      }
      let id: RequestID?
      do {
        let request = try decoder.decode(line)
        id = request.id
        guard steps.admit(request) else {
          plan.skipped += 1
          continue
        }
      } catch {
        id = error.id
      }
      plan.actions.append(
        .line(index: index, bytes: line, terminated: terminated, id: id, wait: true))
    }
    // A line followed by its connection's reset is not waited for: the client vanishes while
    // the daemon may still be working on it.
    for position in plan.actions.indices {
      guard case .line(let index, let bytes, let terminated, let id, _) = plan.actions[position]
      else { continue }
      let next = plan.actions[(position + 1)...].first { $0.index == index }
      if case .reset = next {
        plan.actions[position] = .line(
          index: index, bytes: bytes, terminated: terminated, id: id, wait: false)
      }
    }
    return plan
  }

  // MARK: the daemon

  /// One connection of a run: the daemon's side (a `Client` on a `Connection`) and the client's
  /// end of the socket pair.
  final class Peer: ConnectionDelegate {
    let index: Int
    /// How many connections `index` had before this one.
    let generation: Int
    let fd: Int32
    let client: Client
    var connection: Connection!
    /// Everything read from the daemon.
    var output: [UInt8] = []
    /// How much of `output` is counted in `replies`.
    private var scanned = 0
    /// Complete reply lines read so far.
    private(set) var replies = 0
    /// The id each reply must echo, one per line sent.
    var expectedReplyIDs: [RequestID?] = []
    var stalled = false
    /// The client side: ended (EOF sent), closed (reset), or the daemon closed it.
    var inputEnded = false
    var vanished = false
    var sawEnd = false
    /// The line was too long: the daemon closes after its reply.
    var daemonCloses = false
    /// Why the daemon closed its side, once it has.
    var closeReason: Connection.CloseReason?
    /// Whether every line sent must have been answered (false once the client vanished, or
    /// the daemon dropped a client that was not reading).
    var complete: Bool {
      !vanished && closeReason != .outputLimitExceeded && closeReason != .flushTimeout
    }

    init(index: Int, generation: Int, fd: Int32, client: Client) {
      self.index = index
      self.generation = generation
      self.fd = fd
      self.client = client
    }

    /// Whether the daemon has closed its side and told the client.
    var isClosed: Bool { closeReason != nil }
    var isAnswered: Bool { replies >= expectedReplyIDs.count }

    /// Reads what the socket holds; false when there was nothing (or it ended).
    func receive(into scratch: inout [UInt8]) -> Bool {
      guard !stalled, !sawEnd, !vanished else { return false }
      let n = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if n > 0 {
        output += scratch[0..<n]
        countReplies()
        return true
      }
      if n == 0 || errno != EAGAIN { sawEnd = true }
      return false
    }

    /// Counts the complete lines that are replies (the encoder writes `ok` first).
    private func countReplies() {
      while let newline = output[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        if output[scanned..<newline].starts(with: #"{"ok":"#.utf8) { replies += 1 }
        scanned = newline + 1
      }
    }

    // ConnectionDelegate: the client's, noting why the connection closed.
    func connection(_ connection: Connection, didReceiveLine line: UnsafeRawBufferPointer) {
      client.connection(connection, didReceiveLine: line)
    }
    func connectionLineTooLong(_ connection: Connection) {
      client.connectionLineTooLong(connection)
    }
    func connectionOutputDidDrain(_ connection: Connection) {
      client.connectionOutputDidDrain(connection)
    }
    func connectionDidReachEndOfInput(_ connection: Connection) {
      client.connectionDidReachEndOfInput(connection)
    }
    func connectionDidClose(_ connection: Connection, reason: Connection.CloseReason) {
      closeReason = reason
      client.connectionDidClose(connection, reason: reason)
    }
  }

  /// One run: the server, the open peers, and those that are done.
  final class Exchange {
    let harness: LineHarness
    let server: Server
    private var peers: [Peer?] = Array(repeating: nil, count: LineHarness.connectionCount)
    private var generations = Array(repeating: 0, count: LineHarness.connectionCount)
    private var stalled = Array(repeating: false, count: LineHarness.connectionCount)
    /// Every peer, in the order they were opened.
    private(set) var finished: [Peer] = []
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)
    private let deadline: ContinuousClock.Instant

    init(harness: LineHarness) throws {
      self.harness = harness
      var options = Server.Options()
      options.socketPath = "/tmp/dynd-harness-\(getpid())-\(pthread_self()).sock"
      options.handleSignals = false
      options.maxLine = harness.budget.maxLineBytes
      server = try Server(options: options, logger: harness.logger)
      deadline = ContinuousClock.now + harness.budget.timeout
    }

    /// Closes whatever is still open, and the sessions (kept ones outlive their connection in
    /// the daemon; here the daemon goes too); returns how many jobs were still in flight 5 s
    /// later (none, in a daemon that works).
    func tearDown() -> Int {
      for peer in finished {
        if !peer.isClosed { peer.connection.close() }
        if !peer.vanished {
          peer.vanished = true
          Glibc.close(peer.fd)
        }
      }
      server.loop.runOnce()
      _ = server.host.shutdown(reason: "harness")
      // Whatever the closes scheduled runs before the loop is freed, and so do the results of
      // frames the workers are still computing (each holds its session until the loop takes it).
      let deadline = ContinuousClock.now + .seconds(5)
      repeat {
        server.loop.runOnce()
      } while server.host.jobsInFlight > 0 && ContinuousClock.now < deadline
      return server.host.jobsInFlight
    }

    func perform(_ actions: [Action]) throws {
      for action in actions {
        switch action {
        case .line(let index, let bytes, let terminated, let id, let wait):
          let peer = try open(index)
          peer.expectedReplyIDs.append(id)
          try send(bytes + (terminated ? [UInt8(ascii: "\n")] : []), to: peer)
          if wait && !terminated {
            // An unterminated last line is only delivered at end of input.
            try end(peer)
          } else if wait && !peer.stalled {
            try pump(until: "the reply to a line on connection \(index)") {
              peer.isAnswered || peer.sawEnd
            }
          } else {
            try pump()
          }
        case .tooLong(let index, let bytes, let terminated):
          let peer = try open(index)
          peer.expectedReplyIDs.append(nil)
          peer.daemonCloses = true
          try send(bytes + (terminated ? [UInt8(ascii: "\n")] : []), to: peer)
          if !peer.stalled {
            try pump(until: "the close after line_too_long on connection \(index)") {
              peer.sawEnd && peer.isClosed
            }
          }
        case .close(let index):
          if let peer = peers[index] { try end(peer) }
        case .reset(let index):
          if let peer = peers[index] { try vanish(peer) }
        case .stall(let index):
          stalled[index] = true
          peers[index]?.stalled = true
        case .read(let index):
          stalled[index] = false
          peers[index]?.stalled = false
          try pump()
        }
      }
      for peer in peers.compactMap({ $0 }) { try end(peer) }
    }

    /// Connection `index`, opened if it is not (or no longer) open.
    private func open(_ index: Int) throws -> Peer {
      if let peer = peers[index] {
        if !peer.daemonCloses && !peer.inputEnded && !peer.vanished && !peer.sawEnd {
          return peer
        }
        try end(peer)
      }
      var fds: [Int32] = [-1, -1]
      let type = SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue
      guard socketpair(AF_UNIX, Int32(type), 0, &fds) == 0 else {
        throw TransportError.system("socketpair for the harness connection")
      }
      let client = server.makeClient(pid: getpid())
      let peer = Peer(index: index, generation: generations[index], fd: fds[1], client: client)
      generations[index] += 1
      peer.stalled = stalled[index]
      var limits = Connection.Limits()
      limits.maxLineLength = harness.budget.lineLimit(connection: index)
      let connection = Connection(
        loop: server.loop, socket: fds[0], limits: limits, logger: harness.logger,
        delegate: peer)
      client.attach(connection)
      peer.connection = connection
      peers[index] = peer
      finished.append(peer)
      return peer
    }

    /// Writes `bytes` to the daemon, running its loop while the socket is full.
    private func send(_ bytes: [UInt8], to peer: Peer) throws {
      var written = 0
      while written < bytes.count && !peer.vanished && !peer.inputEnded {
        let n = bytes.withUnsafeBytes {
          Glibc.send(peer.fd, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL))
        }
        if n > 0 {
          written += n
        } else if errno != EAGAIN {
          return  // the daemon closed its side (after line_too_long): the rest is not read
        }
        guard written < bytes.count else { break }
        // The socket is full. A daemon that stopped reading for good (line_too_long) will not
        // take the rest; one that paused for flow control waits for this client to read, so a
        // stalled client gives up stalling (a blocked writer that never reads deadlocks).
        if !peer.connection.isOpen { return }
        if peer.stalled && peer.connection.readingPaused { peer.stalled = false }
        try pump()
      }
    }

    /// The client ends its side and reads until the daemon has closed the connection.
    private func end(_ peer: Peer) throws {
      peer.stalled = false
      if !peer.inputEnded && !peer.vanished {
        shutdown(peer.fd, Int32(SHUT_WR))
        peer.inputEnded = true
      }
      if !peer.vanished {
        try pump(until: "the daemon to close connection \(peer.index) after its EOF") {
          peer.sawEnd && peer.isClosed
        }
      }
      if peers[peer.index] === peer { peers[peer.index] = nil }
    }

    /// The client closes its socket without reading on; the daemon must notice and close.
    private func vanish(_ peer: Peer) throws {
      if !peer.vanished {
        peer.vanished = true
        Glibc.close(peer.fd)
      }
      if peers[peer.index] === peer { peers[peer.index] = nil }
      try pump(until: "the daemon to close connection \(peer.index) after its peer vanished") {
        peer.isClosed
      }
    }

    /// Runs the loop once and reads what every reading peer has.
    private func pump() throws {
      server.loop.runOnce()
      for peer in finished where !peer.sawEnd && !peer.vanished && !peer.stalled {
        while peer.receive(into: &scratch) {}
      }
      guard ContinuousClock.now < deadline else {
        throw TransportError(
          .system, "the daemon did not finish within \(harness.budget.timeout)")
      }
    }

    /// Pumps until `done` (or throws at the deadline, naming `what` it waited for).
    private func pump(until what: String, _ done: () -> Bool) throws {
      while !done() {
        do {
          try pump()
        } catch {
          throw TransportError(
            .system,
            "waiting for \(what), the daemon did not finish within "
              + "\(harness.budget.timeout)")
        }
      }
    }
  }
}

extension LineHarness {
  /// What is wrong with `output`, all the daemon wrote to a peer that sent lines answered with
  /// `expectedReplyIDs` (in order; `nil` where the reply carries no id).
  ///
  /// Every message must be a complete line holding a JSON object that the strict parser accepts
  /// (so every number is finite): a reply (`ok` true or false, echoing the request's id, with an
  /// `error` code and message when false) or an event (`ev` and `session`). There must be exactly
  /// one reply per line, in order; when the output is not `complete` (the peer vanished, or was
  /// dropped for not reading), the replies may stop early and the last line may be cut.
  public static func problems(
    in output: [UInt8], expectedReplyIDs: [RequestID?], complete: Bool = true
  ) -> [String] {
    var outcome = Outcome()
    examine(output, expectedReplyIDs: expectedReplyIDs, complete: complete, into: &outcome)
    return outcome.problems
  }

  /// Sorts `output` into replies and events, noting its problems (see `problems(in:…)`).
  static func examine(
    _ output: [UInt8], expectedReplyIDs: [RequestID?], complete: Bool = true,
    into outcome: inout Outcome
  ) {
    var lines = output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    if lines.last?.isEmpty ?? false { lines.removeLast() }
    if let last = output.last, last != UInt8(ascii: "\n") {
      if complete { outcome.problems.append("the output ends inside a line") }
      lines.removeLast()  // cut off with the connection: not a message
    }
    let parser = JSONParser()
    for line in lines.map(Array.init) {
      let text = String(decoding: line, as: UTF8.self)
      outcome.output.append(text)
      let message: JSONValue
      do {
        message = try parser.parse(line)
      } catch {
        outcome.problems.append("not valid JSON (\(error.message)): \(text)")
        continue
      }
      guard case .object = message else {
        outcome.problems.append("not an object: \(text)")
        continue
      }
      if let event = message["ev"] {
        if event.string == nil || message["ok"] != nil || message["session"]?.string == nil {
          outcome.problems.append("a malformed event: \(text)")
        }
        outcome.events.append(message)
        continue
      }
      guard let ok = message["ok"]?.bool else {
        outcome.problems.append("neither a reply nor an event: \(text)")
        continue
      }
      if !ok
        && (message["error"]?["code"]?.string == nil
          || message["error"]?["message"]?.string == nil)
      {
        outcome.problems.append("an error reply without code and message: \(text)")
      }
      let index = outcome.replies.count
      if index < expectedReplyIDs.count,
        !echoes(expectedReplyIDs[index], message: message, text: text)
      {
        outcome.problems.append("reply \(index + 1) does not echo the request's id: \(text)")
      }
      outcome.replies.append(message)
    }
    if outcome.replies.count > expectedReplyIDs.count
      || (complete && outcome.replies.count != expectedReplyIDs.count)
    {
      outcome.problems.append(
        "\(outcome.replies.count) replies to \(expectedReplyIDs.count) requests")
    }
  }

  /// Whether a reply carries `id` unchanged (a numeric id as the same JSON text).
  private static func echoes(_ id: RequestID?, message: JSONValue, text: String) -> Bool {
    switch id {
    case nil:
      return message["id"] == nil
    case .string(let expected):
      return message["id"] == .string(expected)
    case .number(let expected):
      return message["id"]?.number != nil
        && (text.contains(#""id":\#(expected),"#) || text.contains(#""id":\#(expected)}"#))
    }
  }
}
