import ArgumentParser
import Dynamics
import DynamicsScenes
import Primitives
import Wire

/// Cost of writing one realtime frame (`MessageEncoder.frame`) against the cost of stepping the
/// animator through that frame, on the same moving pile scene.
struct EncodeCost: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "encode",
    abstract: "Time encoding a frame of N items against stepping the animator one 60 Hz frame.")

  @Option(help: "Item counts to measure, comma-separated.")
  var items: String = "8,32,128"

  @Option(help: "Independent runs per count; each builds a fresh scene.")
  var runs: Int = 5

  @Option(help: "Simulated seconds per run (everything still falls and bounces).")
  var seconds: Double = 1.5

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func validate() throws {
    guard runs >= 1, seconds > 0, seconds <= 60, counts() != nil else {
      throw ValidationError("runs ≥ 1, seconds in (0, 60], --items like 8,32,128 (≤ 1000)")
    }
  }

  func counts() -> [Int]? {
    let list = items.split(separator: ",").compactMap { Int($0) }
    return list.isEmpty || list.contains { $0 < 1 || $0 > 1000 } ? nil : list
  }

  func run() throws {
    if markdown {
      print(
        "| items | frames | step 1/60 s p50 µs | mean µs | states p50 µs | encode p50 µs | mean µs "
          + "| p99 µs | frame bytes | encode ÷ step (p50) |")
      print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    }
    for count in counts()! {
      var step: [Double] = []
      var states: [Double] = []
      var encode: [Double] = []
      var bytes = 0
      var encoder = MessageEncoder()
      for _ in 0..<runs {
        let (animator, scene) = Scenes.pile(count: count)
        for seq in 1...Int(seconds * 60) {
          let t0 = now()
          animator.step(1.0 / 60)
          let t1 = now()
          let list = scene.map(itemState)
          let t2 = now()
          encoder.frame(session: "s1", seq: UInt64(seq), t: animator.elapsedTime, items: list)
          let t3 = now()
          bytes = encoder.bytes.count
          encoder.removeAll()
          step.append(t1 - t0)
          states.append(t2 - t1)
          encode.append(t3 - t2)
        }
      }
      let row = [
        String(count), String(step.count), fmt(median(step)), fmt(mean(step)), fmt(median(states)),
        fmt(median(encode)), fmt(mean(encode)), fmt(percentile(encode, 0.99)), String(bytes),
        r(median(encode) / median(step), 2),
      ]
      if markdown {
        print("| " + row.joined(separator: " | ") + " |")
      } else {
        print(
          "\(count) items: step p50 \(row[2]) µs (mean \(row[3])), states p50 \(row[4]) µs, "
            + "encode p50 \(row[5]) µs (mean \(row[6]), p99 \(row[7])), \(row[8]) bytes; "
            + "encode/step \(row[9])")
      }
    }
  }

  /// What the daemon's `Session.states()` builds for each item.
  private func itemState(_ item: DynamicItem) -> ItemState {
    ItemState(
      id: item.identifier, center: Point(x: item.center.x, y: item.center.y),
      angle: item.angle, velocity: Vector(dx: item.velocity.dx, dy: item.velocity.dy),
      angularVelocity: item.angularVelocity,
      size: item.size)
  }
}

func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(1, values.count)) }

func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
