import ArgumentParser
import Glibc

/// What sessions at rest cost a dynd child process: CPU time and wake-ups over a quiet window,
/// and resident memory per session.
struct IdleCostBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "idle",
    abstract: "Open N sessions at rest on a dynd child process; measure its CPU, wake-ups and RSS.")

  @Option(help: "Sessions to open.")
  var sessions: Int = 1_000

  @Option(help: "Sessions opened on each connection (1: every session has its own client).")
  var perConnection: Int = 1

  @Option(help: "0: lock-screen transitions (one item); more: scenes of that many resting items.")
  var sceneItems: Int = 0

  @Option(help: "Seconds the CPU time and wake-ups are watched.")
  var seconds: Double = 10

  func validate() throws {
    guard sessions >= 1, perConnection >= 1, (0...1000).contains(sceneItems), seconds > 0 else {
      throw ValidationError("bad --sessions, --per-connection, --scene-items or --seconds")
    }
  }

  func run() throws {
    print("load average before: \(loadAverage())")
    let daemon = try DaemonProcess(tag: "idle")
    defer { daemon.stop() }
    let control = try LineSocket(path: daemon.socketPath)
    try control.request(#"{"op":"hello"}"#)
    usleep(500_000)
    let emptyKiB = daemon.residentKiB()
    var sockets: [LineSocket] = []
    for index in 0..<sessions {
      if index % perConnection == 0 {
        sockets.append(try LineSocket(path: daemon.socketPath, bufferSize: 64 << 10))
      }
      try sockets.last!.request(openRequest(session: "r\(index)"))
    }
    // A fresh animator runs until Box2D puts its bodies to sleep (0.5 s still), then pauses.
    usleep(1_500_000)
    let running = try control.request(#"{"op":"list"}"#).components(of: #""running":true"#)
    let fullKiB = daemon.residentKiB()
    let (cpu, wakeups) = (daemon.cpuNanoseconds(), daemon.contextSwitches())
    usleep(UInt32(seconds * 1e6))
    let usedCPU = daemon.cpuNanoseconds() - cpu
    let usedWakeups = daemon.contextSwitches() - wakeups
    let kind = sceneItems == 0 ? "lock-screen" : "scene of \(sceneItems) resting items"
    print(
      "\(sessions) idle sessions (\(kind)) on \(sockets.count) connections, \(running) running")
    print(
      "dynd RSS \(emptyKiB) KiB empty → \(fullKiB) KiB: "
        + "\(fmt(Double(fullKiB - emptyKiB) / Double(sessions))) KiB per session (target < 200)")
    print(
      "dynd CPU over \(fmt(seconds)) s at rest: \(fmt(Double(usedCPU) / 1e6)) ms "
        + "(\(r(Double(usedCPU) / (seconds * 1e9) * 100, 4)) % of a core), "
        + "\(usedWakeups) context switches")
    print("load average after: \(loadAverage())")
  }

  private func openRequest(session: String) -> String {
    guard sceneItems > 0 else {
      return #"{"op":"open","transition":"lock-screen","session":"\#(session)"}"#
    }
    let items = (0..<sceneItems).map { i in
      #"{"id":"i\#(i)","center":[\#(20 + (i % 10) * 30),\#(20 + (i / 10) * 30)],"size":[20,20]}"#
    }
    return #"{"op":"open","session":"\#(session)","scene":{"bounds":[320,568],"items":["#
      + items.joined(separator: ",") + "]}}"
  }
}

extension String {
  /// How many times `needle` occurs.
  func components(of needle: String) -> Int {
    var count = 0
    var rest = self[...]
    while let range = rest.firstRange(of: needle) {
      count += 1
      rest = rest[range.upperBound...]
    }
    return count
  }
}
