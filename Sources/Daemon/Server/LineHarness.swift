internal import CLibevent
import Glibc
import Logging
import Wire

/// Applies the request lines of one input to a fresh daemon, with no client process: what the
/// fuzzer (`dynd-fuzz`) and the corpus replay test run.
///
/// Each `run` builds a new `Server` (so session names such as `s1` mean the same in every run),
/// connects one `Client` to it through a socket pair and writes the input's lines into the
/// other end. The daemon's own `Connection` splits the lines, `RequestDecoder` decodes them and
/// the daemon's request handling applies them to real sessions (scenes, transitions, both
/// clocks), exactly as for a peer on the listening socket. After the last line the harness ends
/// its side, and reads until the daemon has closed the connection: the peer's sessions close
/// with it, as they would in the daemon.
///
/// Everything the daemon wrote is then checked by `LineHarness.problems(in:expectedReplyIDs:)`,
/// and the encoder must not have replaced a non-finite number.
///
/// Work per input is bounded by a `Budget`: lines past `maxLines`, and `step` requests that
/// would take the input past its frame or simulated-time allowance, are not sent (they are
/// counted in `Outcome.skippedLines`).
///
/// Not thread-safe: use one harness per thread. Each run creates and runs its loop on the
/// calling thread.
public final class LineHarness {
  /// Limits on the work one input may cause.
  public struct Budget: Sendable {
    /// Lines of the input that are considered; the rest is ignored.
    public var maxLines = 64
    /// Frames all the `step` requests of one input may ask for together.
    public var maxStepFrames = 200
    /// Animator seconds all the `step` requests of one input may cover together.
    public var maxStepSeconds = 20.0
    /// The daemon's `--max-line` for the run: small, so that fuzz inputs reach `line_too_long`.
    public var maxLineBytes = 2048
    /// Wall time after which a run is reported as hung.
    public var timeout: Duration = .seconds(10)

    /// The defaults given for each field.
    public init() {}
  }

  /// What one input made the daemon do.
  public struct Outcome: Sendable {
    /// Every line the daemon wrote, in order.
    public var output: [String] = []
    /// The replies, parsed.
    public var replies: [JSONValue] = []
    /// The events (`ev`), parsed.
    public var events: [JSONValue] = []
    /// Lines sent to the daemon.
    public var sentLines = 0
    /// Lines left out by the budget.
    public var skippedLines = 0
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

  /// Runs `input` (request lines separated by `\n`) against a fresh daemon.
  public func run(_ input: [UInt8]) -> Outcome {
    var outcome = Outcome()
    let plan = plan(input)
    outcome.sentLines = plan.expectedReplyIDs.count
    outcome.skippedLines = plan.skipped
    do {
      let (bytes, nonFinite) = try exchange(plan.bytes)
      Self.examine(bytes, expectedReplyIDs: plan.expectedReplyIDs, into: &outcome)
      if nonFinite > 0 {
        outcome.problems.append("the encoder replaced \(nonFinite) non-finite numbers by 0")
      }
    } catch {
      outcome.problems.append("the harness could not run: \(error)")
    }
    return outcome
  }

  // MARK: planning

  /// The bytes to send and the id each reply must echo.
  private struct Plan {
    var bytes: [UInt8] = []
    /// One entry per line the daemon will answer (`nil`: the reply carries no id).
    var expectedReplyIDs: [RequestID?] = []
    var skipped = 0
  }

  /// Splits `input` into lines as `Connection` does, applies the budget, and predicts the replies.
  private func plan(_ input: [UInt8]) -> Plan {
    var plan = Plan()
    var segments = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    // An unterminated last line is delivered at end of input only if it is not empty.
    let lastIsTerminated = segments.last?.isEmpty ?? true
    if lastIsTerminated { segments.removeLast() }
    var frames = 0
    var seconds = 0.0
    var fps: [String: Double] = [:]
    for (index, segment) in segments.enumerated() {
      guard index < budget.maxLines else {
        plan.skipped += segments.count - index
        break
      }
      let isLast = index == segments.count - 1
      let line = Array(segment)
      if line.count > budget.maxLineBytes {
        // Answered `line_too_long` (no id); the daemon reads nothing after it.
        plan.bytes += line
        plan.expectedReplyIDs.append(nil)
        plan.skipped += segments.count - index - 1
        break
      }
      let id: RequestID?
      do {
        let request = try decoder.decode(line)
        id = request.id
        switch request.op {
        case .open(let open):
          if let name = open.session { fps[name] = open.fps }
        case .step(let step):
          let span = step.span(fps: fps[step.session] ?? Limits.fps.lowerBound)
          guard frames + step.count <= budget.maxStepFrames,
            seconds + span <= budget.maxStepSeconds
          else {
            plan.skipped += 1
            continue
          }
          frames += step.count
          seconds += span
        default:
          break
        }
      } catch {
        id = error.id
      }
      plan.bytes += line
      if !isLast || lastIsTerminated { plan.bytes.append(UInt8(ascii: "\n")) }
      plan.expectedReplyIDs.append(id)
    }
    return plan
  }

  // MARK: the daemon

  /// Sends `bytes` to a fresh daemon, ends input, and returns all it wrote before closing, with
  /// the number of non-finite numbers its encoder met.
  private func exchange(_ bytes: [UInt8]) throws -> (output: [UInt8], nonFinite: Int) {
    var options = Server.Options()
    options.socketPath = "/tmp/dynd-harness-\(getpid())-\(pthread_self()).sock"
    options.handleSignals = false
    options.maxLine = budget.maxLineBytes
    let server = try Server(options: options, logger: logger)
    defer {
      // Kept sessions outlive their connection in the daemon; here the daemon goes too.
      for name in server.sessionOrder { server.closeSession(name) }
    }
    var fds: [Int32] = [-1, -1]
    let type = SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue
    guard socketpair(AF_UNIX, Int32(type), 0, &fds) == 0 else {
      throw TransportError.system("socketpair for the harness connection")
    }
    let peer = fds[1]
    defer { Glibc.close(peer) }
    let client = server.adopt(fds[0], PeerCredentials(pid: getpid(), uid: getuid(), gid: getgid()))
    let connection: Connection = client.connection

    var output: [UInt8] = []
    var written = 0
    var inputEnded = false
    var peerSawEnd = false
    var scratch = [UInt8](repeating: 0, count: 1 << 16)
    let deadline = ContinuousClock.now + budget.timeout
    // Until the daemon has closed the socket and told the client (connectionDidClose).
    while !(peerSawEnd && connection.delegate == nil) {
      if written < bytes.count {
        let n = bytes.withUnsafeBytes {
          Glibc.send(peer, $0.baseAddress! + written, $0.count - written, Int32(MSG_NOSIGNAL))
        }
        if n > 0 { written += n }
      } else if !inputEnded {
        shutdown(peer, Int32(SHUT_WR))
        inputEnded = true
      }
      _ = event_base_loop(server.loop.base, EVLOOP_NONBLOCK)
      while !peerSawEnd {
        let n = scratch.withUnsafeMutableBytes { recv(peer, $0.baseAddress, $0.count, 0) }
        if n > 0 {
          output += scratch[0..<n]
        } else if n == 0 || errno != EAGAIN {
          peerSawEnd = true
        } else {
          break
        }
      }
      guard ContinuousClock.now < deadline else {
        connection.close()
        _ = event_base_loop(server.loop.base, EVLOOP_NONBLOCK)
        throw TransportError(.system, "the daemon did not finish within \(budget.timeout)")
      }
    }
    // Whatever the close scheduled (nothing, normally) runs before the loop is freed.
    _ = event_base_loop(server.loop.base, EVLOOP_NONBLOCK)
    return (output, client.encoder.nonFiniteCount)
  }
}

extension LineHarness {
  /// What is wrong with `output`, all the daemon wrote to a peer that sent lines answered with
  /// `expectedReplyIDs` (in order; `nil` where the reply carries no id).
  ///
  /// Every message must be a complete line holding a JSON object that the strict parser accepts
  /// (so every number is finite): a reply (`ok` true or false, echoing the request's id, with an
  /// `error` code and message when false) or an event (`ev` and `session`). There must be exactly
  /// one reply per line, in order.
  public static func problems(in output: [UInt8], expectedReplyIDs: [RequestID?]) -> [String] {
    var outcome = Outcome()
    examine(output, expectedReplyIDs: expectedReplyIDs, into: &outcome)
    return outcome.problems
  }

  /// Sorts `output` into replies and events, noting its problems (see `problems(in:…)`).
  static func examine(
    _ output: [UInt8], expectedReplyIDs: [RequestID?], into outcome: inout Outcome
  ) {
    if let last = output.last, last != UInt8(ascii: "\n") {
      outcome.problems.append("the output ends inside a line")
    }
    let parser = JSONParser()
    for line in output.split(separator: UInt8(ascii: "\n")).map(Array.init) {
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
    if outcome.replies.count != expectedReplyIDs.count {
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
