import ArgumentParser
import Glibc
import Histogram
import Primitives
import Wire

/// How soon a drag shows on screen: the time from sending a `changed` gesture sample to the
/// first realtime frame in which the lock screen sits where that sample put it.
///
/// One connection opens a `lock-screen` session on the realtime clock (which also makes it a
/// watcher), touches it at (160, 300) and moves the finger up and down by a different amount each
/// time, at seeded random intervals that do not line up with the frame period. A sample is
/// reflected by a frame whose screen center y is the screen's y at `began` plus the finger's
/// displacement since `began`, within 1 pt; a sample that the next one supersedes first, or that
/// nothing reflects within 250 ms, is not reflected.
struct GestureLatencyBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "gesture-latency",
    abstract: "Time a drag's changed samples to the first realtime frame that shows them.")

  @Option(help: "changed samples sent (each 20 to 45 ms after the previous one).")
  var samples: Int = 600

  @Option(help: "Frame rate of the realtime session.")
  var fps: Double = 60

  @Option(help: "Seed of the finger's path and of the intervals: the same seed, the same drag.")
  var seed: UInt64 = 1

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func validate() throws {
    guard (1...100_000).contains(samples), fps.isFinite, (1...240).contains(fps) else {
      throw ValidationError("--samples is 1…100000 and --fps 1…240")
    }
  }

  func run() throws {
    let path = fingerPath(count: samples, seed: seed)
    let daemon = try DaemonProcess(tag: "gesture")
    defer { daemon.stop() }
    let probe = DragProbe(socket: try LineSocket(path: daemon.socketPath))
    let load = loadAverage()
    try probe.send(
      Op(
        OpenRequest(
          source: .transition(name: "lock-screen", params: .init()), session: "g",
          fps: fps)))
    try probe.pump(until: after(5)) { probe.replies < 1 }
    guard probe.replies == 1 else { throw BenchError("dynd did not answer the open") }
    try probe.pump(until: after(2)) { !probe.paused }  // a fresh lock screen settles first
    let restY = probe.screenY

    var sent = monotonicNanoseconds()
    try probe.send(gesture(.began, y: startY, at: sent))
    for sample in path {
      try probe.pump(until: sent + sample.interval)
      sent = monotonicNanoseconds()
      try probe.send(gesture(.changed, y: sample.y, at: sent))
      probe.sent(target: restY + sample.y - startY, at: sent)
    }
    try probe.pump(until: after(0.25)) { probe.pending != nil }
    probe.giveUp()
    let end = monotonicNanoseconds()
    try probe.send(gesture(.ended, y: path.last!.y, at: end, velocity: .zero))
    try probe.send(Op(CloseRequest(session: "g")))
    try probe.pump(until: after(5)) { probe.replies < samples + 4 }
    guard probe.replies == samples + 4 else {
      throw BenchError("dynd answered \(probe.replies) of \(samples + 4) requests")
    }
    report(probe, load: load)
  }

  private func report(_ probe: DragProbe, load: String) {
    let h = probe.latency
    let inNext = Double(probe.framesAfterSend[0]) / Double(samples) * 100
    let figures =
      [
        "\(fps)", micro(1e9 / fps), String(samples), String(h.totalCount),
        String(probe.notReflected), r(inNext, 1),
        probe.framesAfterSend.map(String.init).joined(separator: " / "),
      ]
      + [h.valueAtPercentile(50), h.valueAtPercentile(90), h.valueAtPercentile(99), h.max]
      .map { micro(Double($0)) } + [micro(Double(probe.nextFrame.valueAtPercentile(50)))]
    print("seed \(seed); load average before: \(load); after: \(loadAverage())")
    if markdown {
      print(
        "| fps | frame period µs | changed | reflected | not reflected | in next frame % "
          + "| in frame 1 / 2 / ≥ 3 | p50 µs | p90 µs | p99 µs | max µs | next frame p50 µs |")
      print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
      print("| " + figures.joined(separator: " | ") + " |")
    } else {
      let f = figures
      print(
        "\(f[0]) fps (frame period \(f[1]) µs): \(f[2]) changed samples, \(f[3]) reflected, "
          + "\(f[4]) not reflected; in the next frame \(f[5]) % (frame 1 / 2 / ≥ 3: \(f[6])); "
          + "latency p50 \(f[7]) µs, p90 \(f[8]) µs, p99 \(f[9]) µs, max \(f[10]) µs; "
          + "any frame after a send: p50 \(f[11]) µs")
    }
  }

  private func gesture(
    _ phase: GesturePhase, y: Double, at time: UInt64, velocity: Vector? = nil
  ) -> Op {
    Op(
      GestureRequest(
        session: "g", phase: phase, point: Point(x: 160, y: y), t: Double(time) / 1e9,
        velocity: velocity))
  }
}

/// The monotonic time `seconds` from now, in ns.
private func after(_ seconds: Double) -> UInt64 {
  monotonicNanoseconds() + UInt64(seconds * 1e9)
}

/// Where the finger touches, and the band it moves in: above the touch, so that the screen never
/// has to go down into its floor (1 pt below its bottom edge at rest) to follow it.
private let startY = 300.0
private let band = 150.0...298.0

/// The finger's `changed` positions and the wait before each (ns): alternately up and down by a
/// whole number of points, 3 to 60, and at least 3 pt from the two positions before it, so that a
/// frame showing an earlier sample never passes for this one.
private func fingerPath(count: Int, seed: UInt64) -> [(y: Double, interval: UInt64)] {
  var random = SplitMix64(seed: seed)
  var (before, previous) = (startY, startY)
  var up = true
  var path: [(y: Double, interval: UInt64)] = []
  for _ in 0..<count {
    var y = previous
    for _ in 0..<1000 {
      let candidate = previous + Double(Int.random(in: 3...60, using: &random)) * (up ? -1 : 1)
      if !band.contains(candidate) {
        up.toggle()
      } else if abs(candidate - before) >= 3 {
        y = candidate
        break
      }
    }
    up.toggle()
    (before, previous) = (previous, y)
    path.append((y, UInt64(Double.random(in: 20...45, using: &random) * 1e6)))
  }
  return path
}

/// The connection that drags, and what its frames showed.
private final class DragProbe {
  struct Pending {
    let target: Double
    let sent: UInt64
    /// The last frame received before the send.
    let seq: UInt64
  }

  let socket: LineSocket
  private let decoder = ServerMessageDecoder()
  private(set) var replies = 0
  private(set) var paused = false
  private(set) var screenY = 284.0
  private(set) var pending: Pending?
  private(set) var notReflected = 0
  /// Reflected samples by the frame that showed them: the first, second, or a later one
  /// received after the send.
  private(set) var framesAfterSend = [0, 0, 0]
  private(set) var latency = nanosecondHistogram()
  /// From each send to the first frame received after it, reflecting or not: the wait a sample
  /// reflected in its next frame has.
  private(set) var nextFrame = nanosecondHistogram()
  private var lastSeq: UInt64 = 0
  private var awaitingFrame: UInt64?
  private var failure: BenchError?

  init(socket: LineSocket) {
    self.socket = socket
    socket.setNonBlocking()
  }

  func send(_ op: Op) throws(BenchError) { try socket.send(Request(id: nil, op: op)) }

  /// A `changed` sample has gone out; the one before it, if still unseen, never will be.
  func sent(target: Double, at time: UInt64) {
    giveUp()
    pending = Pending(target: target, sent: time, seq: lastSeq)
    awaitingFrame = time
  }

  func giveUp() {
    if pending != nil { notReflected += 1 }
    pending = nil
  }

  /// Reads what arrives until `deadline` (monotonic ns), or until `going` turns false.
  func pump(until deadline: UInt64, while going: () -> Bool = { true }) throws(BenchError) {
    while going() {
      let now = monotonicNanoseconds()
      guard now < deadline else { return }
      var ready = pollfd(fd: socket.fd, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, Int32((deadline - now + 999_999) / 1_000_000)) > 0 else { continue }
      let arrival = monotonicNanoseconds()
      guard socket.readAvailable({ handle($0, arrival: arrival) }) else {
        throw BenchError("dynd closed the connection")
      }
      if let failure { throw failure }
    }
  }

  private func handle(_ line: UnsafeRawBufferPointer, arrival: UInt64) {
    let message: ServerMessage
    do throws(ProtocolError) {
      message = try decoder.decode(Array(line))
    } catch {
      failure = BenchError(
        "dynd wrote a line dynbench cannot read (\(error)): "
          + String(decoding: line, as: UTF8.self))
      return
    }
    switch message {
    case .reply(let reply):
      guard case .success(let body) = reply.result else {
        failure = BenchError("dynd refused: " + String(decoding: line, as: UTF8.self))
        return
      }
      replies += 1
      if case .open(_, let items) = body, let screen = items.first { screenY = screen.center.y }
    case .unknownError:
      failure = BenchError("dynd refused: " + String(decoding: line, as: UTF8.self))
    case .event(.pause):
      paused = true
    case .event(.frame(let f)):
      if let screen = f.items.first { frame(seq: f.seq, y: screen.center.y, arrival: arrival) }
    case .event, .unknownEvent:
      break
    }
  }

  private func frame(seq: UInt64, y: Double, arrival: UInt64) {
    lastSeq = seq
    screenY = y
    if let time = awaitingFrame {
      _ = nextFrame.record(arrival - time)
      awaitingFrame = nil
    }
    guard let sample = pending, abs(y - sample.target) <= 1 else { return }
    _ = latency.record(arrival - sample.sent)
    framesAfterSend[seq > sample.seq ? Int(min(3, seq - sample.seq)) - 1 : 0] += 1
    pending = nil
  }
}

private func nanosecondHistogram() -> Histogram<UInt64> {
  Histogram(highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)
}
