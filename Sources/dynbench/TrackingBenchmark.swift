import ArgumentParser
import BenchFixtures
import Transitions

/// How far the touched point is from the finger at the end of each frame of a drag, per
/// draggable transition and finger speed (`TrackingProbe`).
struct TrackingBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "tracking",
    abstract: "Worst finger-to-touched-point distance per draggable transition and finger speed.")

  @Option(help: "Finger speeds, pt/s, comma-separated.")
  var speeds: String = "300,1000,2000,5000,10000"

  @Option(help: "Display rate, Hz: a `changed` and a frame of 1/Hz each (fractional rates too).")
  var hz: Double = 60

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func run() throws {
    let list = speeds.split(separator: ",").compactMap { Double($0) }
    guard !list.isEmpty, list.allSatisfy({ $0 > 0 && $0.isFinite }) else {
      throw ValidationError("--speeds takes positive numbers, e.g. 300,1000")
    }
    guard hz.isFinite, (1...240).contains(hz) else { throw ValidationError("--hz is 1…240") }
    var rows: [(String, [Double])] = []
    for c in TrackingProbe.cases {
      rows.append(
        (c.transition, try list.map { try TrackingProbe.worstDistance(c, speed: $0, hz: hz) }))
    }
    rows.append(
      (
        "drag (stick length error)",
        try list.map { try TrackingProbe.dragStickError(speed: $0, hz: hz) }
      ))
    let header = ["transition"] + list.map { "\(Int($0)) pt/s" }
    if markdown {
      print("| " + header.joined(separator: " | ") + " |")
      print("|" + String(repeating: "---|", count: header.count))
      for (name, values) in rows {
        print("| \(name) | " + values.map { fmt($0) }.joined(separator: " | ") + " |")
      }
    } else {
      print(header.joined(separator: "\t"))
      for (name, values) in rows {
        print(([name] + values.map { fmt($0) }).joined(separator: "\t"))
      }
    }
  }

  private func fmt(_ v: Double) -> String {
    let r = (v * 10000).rounded() / 10000
    return "\(r) pt"
  }
}
