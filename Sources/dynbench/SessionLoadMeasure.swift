import BenchFixtures
import JSON
import Wire

extension SessionLoadBenchmark {
  /// 1/60 s in whole nanoseconds: the grid period of dynd's 60 Hz frame clock.
  static let period: UInt64 = 16_666_667

  /// Opens `sessions` sessions of `scene` (and the heavy session, if asked) on a fresh dynd,
  /// lets them run for the warm-up, then times the frames for the window.
  func measure(sessions: Int, scene: BouncingScene) throws -> SessionLoadResult {
    var arguments = ["--log-level", "warning"]
    if let workers { arguments += ["--workers", String(workers)] }
    let daemon = try DaemonProcess(tag: "load\(sessions)", arguments: arguments)
    defer { daemon.stop() }
    if placement == "split" { pin(daemon.pid, toCPU: 1) }
    var sockets: [LineSocket] = []
    if hasHeavy {
      // A frame of the heavy session is about 100 bytes an item.
      let heavy = try LineSocket(path: daemon.socketPath, bufferSize: 8 << 20)
      if let worst, let storm = WorstScenes.all.first(where: { $0.name == worst }) {
        let spec = try! SceneSpec(json: JSONParser().parse(storm.json))
        try heavy.request(Op(OpenRequest(source: .scene(spec), session: "heavy")))
      } else {
        try heavy.request(BouncingScene.heavy(items: heavyItems).openRequest(session: "heavy"))
      }
      sockets.append(heavy)
    }
    let perConnection = sessionsPerConnection(sessions)
    for index in 0..<sessions {
      if index % perConnection == 0 {
        sockets.append(try LineSocket(path: daemon.socketPath, bufferSize: 256 << 10))
      }
      try sockets.last!.request(scene.openRequest(session: "b\(index)"))
    }
    let period = Self.period
    let receiver = try FrameReceiver(sockets: sockets, sessions: sessions, period: period)
    receiver.receive(for: UInt64(warmup * 1e9), record: false)
    let (daemonCPU, ownCPU) = (daemon.cpuNanoseconds(), ownCPUNanoseconds())
    let switches = daemon.contextSwitches()
    let window = UInt64(seconds * 1e9)
    let lateNanoseconds = UInt64(lateMs * 1e6)
    let floor = TimerFloor(period: period, duration: window, lateNanoseconds: lateNanoseconds)
    receiver.receive(for: window, record: true)
    floor.join()
    var result = SessionLoadResult(
      sessions: sessions, workers: workerCount,
      connections: connections(sessions: sessions), lateNanoseconds: lateNanoseconds,
      period: period,
      seconds: seconds)
    result.daemonCPUNanoseconds = daemon.cpuNanoseconds() - daemonCPU
    result.daemonCPUPercent = Double(result.daemonCPUNanoseconds) / Double(window) * 100
    result.ownCPUPercent = Double(ownCPUNanoseconds() - ownCPU) / Double(window) * 100
    result.daemonWakeupsPerSecond = Double(daemon.contextSwitches() - switches) / seconds
    if hasHeavy { result.heavyFramesPerSecond = Double(receiver.heavyFrames) / seconds }
    result.pauses = receiver.pauses
    result.floorLatePercent = floor.latePercent
    result.closed = receiver.closed
    result.allowedPercent = allowedPercent
    result.collect(receiver)
    return result
  }
}
