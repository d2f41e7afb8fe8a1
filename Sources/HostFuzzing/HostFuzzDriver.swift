import EmbeddedHost
import JSON
import SessionHost
import Wire

/// Applies the request lines of one input to a fresh `EmbeddedHost`, as up to four peers, with
/// no socket: what the fuzzer (`dynd-fuzz`) and the host's corpus replay test run. The socket
/// -level twin is the daemon tests' `LineHarness`; inputs mean the same to both.
///
/// **Input syntax.** Lines are separated by `\n`. A line that starts with `@N ` (N a digit 0…3)
/// belongs to connection N, without the prefix; any other line belongs to connection 0, so an
/// input without prefixes is one client's conversation. Connection N connects a peer at its
/// first line. Four words after the prefix are the client's actions instead of lines:
///
/// - `@N close`: the client leaves after everything it sent is answered (a stalled peer is
///   resumed first, so its `step` finishes): `EmbeddedHost.disconnect`.
/// - `@N reset`: the client vanishes at once: a request of its still in progress (a stalled
///   `step`) is dropped unanswered.
/// - `@N stall`: the peer stops reading (`EmbeddedHost.stall`): its `step`s wait (its frames and
///   reply come when it reads again); its lines are still sent.
/// - `@N read`: it reads again (`EmbeddedHost.resume`).
///
/// After `close` or `reset`, the next line for N connects a new peer N (stalled if N was). An
/// unterminated last line is sent too (the daemon delivers it at end of input). The host sees
/// decoded requests, not raw lines: a line longer than its connection's limit
/// (`Budget.lineLimit(connection:)`: 1 MiB, 2 KiB for connection 3) is skipped, where the
/// daemon would answer `line_too_long` and close.
///
/// **Order.** Lines are applied in the input's order; `EmbeddedHost.send` runs the jobs a line
/// starts before the next line, so the output is the same on every run. Realtime sessions
/// advance only at the end: `advance(by: Budget.realtimeRun)`.
///
/// **Checks.** Every line a peer receives must be a JSON object that the strict parser accepts
/// (so every number is finite) and that `ServerMessageDecoder` reads as a known reply or event
/// (an event other than `shutdown` names its session; an error reply has a code and message).
/// Each peer gets exactly one reply per request line, in order, echoing the request's id (a
/// peer that vanished with `reset` gets a prefix of them). The encoder must have replaced no
/// non-finite number. After the last line and the realtime run every peer leaves; then only
/// sessions opened with `keep` may be left (checked with `list`), and the host shuts down.
///
/// Work per input is bounded by a `Budget`: lines past `maxLines`, and `step` requests that would
/// take the input past its frame, item-frame or simulated-time allowance, are not sent (they are
/// counted in `Outcome.skippedLines`), since a step of a huge count would otherwise run for
/// a very long time.
public struct HostFuzzDriver: Sendable {
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
    /// The line limit of connection 3, as the daemon harness's.
    public var strictLineBytes = 2048
    /// How long realtime sessions run after the last line.
    public var realtimeRun: Duration = .seconds(1)

    /// The defaults given for each field.
    public init() {}

    /// The longest line connection `index` accepts.
    public func lineLimit(connection index: Int) -> Int {
      index == HostFuzzDriver.connectionCount - 1 ? strictLineBytes : maxLineBytes
    }
  }

  /// What one input made the host do.
  public struct Outcome: Sendable {
    /// Every line the peers received, peer by peer (each in the order it connected), prefixed
    /// `@N ` for connections other than 0.
    public var output: [String] = []
    /// The replies, decoded.
    public var replies: [ServerMessage] = []
    /// How many events the peers received.
    public var events = 0
    /// Lines sent to the host.
    public var sentLines = 0
    /// Lines sent whose reply never came (the peer vanished first).
    public var unansweredLines = 0
    /// Lines left out by the budget (too long, past `maxLines`, or a step over budget).
    public var skippedLines = 0
    /// Peers connected (a connection N opened again after `close` counts again).
    public var connections = 0
    /// Sessions left open once every peer had left (kept ones).
    public var keptSessions = 0
    /// Everything wrong with the output; empty when the host behaved.
    public var problems: [String] = []
  }

  /// The limits every run keeps to.
  public let budget: Budget

  /// A driver whose runs are bounded by `budget`.
  public init(budget: Budget = Budget()) {
    self.budget = budget
  }

  // MARK: planning

  /// What the client does, in order.
  enum Action {
    /// Send `bytes` from connection `index`; the reply must echo `id`. `request` is the decoded
    /// request (nil when the line does not decode).
    case line(index: Int, bytes: [UInt8], id: RequestID?, request: Request?)
    case close(index: Int)
    case reset(index: Int)
    case stall(index: Int)
    case read(index: Int)
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

  /// Splits `input` into lines, applies the budget, and decodes the requests.
  func plan(_ input: [UInt8]) -> Plan {
    let decoder = RequestDecoder()
    var plan = Plan()
    var segments = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // An unterminated last line is delivered at end of input only if it is not empty.
    if segments.last?.isEmpty ?? false { segments.removeLast() }
    var steps = StepBudget(
      maxFrames: budget.maxStepFrames, maxItemFrames: budget.maxStepItemFrames,
      maxSeconds: budget.maxStepSeconds)
    for (position, segment) in segments.enumerated() {
      guard position < budget.maxLines else {
        plan.skipped += segments.count - position
        break
      }
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
      guard line.count <= budget.lineLimit(connection: index) else {
        plan.skipped += 1
        continue
      }
      let id: RequestID?
      var decoded: Request?
      do {
        let request = try decoder.decode(line)
        decoded = request
        id = request.id
        guard steps.admit(request) else {
          plan.skipped += 1
          continue
        }
      } catch {
        id = error.id
      }
      plan.actions.append(.line(index: index, bytes: line, id: id, request: decoded))
    }
    return plan
  }

  // MARK: running

  /// One peer of a run and what it received.
  final class Client {
    let index: Int
    /// How many peers connection `index` had before this one.
    let generation: Int
    let peer: PeerID
    /// The requests sent, in order (nil: a line that did not decode), with the ids to echo.
    var requests: [(id: RequestID?, request: Request?)] = []
    var output: [String] = []
    var replies: [ServerMessage] = []
    var events = 0
    /// False once the peer vanished (`reset`): its replies may stop early.
    var complete = true
    var problems: [String] = []

    init(index: Int, generation: Int, peer: PeerID) {
      self.index = index
      self.generation = generation
      self.peer = peer
    }

    var name: String {
      "connection \(index)" + (generation > 0 ? " (opened again)" : "")
    }
  }

  /// One run: the host, the connected peers, and every peer in the order it connected.
  final class Run {
    let budget: Budget
    let host = EmbeddedHost()
    private let decoder = ServerMessageDecoder()
    private let parser = JSONParser()
    private var slots: [Client?] = Array(repeating: nil, count: HostFuzzDriver.connectionCount)
    private var generations = Array(repeating: 0, count: HostFuzzDriver.connectionCount)
    private var stalled = Array(repeating: false, count: HostFuzzDriver.connectionCount)
    private var byPeer: [PeerID: Client] = [:]
    private(set) var clients: [Client] = []
    /// Whether the last session opened under each name was opened with `keep`.
    private var kept: [String: Bool] = [:]
    var problems: [String] = []

    init(budget: Budget) { self.budget = budget }

    func perform(_ actions: [Action]) {
      for action in actions {
        switch action {
        case .line(let index, let bytes, let id, let request):
          let client = connect(index)
          client.requests.append((id, request))
          take(host.send(bytes, from: client.peer))
        case .close(let index):
          if let client = slots[index] { leave(client) }
        case .reset(let index):
          if let client = slots[index] {
            client.complete = false
            slots[index] = nil
            take(host.disconnect(client.peer))
          }
        case .stall(let index):
          stalled[index] = true
          if let client = slots[index] { host.stall(client.peer) }
        case .read(let index):
          stalled[index] = false
          if let client = slots[index] { take(host.resume(client.peer)) }
        }
      }
      take(host.advance(by: budget.realtimeRun))
      for client in slots.compactMap({ $0 }) { leave(client) }
    }

    /// The peer of connection `index`, connected if there is none.
    private func connect(_ index: Int) -> Client {
      if let client = slots[index] { return client }
      let client = Client(index: index, generation: generations[index], peer: host.connect())
      generations[index] += 1
      if stalled[index] { host.stall(client.peer) }
      slots[index] = client
      byPeer[client.peer] = client
      clients.append(client)
      return client
    }

    /// The peer leaves once it has everything it is owed (a stalled one reads first).
    private func leave(_ client: Client) {
      take(host.resume(client.peer))
      slots[client.index] = nil
      take(host.disconnect(client.peer))
    }

    /// Checks what the peers received and files it.
    private func take(_ received: [PeerID: [String]]) {
      for (peer, lines) in received.sorted(by: { $0.key.value < $1.key.value }) {
        guard let client = byPeer[peer] else {
          problems.append("\(peer), never connected, received \(lines.count) lines")
          continue
        }
        for line in lines { examine(line, for: client) }
      }
    }

    /// Checks one line a peer received (see the driver's documentation).
    private func examine(_ line: String, for client: Client) {
      client.output.append(line)
      func problem(_ text: String) { client.problems.append("\(text): \(line)") }
      do {
        guard case .object = try parser.parse(line) else { return problem("not an object") }
      } catch {
        return problem("not valid JSON (\(error.message))")
      }
      let message: ServerMessage
      do {
        message = try decoder.decode(line)
      } catch {
        return problem("not a message (\(error.message))")
      }
      switch message {
      case .unknownEvent(let name, _):
        problem("an unknown event '\(name)'")
      case .unknownError(_, let code, _):
        problem("an error with an unknown code '\(code)'")
      case .event(let event):
        client.events += 1
        if event.session == nil && event.name != "shutdown" { problem("an event without session") }
      case .reply(let reply):
        let index = client.replies.count
        client.replies.append(message)
        guard index < client.requests.count else {
          return problem("reply \(index + 1) to \(client.requests.count) requests")
        }
        let sent = client.requests[index]
        if reply.id != sent.id { problem("reply \(index + 1) does not echo the request's id") }
        if case .failure(let error) = reply.result, error.message.isEmpty {
          problem("an error reply without a message")
        }
        if let open = sent.request?.op.request as? OpenRequest,
          case .open(let name, _)? = message.replyBody
        {
          kept[name] = open.keep
        }
      }
    }

    /// The checks after every peer left: replies complete, only kept sessions left.
    func finish(into outcome: inout Outcome) {
      for client in clients {
        outcome.sentLines += client.requests.count
        outcome.unansweredLines += max(0, client.requests.count - client.replies.count)
        if client.complete && client.replies.count < client.requests.count {
          client.problems.append(
            "\(client.replies.count) replies to \(client.requests.count) requests")
        }
        let label = client.index == 0 ? "" : "@\(client.index) "
        outcome.output += client.output.map { label + $0 }
        outcome.replies += client.replies
        outcome.events += client.events
        outcome.problems += client.problems.map { "\(client.name): \($0)" }
      }
      outcome.connections = clients.count
      if host.nonFiniteCount > 0 {
        outcome.problems.append(
          "the encoder replaced \(host.nonFiniteCount) non-finite numbers by 0")
      }
      if host.host.jobsInFlight > 0 {
        outcome.problems.append("\(host.host.jobsInFlight) jobs still in flight at the end")
      }
      // Only kept sessions outlive their owners.
      let inspector = host.connect()
      let listed = host.send(#"{"op":"list"}"#, from: inspector)[inspector] ?? []
      if listed.count == 1, case .list(let page)? = try? decoder.decode(listed[0]).replyBody {
        let stray = page.sessions.map(\.session).filter { kept[$0] != true }
        if !stray.isEmpty {
          outcome.problems.append(
            "sessions left open after every peer left, not kept: \(stray.joined(separator: ", "))")
        }
        if page.sessions.count != host.host.sessionCount {
          outcome.problems.append(
            "list shows \(page.sessions.count) sessions, the host holds \(host.host.sessionCount)")
        }
        outcome.keptSessions = page.sessions.count
      } else {
        outcome.problems.append("a final list was not answered by one reply: \(listed)")
      }
      host.disconnect(inspector)
      _ = host.host.shutdown(reason: "fuzz")
      host.environment.runPending()
    }
  }

  /// Runs `input` (request lines separated by `\n`, see the type's documentation) against a fresh
  /// host.
  public func run(_ input: [UInt8]) -> Outcome {
    var outcome = Outcome()
    let plan = plan(input)
    outcome.skippedLines = plan.skipped
    let run = Run(budget: budget)
    run.perform(plan.actions)
    outcome.problems += run.problems
    run.finish(into: &outcome)
    return outcome
  }

  /// Runs `input` given as text.
  public func run(_ input: String) -> Outcome { run(Array(input.utf8)) }
}
