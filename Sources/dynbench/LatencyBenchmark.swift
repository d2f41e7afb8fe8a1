import ArgumentParser
import Glibc
import Histogram
import Wire

/// Request → reply round trips over the Unix socket, against a bare echo floor timed in the same
/// run by the same client code.
struct LatencyBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "latency",
    abstract:
      "Time hello, get and one-frame step round trips to a dynd child process against an echo "
      + "floor.")

  @Option(help: "Round trips timed per kind (after the warm-up).")
  var requests: Int = 50_000

  @Option(help: "Untimed round trips per kind first.")
  var warmup: Int = 2_000

  @Option(help: "Blocks the kinds alternate in, so a burst of machine load hits all of them.")
  var blocks: Int = 10

  @Option(
    help:
      "free (the kernel places everything), same (all on CPU 0), split (client on 0, servers on 1)."
  )
  var placement: String = "free"

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func validate() throws {
    guard requests >= blocks, blocks >= 1, warmup >= 0 else {
      throw ValidationError("requests must be ≥ blocks ≥ 1 and warmup ≥ 0")
    }
    guard Placement(rawValue: placement) != nil else {
      throw ValidationError("--placement is free, same or split")
    }
  }

  func run() throws {
    let place = Placement(rawValue: placement)!
    if let cpu = place.clientCPU { pin(0, toCPU: cpu) }
    let echo = try EchoServer(path: "/tmp/dynbench-\(getpid())-echo.sock", cpu: place.serverCPU)
    let floor = try LineSocket(path: echo.path)
    let echoProcess = try DaemonProcess(
      tag: "echo", program: "dynbench", subcommand: ["echo-server"], arguments: [])
    let daemon = try DaemonProcess(tag: "latency")
    if let cpu = place.serverCPU {
      pin(echoProcess.pid, toCPU: cpu)
      pin(daemon.pid, toCPU: cpu)
    }
    let processFloor = try LineSocket(path: echoProcess.socketPath)
    let client = try LineSocket(path: daemon.socketPath)
    try client.request(
      Op(
        OpenRequest(source: .transition(name: "lock-screen", params: .init()), session: "bench")))

    // A manual session that never rests (two pendulums: an attachment keeps its item running),
    // stepped one frame at a time: the round trip of a client driving its own clock.
    let pendulums =
      #"{"op":"open","session":"stepper","clock":"manual","scene":{"items":["#
      + #"{"id":"bob","center":[160,300],"size":[20,20]},{"id":"box","center":[60,60],"#
      + #""size":[20,20]}],"behaviors":[{"type":"gravity","items":["bob","box"]},"#
      + #"{"type":"attachment","item":"bob","anchor":[100,200]},"#
      + #"{"type":"attachment","item":"box","anchor":[100,40]}]}}"# + "\n"
    try Array(pendulums.utf8).withUnsafeBytes { try client.send($0) }
    while try client.readLine({ MessageHead($0).isEvent }) {}

    let hello = encoded(Request(id: .number("1"), op: Op(HelloRequest())))
    let get = encoded(Request(id: .number("2"), op: Op(GetRequest(session: "bench"))))
    let step = encoded(Request(id: .number("3"), op: Op(StepRequest(session: "stepper"))))
    let kinds: [(name: String, socket: LineSocket, request: [UInt8])] = [
      ("echo thread, hello-sized line", floor, hello),
      ("echo thread, get-sized line", floor, get),
      ("echo process, hello-sized line", processFloor, hello),
      ("echo process, get-sized line", processFloor, get),
      ("dynd hello", client, hello),
      ("dynd get (lock-screen session)", client, get),
      ("dynd step (manual, one frame, 2 items)", client, step),
    ]
    var histograms = kinds.map { _ in
      Histogram<UInt64>(
        highestTrackableValue: 10_000_000_000, numberOfSignificantValueDigits: .three)
    }
    let load = loadAverage()
    for (k, kind) in kinds.enumerated() {
      _ = try roundTrips(
        kind.socket, kind.request, count: warmup, into: &histograms[k], timed: false)
    }
    for _ in 0..<blocks {
      for (k, kind) in kinds.enumerated() {
        try roundTrips(kind.socket, kind.request, count: requests / blocks, into: &histograms[k])
      }
    }
    daemon.stop()
    echo.stopAfterClosing(floor)
    shutdown(processFloor.fd, Int32(SHUT_RDWR))
    echoProcess.stop()

    print("placement \(placement); load average before: \(load); after: \(loadAverage())")
    if markdown {
      print("| round trip | count | p50 µs | p99 µs | p99.9 µs | max µs | mean µs |")
      print("|---|---:|---:|---:|---:|---:|---:|")
    }
    for (k, kind) in kinds.enumerated() {
      let h = histograms[k]
      let row =
        [h.valueAtPercentile(50), h.valueAtPercentile(99), h.valueAtPercentile(99.9), h.max]
        .map { micro(Double($0)) } + [micro(h.mean)]
      if markdown {
        print("| \(kind.name) | \(h.totalCount) | " + row.joined(separator: " | ") + " |")
      } else {
        print(
          "\(kind.name): \(h.totalCount) round trips, p50 \(row[0]) µs, p99 \(row[1]) µs, "
            + "p99.9 \(row[2]) µs, max \(row[3]) µs, mean \(row[4]) µs")
      }
    }
    let ratio = { (daemonKind: Int, floorKind: Int) in
      Double(histograms[daemonKind].valueAtPercentile(50))
        / Double(histograms[floorKind].valueAtPercentile(50))
    }
    print(
      "dynd p50 over the thread floor: hello \(r(ratio(4, 0), 2))×, get \(r(ratio(5, 1), 2))×, "
        + "step \(r(ratio(6, 0), 2))×; over the process floor: hello \(r(ratio(4, 2), 2))×, "
        + "get \(r(ratio(5, 3), 2))×, step \(r(ratio(6, 2), 2))× "
        + "(targets: hello and get ≤ 2×, a manual one-frame step ≤ 1.3×; p99 < 1000 µs)")
  }

  /// Sends `request` and reads its one-line answer `count` times, recording each round trip.
  @discardableResult
  private func roundTrips(
    _ socket: LineSocket, _ request: [UInt8], count: Int, into histogram: inout Histogram<UInt64>,
    timed: Bool = true
  ) throws -> Int {
    try request.withUnsafeBytes { bytes in
      for _ in 0..<count {
        let start = monotonicNanoseconds()
        try socket.send(bytes)
        // Skip events (a fresh session's first frames and its pause): only the reply counts.
        while try socket.readLine({ MessageHead($0).isEvent }) {}
        let elapsed = monotonicNanoseconds() - start
        if timed { _ = histogram.record(elapsed) }
      }
    }
    return count
  }
}

/// `request` as the bytes of one line.
private func encoded(_ request: Request) -> [UInt8] {
  var encoder = RequestEncoder()
  encoder.encode(request)
  return encoder.bytes
}

extension EchoServer {
  /// Disconnects the floor's client (which ends the echo thread), then stops the server.
  func stopAfterClosing(_ client: LineSocket) {
    shutdown(client.fd, Int32(SHUT_RDWR))
    stop()
  }
}

/// Nanoseconds as microseconds with one decimal.
func micro(_ nanoseconds: Double) -> String { fmt(nanoseconds / 1000) }
