import Histogram

/// What one session count of the `sessions` benchmark measured, and whether it passed.
struct SessionLoadResult {
  let sessions: Int
  /// Lateness beyond which a frame counts as late.
  let lateNanoseconds: UInt64
  var allowedPercent = 0.1
  var daemonCPUPercent = 0.0
  var ownCPUPercent = 0.0
  var daemonWakeupsPerSecond = 0.0
  /// Share of a bare 60 Hz sleeping thread's wake-ups late by over the bound, same window.
  var floorLatePercent = 0.0
  var pauses = 0
  var closed = 0
  /// Frames that should have arrived in the window (first to last `seq` seen, per session).
  var due = 0
  var late = 0
  /// Frames whose `seq` never arrived (coalesced by the daemon, or a skipped tick).
  var missing = 0
  /// Frames that came more than the lateness bound after one period past the previous frame of
  /// their session: display-style frame pacing, which a single stall marks once, not for ever.
  var lateIntervals = 0
  /// Sessions from which no frame arrived in the window.
  var silent = 0
  var lateness = Histogram<UInt64>(
    highestTrackableValue: 60_000_000_000, numberOfSignificantValueDigits: .three)

  var latePercent: Double { due == 0 ? 100 : Double(late + missing) / Double(due) * 100 }
  var passed: Bool { latePercent <= allowedPercent && silent == 0 && closed == 0 }

  /// Judges every frame the receiver recorded against its session's on-time offset.
  mutating func collect(_ receiver: FrameReceiver) {
    for (session, offsets) in receiver.offsets.enumerated() {
      guard let onTime = offsets.min() else {
        silent += 1
        continue
      }
      let span = Int(receiver.lastSeq[session] - receiver.firstSeq[session]) + 1
      due += span
      missing += max(0, span - offsets.count)
      for offset in offsets {
        let delay = UInt64(offset - onTime)
        _ = lateness.record(delay)
        if delay > lateNanoseconds { late += 1 }
      }
      for (previous, offset) in zip(offsets, offsets.dropFirst())
      where offset - previous > Int64(lateNanoseconds) {
        lateIntervals += 1
      }
    }
  }

  private var figures: [String] {
    [
      String(sessions), String(due), String(late), String(missing), r(latePercent, 4),
      r(Double(lateIntervals) / Double(max(1, due)) * 100, 4), r(floorLatePercent, 4),
      micro(Double(lateness.valueAtPercentile(50))), micro(Double(lateness.valueAtPercentile(99))),
      micro(Double(lateness.valueAtPercentile(99.9))), micro(Double(lateness.max)),
      fmt(daemonCPUPercent), String(Int(daemonWakeupsPerSecond)), fmt(ownCPUPercent),
      String(pauses),
    ]
  }

  private var verdict: String {
    var words = passed ? "pass" : "FAIL"
    if silent > 0 { words += " (\(silent) silent sessions)" }
    if closed > 0 { words += " (\(closed) connections closed)" }
    return words
  }

  var markdownRow: String { "| " + (figures + [verdict]).joined(separator: " | ") + " |" }

  var sentence: String {
    let f = figures
    return "\(f[0]) sessions: \(f[1]) frames due, \(f[2]) late, \(f[3]) missing (\(f[4]) %); "
      + "late intervals \(f[5]) %, timer floor late \(f[6]) %; lateness p50 \(f[7]) µs, "
      + "p99 \(f[8]) µs, p99.9 \(f[9]) µs, max \(f[10]) µs; dynd CPU \(f[11]) % "
      + "(\(f[12]) wake-ups/s), dynbench CPU \(f[13]) %, pauses \(f[14]): \(verdict)"
  }
}
