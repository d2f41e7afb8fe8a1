import ArgumentParser
import BenchFixtures
import Glibc
import Wire

/// How many realtime sessions, animating at 60 Hz without coming to rest, one dynd serves with
/// at most 0.1 % of frames late by over 2 ms, or (`--until-delivery`) while it still delivers
/// the frames due; with dynd's CPU time per frame against the raw cost of stepping and encoding
/// the same scene, measured first in this process (`RawFrameCost`). One count's run is in
/// `SessionLoadMeasure.swift`.
struct SessionLoadBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessions",
    abstract: "Ramp realtime 60 Hz sessions on a dynd child process and time frame arrivals.",
    discussion: """
      Each session is judged by its frames' t (animator time): a frame is due on the 60 Hz grid \
      point t names; the earliest frame of a session relative to its grid sets on time. Frames \
      due are the grid points from a session's first to its last frame in the window; \
      delivered % is frames received ÷ frames due. dynd CPU/frame is dynd's CPU time in the \
      window ÷ frames received; ÷ raw divides it by one thread stepping and encoding the same \
      scene without the daemon; ÷ raw at N by the same thread stepping and encoding as many \
      copies of the scene as there are sessions, in turn (measured before each count: their \
      memory no longer stays in the caches, as in dynd).
      """)

  @Option(help: "Session counts to try, in order, comma-separated, each on a fresh dynd.")
  var counts: String = "50,100,250,500,1000,1500,2000"

  @Option(help: "Bouncing items per session (elasticity 1: they never come to rest).")
  var items: Int = 4

  @Option(
    help: """
      Sessions opened on each connection (default: 1, or as few as keep the connections within \
      the \(Limits.maxConnectionsPerClient) dynd accepts from one process).
      """)
  var perConnection: Int?

  @Option(
    help: """
      Threads dynd steps sessions on (passed on as dynd --workers; default: dynd's own, one \
      per online core).
      """)
  var workers: Int?

  @Option(help: "Seconds of frames received before timing starts.")
  var warmup: Double = 2

  @Option(help: "Seconds of frames timed per count.")
  var seconds: Double = 10

  @Option(help: "Lateness in ms beyond which a frame counts as late.")
  var lateMs: Double = 2

  @Option(help: "Largest fraction of late or missing frames that still passes, in percent.")
  var allowedPercent: Double = 0.1

  @Option(help: "free (the kernel places both), or split (dynbench on CPU 0, dynd on CPU 1).")
  var placement: String = "free"

  @Flag(help: "Go on with larger counts after one fails (ignored with --until-delivery).")
  var keepGoing = false

  @Option(
    help: """
      Ramp until delivery drops: stop after the first count whose delivered % (frames \
      received ÷ frames due) is below this percent, e.g. 99, whether or not counts fail.
      """)
  var untilDelivery: Double?

  @Option(
    help: """
      Also open one realtime session 'heavy' of this many 12 pt squares bouncing in a 320×568 \
      box, on its own connection; its frames are read, not judged, and reported as heavy \
      frames/s (0 = no heavy session; at most \(BouncingScene.heavyCapacity)).
      """)
  var heavyItems: Int = 0

  @Option(
    help: """
      Instead, open one of the costliest valid scenes (dynbench worst-step's names) as the \
      realtime session 'heavy' (issue 39: a storm beside the sessions).
      """)
  var worst: String?

  /// Whether a heavy session runs beside the others.
  var hasHeavy: Bool { heavyItems > 0 || worst != nil }

  @Option(help: "Runs of the raw step + encode cost measured before the ramp.")
  var rawRuns: Int = 3

  @Option(help: "Simulated seconds per raw run (long enough to include bounces).")
  var rawSeconds: Double = 10

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func validate() throws {
    guard let counts = parsedCounts(), (1...100).contains(items), (perConnection ?? 1) >= 1,
      warmup >= 0, seconds > 0
    else { throw ValidationError("bad --counts, --items (1…100), --per-connection or seconds") }
    let heavy = hasHeavy ? 1 : 0
    let most = counts.max()!
    guard most + heavy <= Limits.maxSessionsPerClient else {
      throw ValidationError(
        "dynd opens at most \(Limits.maxSessionsPerClient) sessions for one process")
    }
    guard connections(sessions: most) + heavy <= Limits.maxConnectionsPerClient else {
      throw ValidationError(
        "dynd accepts at most \(Limits.maxConnectionsPerClient) connections from one process: "
          + "open more sessions per connection")
    }
    guard placement == "free" || placement == "split" else {
      throw ValidationError("--placement is free or split")
    }
    if let workers, !(1...256).contains(workers) {
      throw ValidationError("--workers is between 1 and 256")
    }
    if let untilDelivery, !(untilDelivery > 0 && untilDelivery <= 100) {
      throw ValidationError("--until-delivery is a percent in (0, 100]")
    }
    guard (0...BouncingScene.heavyCapacity).contains(heavyItems) else {
      throw ValidationError("--heavy-items is between 0 and \(BouncingScene.heavyCapacity)")
    }
    if let worst, !WorstScenes.all.contains(where: { $0.name == worst }) {
      throw ValidationError(
        "--worst takes one of " + WorstScenes.all.map(\.name).joined(separator: ", "))
    }
    guard rawRuns >= 1, rawSeconds > 0, rawSeconds <= 600 else {
      throw ValidationError("--raw-runs is at least 1, --raw-seconds in (0, 600]")
    }
  }

  func parsedCounts() -> [Int]? {
    let list = counts.split(separator: ",").compactMap { Int($0) }
    return list.isEmpty || list.contains { $0 < 1 || $0 > 20_000 } ? nil : list
  }

  /// Sessions opened on each connection when there are `sessions`.
  func sessionsPerConnection(_ sessions: Int) -> Int {
    if let perConnection { return perConnection }
    let room = Limits.maxConnectionsPerClient - (hasHeavy ? 1 : 0)
    return max(1, (sessions + room - 1) / room)
  }

  /// Connections the light sessions are spread over when there are `sessions`.
  func connections(sessions: Int) -> Int {
    let each = sessionsPerConnection(sessions)
    return (sessions + each - 1) / each
  }

  /// The threads dynd steps sessions on: as given, or one per online core (dynd's default).
  var workerCount: Int { workers ?? max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  func run() throws {
    let workerNote = workers == nil ? " (dynd's default, one per core)" : ""
    print(
      "placement \(placement); workers \(workerCount)\(workerNote); "
        + "load average before: \(loadAverage())")
    let scene = BouncingScene.light(items: items)
    let raw = RawFrameCost(scene, runs: rawRuns, seconds: rawSeconds)
    print(raw.sentence)
    if let worst {
      print(
        "heavy session: dynbench worst-step's \(worst), realtime, on its own connection; its "
          + "frames are read, not judged (dynd CPU/frame includes its cost)")
    } else if heavyItems > 0 {
      print(
        "heavy session: \(heavyItems) squares of 12×12 pt bouncing in 320×568 on its own "
          + "connection; its frames are read, not judged (dynd CPU/frame includes its cost)")
    }
    if placement == "split" { pin(0, toCPU: 0) }
    if markdown {
      let headings = SessionLoadResult.headings(lateMs: lateMs)
      print("| " + headings.joined(separator: " | ") + " |")
      print("|" + String(repeating: "---:|", count: headings.count - 1) + "---|")
    }
    var deliveryDropped = false
    for count in parsedCounts()! {
      var result = try measure(sessions: count, scene: scene)
      result.rawFrameMicroseconds = raw.total
      // The same scene as many times as there are sessions, stepped in turn: ≈ 120 000 frames.
      let manyWorlds = RawFrameCost(
        scene, worlds: count, runs: 1, seconds: min(rawSeconds, max(0.5, 2000 / Double(count))))
      result.rawFrameAtCountMicroseconds = manyWorlds.total
      print(markdown ? result.markdownRow : result.sentence)
      if let untilDelivery {
        if result.deliveredPercent < untilDelivery {
          print("delivery fell below \(fmt(untilDelivery)) % at \(count) sessions")
          deliveryDropped = true
          break
        }
      } else if !result.passed && !keepGoing {
        break
      }
    }
    if let untilDelivery, !deliveryDropped {
      print("delivery stayed at or above \(fmt(untilDelivery)) % at every count")
    }
    print("load average after: \(loadAverage())")
  }
}
