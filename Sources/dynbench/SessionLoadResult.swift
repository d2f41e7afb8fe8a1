import Histogram

/// What one session count of the `sessions` benchmark measured, and whether it passed. The
/// frame figures are for the light `b*` sessions only; a `heavy` session is reported by its
/// frame rate alone.
struct SessionLoadResult {
  let sessions: Int
  /// Threads that step sessions in dynd.
  let workers: Int
  /// Connections the light sessions were spread over.
  let connections: Int
  /// Lateness beyond which a frame counts as late.
  let lateNanoseconds: UInt64
  /// The grid period of the sessions' frames.
  let period: UInt64
  /// Length of the timed window, in seconds.
  let seconds: Double
  var allowedPercent = 0.1
  var daemonCPUPercent = 0.0
  /// CPU time dynd used in the window, in ns.
  var daemonCPUNanoseconds: UInt64 = 0
  /// Raw step + encode of one frame of the light scene, in µs (`RawFrameCost.total`).
  var rawFrameMicroseconds = 0.0
  /// The same with as many copies of the scene as sessions, stepped in turn, in µs.
  var rawFrameAtCountMicroseconds = 0.0
  var ownCPUPercent = 0.0
  var daemonWakeupsPerSecond = 0.0
  /// Frames per second the `heavy` session delivered, when there was one.
  var heavyFramesPerSecond: Double?
  /// Share of a bare 60 Hz sleeping thread's wake-ups late by over the bound, same window.
  var floorLatePercent = 0.0
  var pauses = 0
  var closed = 0
  /// Frames that should have arrived in the window: per session, the grid ticks from the first
  /// to the last frame's `t`, both included (`round((t_last − t_first)·60) + 1`).
  var due = 0
  /// Frames that did arrive in the window.
  var received = 0
  var late = 0
  /// `due − received`: ticks that brought no frame, because the daemon coalesced frames for a
  /// slow reader or missed the tick (then `t` jumps by more than one period).
  var missing = 0
  /// Frames that came more than the lateness bound after one period past the previous frame of
  /// their session: display-style frame pacing, which a single stall marks once, not for ever
  /// (a missed tick marks it too).
  var lateIntervals = 0
  /// Sessions from which no frame arrived in the window.
  var silent = 0
  var lateness = Histogram<UInt64>(
    highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)

  var latePercent: Double { due == 0 ? 100 : Double(late + missing) / Double(due) * 100 }
  var deliveredPercent: Double { due == 0 ? 0 : Double(received) / Double(due) * 100 }
  var framesPerSecond: Double { Double(received) / seconds }
  /// dynd's CPU time per frame received, in µs.
  var daemonCPUPerFrame: Double {
    Double(daemonCPUNanoseconds) / Double(max(1, received)) / 1000
  }
  var passed: Bool { latePercent <= allowedPercent && silent == 0 && closed == 0 }

  /// Judges every frame the receiver recorded against its session's on-time offset.
  mutating func collect(_ receiver: FrameReceiver) {
    for (session, offsets) in receiver.offsets.enumerated() {
      guard let onTime = offsets.min() else {
        silent += 1
        continue
      }
      let span = Int(receiver.lastTick[session] - receiver.firstTick[session]) + 1
      due += span
      received += offsets.count
      missing += max(0, span - offsets.count)
      for offset in offsets {
        let delay = UInt64(offset - onTime)
        _ = lateness.record(delay)
        if delay > lateNanoseconds { late += 1 }
      }
      let arrivals = receiver.arrivals[session]
      for (previous, arrival) in zip(arrivals, arrivals.dropFirst())
      where arrival - previous > Int64(period + lateNanoseconds) {
        lateIntervals += 1
      }
    }
  }

  /// The table's column headings, in the order of `figures`.
  static func headings(lateMs: Double) -> [String] {
    [
      "sessions", "workers", "connections", "frames due", "received", "delivered %", "frames/s",
      "late > \(fmt(lateMs)) ms", "missing", "late %", "late intervals %", "timer floor late %",
      "p50 µs", "p99 µs", "p99.9 µs", "max µs", "dynd CPU %", "dynd CPU/frame µs", "÷ raw",
      "raw at N µs", "÷ raw at N",
      "dynd wake-ups/s", "dynbench CPU %", "pauses", "heavy frames/s", "result",
    ]
  }

  private var figures: [String] {
    [
      String(sessions), String(workers), String(connections), String(due), String(received),
      r(deliveredPercent, 4),
      fmt(framesPerSecond), String(late), String(missing), r(latePercent, 4),
      r(Double(lateIntervals) / Double(max(1, due)) * 100, 4), r(floorLatePercent, 4),
      micro(Double(lateness.valueAtPercentile(50))), micro(Double(lateness.valueAtPercentile(99))),
      micro(Double(lateness.valueAtPercentile(99.9))), micro(Double(lateness.max)),
      fmt(daemonCPUPercent), fmt(daemonCPUPerFrame),
      rawFrameMicroseconds > 0 ? r(daemonCPUPerFrame / rawFrameMicroseconds, 3) : "",
      fmt(rawFrameAtCountMicroseconds),
      rawFrameAtCountMicroseconds > 0
        ? r(daemonCPUPerFrame / rawFrameAtCountMicroseconds, 3) : "",
      String(Int(daemonWakeupsPerSecond)), fmt(ownCPUPercent), String(pauses),
      heavyFramesPerSecond.map(fmt) ?? "", verdict,
    ]
  }

  private var verdict: String {
    var words = passed ? "pass" : "FAIL"
    if silent > 0 { words += " (\(silent) silent sessions)" }
    if closed > 0 { words += " (\(closed) connections closed)" }
    return words
  }

  var markdownRow: String { "| " + figures.joined(separator: " | ") + " |" }

  var sentence: String {
    let f = figures
    let heavy = f[24].isEmpty ? "" : "; heavy session \(f[24]) frames/s"
    return "\(f[0]) sessions on \(f[2]) connections, workers \(f[1]): \(f[3]) frames due, "
      + "\(f[4]) received (\(f[5]) % delivered, \(f[6]) frames/s), \(f[7]) late, \(f[8]) missing "
      + "(\(f[9]) %); late intervals \(f[10]) %, timer floor late \(f[11]) %; lateness p50 "
      + "\(f[12]) µs, p99 \(f[13]) µs, p99.9 \(f[14]) µs, max \(f[15]) µs; dynd CPU \(f[16]) %, "
      + "\(f[17]) µs per frame (\(f[18]) × raw; raw at \(f[0]) sessions \(f[19]) µs, "
      + "\(f[20]) ×), \(f[21]) wake-ups/s; dynbench CPU \(f[22]) %, pauses \(f[23])\(heavy): "
      + "\(f[25])"
  }
}
