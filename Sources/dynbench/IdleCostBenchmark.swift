import ArgumentParser
import Glibc
import Primitives
import Wire

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
    try control.request(Op(HelloRequest()))
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
    guard case .list(let page) = try control.request(Op(ListRequest())) else {
      throw BenchError("dynd's reply to list has no sessions")
    }
    let running = page.sessions.filter(\.running).count
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

  private func openRequest(session: String) -> Op {
    guard sceneItems > 0 else {
      return Op(
        OpenRequest(source: .transition(name: "lock-screen", params: .init()), session: session))
    }
    let items = (0..<sceneItems).map { (i: Int) -> ItemSpec in
      let column = i % 10
      let row = i / 10
      let center = Point(x: Double(20 + column * 30), y: Double(20 + row * 30))
      return ItemSpec(id: "i\(i)", center: center, size: Size(width: 20, height: 20))
    }
    let scene = SceneSpec(bounds: Rect(x: 0, y: 0, width: 320, height: 568), items: items)
    return Op(OpenRequest(source: .scene(scene), session: session))
  }
}
