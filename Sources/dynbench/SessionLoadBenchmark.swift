import ArgumentParser
import Glibc
import Histogram
import Primitives
import Wire

/// How many realtime sessions, animating at 60 Hz without coming to rest, one dynd serves with
/// at most 0.1 % of frames late by over 2 ms.
struct SessionLoadBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessions",
    abstract: "Ramp realtime 60 Hz sessions on a dynd child process and time frame arrivals.")

  @Option(help: "Session counts to try, comma-separated, each on a fresh dynd.")
  var counts: String = "50,100,250,500,1000,1500,2000"

  @Option(help: "Bouncing items per session (elasticity 1: they never come to rest).")
  var items: Int = 4

  @Option(help: "Sessions opened on each connection.")
  var perConnection: Int = 1

  @Option(help: "Seconds of frames received before timing starts.")
  var warmup: Double = 2

  @Option(help: "Seconds of frames timed per count.")
  var seconds: Double = 10

  @Option(help: "Lateness in ms beyond which a frame counts as late.")
  var lateMs: Double = 2

  @Option(help: "Largest fraction of late frames that still passes, in percent.")
  var allowedPercent: Double = 0.1

  @Option(help: "free (the kernel places both), or split (dynbench on CPU 0, dynd on CPU 1).")
  var placement: String = "free"

  @Flag(help: "Go on with larger counts after one fails.")
  var keepGoing = false

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func validate() throws {
    guard parsedCounts() != nil, (1...100).contains(items), perConnection >= 1,
      warmup >= 0, seconds > 0
    else { throw ValidationError("bad --counts, --items (1…100), --per-connection or seconds") }
    guard placement == "free" || placement == "split" else {
      throw ValidationError("--placement is free or split")
    }
  }

  func parsedCounts() -> [Int]? {
    let list = counts.split(separator: ",").compactMap { Int($0) }
    return list.isEmpty || list.contains { $0 < 1 || $0 > 20_000 } ? nil : list
  }

  func run() throws {
    print("placement \(placement); load average before: \(loadAverage())")
    if placement == "split" { pin(0, toCPU: 0) }
    if markdown {
      print(
        "| sessions | frames due | late > \(fmt(lateMs)) ms | missing | late % | late intervals % "
          + "| timer floor late % | p50 µs | p99 µs "
          + "| p99.9 µs | max µs | dynd CPU % | dynd wake-ups/s | dynbench CPU % | pauses | result |"
      )
      print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    }
    for count in parsedCounts()! {
      let result = try measure(sessions: count)
      print(markdown ? result.markdownRow : result.sentence)
      if !result.passed && !keepGoing { break }
    }
    print("load average after: \(loadAverage())")
  }

  /// Opens `sessions` bouncing sessions on a fresh dynd, lets them run, times the frames.
  private func measure(sessions: Int) throws -> SessionLoadResult {
    let daemon = try DaemonProcess(tag: "load\(sessions)")
    defer { daemon.stop() }
    if placement == "split" { pin(daemon.pid, toCPU: 1) }
    var sockets: [LineSocket] = []
    for index in 0..<sessions {
      if index % perConnection == 0 {
        sockets.append(try LineSocket(path: daemon.socketPath, bufferSize: 256 << 10))
      }
      try sockets.last!.request(openRequest(session: "b\(index)"))
    }
    let period: UInt64 = 16_667_000  // 1/60 s as libevent's microsecond timer has it
    let receiver = try FrameReceiver(sockets: sockets, sessions: sessions, period: period)
    receiver.receive(for: UInt64(warmup * 1e9), record: false)
    let (daemonCPU, ownCPU) = (daemon.cpuNanoseconds(), ownCPUNanoseconds())
    let switches = daemon.contextSwitches()
    let window = UInt64(seconds * 1e9)
    let floor = TimerFloor(
      period: period, duration: window, lateNanoseconds: UInt64(lateMs * 1e6))
    receiver.receive(for: window, record: true)
    floor.join()
    var result = SessionLoadResult(sessions: sessions, lateNanoseconds: UInt64(lateMs * 1e6))
    result.daemonCPUPercent = Double(daemon.cpuNanoseconds() - daemonCPU) / Double(window) * 100
    result.ownCPUPercent = Double(ownCPUNanoseconds() - ownCPU) / Double(window) * 100
    result.daemonWakeupsPerSecond = Double(daemon.contextSwitches() - switches) / seconds
    result.pauses = receiver.pauses
    result.floorLatePercent = floor.latePercent
    result.closed = receiver.closed
    result.allowedPercent = allowedPercent
    result.collect(receiver)
    return result
  }

  /// A scene of `items` squares in separate columns dropping onto the floor with elasticity 1.
  private func openRequest(session: String) -> Op {
    var list: [ItemSpec] = []
    for i in 0..<items {
      let x = 20 + Double(i % 6) * 50
      let y = 60 + (Double(i) * 37).truncatingRemainder(dividingBy: 300)
      list.append(
        ItemSpec(id: "i\(i)", center: Point(x: x, y: y), size: Size(width: 30, height: 30)))
    }
    let ids = list.map(\.id)
    let scene = SceneSpec(
      bounds: Rect(x: 0, y: 0, width: 320, height: 568), items: list,
      behaviors: [
        .gravity(GravitySpec(items: ids)),
        .collision(CollisionSpec(items: ids, referenceBounds: true)),
        .dynamicItem(DynamicItemSpec(items: ids, elasticity: 1, friction: 0, resistance: 0)),
      ])
    return .open(OpenRequest(source: .scene(scene), session: session))
  }
}
