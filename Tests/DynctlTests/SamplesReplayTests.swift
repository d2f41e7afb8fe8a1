import Foundation
import Primitives
import Strokes
import Testing
import Transitions

/// `--samples`: a recorded stroke of each format replayed by dynctl against a real dynd gives
/// the handoff whose finger velocity is the estimator's on the same samples (the estimator run
/// here, in-process, on what the file reads as).
@Suite("dynctl --samples")
struct SamplesReplayTests {
  static let folder = Binaries.packageRoot.appendingPathComponent("Tests/Shared/strokes")

  /// One file of each format, with the options its units need.
  static let files: [(file: String, options: [String], units: StrokeUnits)] = [
    ("flick.csv", [], StrokeUnits()),
    ("repeats.csv", [], StrokeUnits()),
    ("flick.jsonl", [], StrokeUnits()),
    ("touchscreen-mt.yml", ["--points-per-inch", "254"], StrokeUnits(pointsPerInch: 254)),
    ("touchpanel-st.yml", [], StrokeUnits()),
    (
      "touchscreen-nores.yml", ["--screen-size", "1402,2802", "--screen-density", "320"],
      StrokeUnits(screen: MappedScreen(width: 1402, height: 2802, density: 320))
    ),
    (
      "phone.getevent", ["--screen-size", "1080,2400", "--screen-density", "480"],
      StrokeUnits(screen: MappedScreen(width: 1080, height: 2400, density: 480))
    ),
    (
      "tablet.getevent",
      [
        "--screen-size", "540,1200", "--screen-density", "240", "--device-info",
        folder.appendingPathComponent("tablet-lp.txt").path,
      ],
      StrokeUnits(
        screen: MappedScreen(width: 540, height: 1200, density: 240),
        deviceInfo: try? String(
          contentsOf: folder.appendingPathComponent("tablet-lp.txt"), encoding: .utf8))
    ),
  ]

  /// The platform estimator on `stroke` sent as dynctl sends it: began, changed …, ended.
  static func estimate(_ stroke: Stroke) -> Vector {
    var tracker = GestureTracker()
    for (index, sample) in stroke.samples.enumerated() {
      let phase: GesturePhase =
        index == 0 ? .began : index == stroke.samples.count - 1 ? .ended : .changed
      tracker.record(phase, sample.point, at: sample.t)
    }
    return tracker.velocity(.platform)
  }

  /// The `gesture_velocity` of the one handoff event among dynctl's JSON lines.
  static func fingerVelocity(_ output: String) throws -> (Double, Double) {
    let handoffs = output.split(separator: "\n").filter { $0.contains(#""ev":"handoff""#) }
    let line = try #require(handoffs.count == 1 ? handoffs.first : nil, "\(output)")
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    let pair = try #require(object?["gesture_velocity"] as? [Double], "\(line)")
    return (pair[0], pair[1])
  }

  @Test("each format replays with the estimator's velocity; gesture prints what it read")
  func replayEachFormat() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    for (index, entry) in Self.files.enumerated() {
      let path = Self.folder.appendingPathComponent(entry.file).path
      let format = try #require(StrokeFormat(path: path))
      let stroke = try StrokeReader.read(
        String(contentsOfFile: path, encoding: .utf8), format: format, units: entry.units)
      let expected = Self.estimate(stroke)
      let session = "replay-\(index)"
      let opened = daemon.dynctl([
        "open", "lock-screen", "--session", session, "--clock", "manual",
      ])
      #expect(opened.status == 0, "\(opened.error)")
      let sent = daemon.dynctl(["-j", "gesture", session, "--samples", path] + entry.options)
      #expect(sent.status == 0, "\(entry.file): \(sent.error)")
      let finger = try Self.fingerVelocity(sent.output)
      // The wire rounds to 0.001 pt/s.
      #expect(
        abs(finger.0 - expected.dx) <= 0.0011 && abs(finger.1 - expected.dy) <= 0.0011,
        "\(entry.file): handoff \(finger), estimator \(expected)")
      #expect(hypot(expected.dx, expected.dy) > 100, "\(entry.file): a stroke that moves")
      let readable = daemon.dynctl(["gesture", session, "--samples", path] + entry.options)
      #expect(
        readable.output.hasPrefix("read \(stroke.samples.count) samples (\(format.rawValue))"),
        "\(readable.output)")
      #expect(readable.output.contains("handoff screen: gesture velocity"), "\(readable.output)")
      _ = daemon.dynctl(["close", session])
    }
  }

  @Test("a recorded stroke's trace replays to the same handoff; bad files and options refused")
  func traceAndRefusals() throws {
    let daemon = try PrivateDaemon()
    defer { daemon.stop() }
    let csv = Self.folder.appendingPathComponent("flick.csv").path
    let trace = daemon.directory + "/flick-trace.jsonl"
    let recorded = daemon.dynctl(["record", "lock-screen", "--samples", csv, "-o", trace])
    #expect(recorded.status == 0, "\(recorded.output) \(recorded.error)")
    let direct = daemon.dynctl(["-j", "handoff", "lock-screen", "--samples", csv])
    let again = daemon.dynctl(["-j", "handoff", "lock-screen", "--samples", trace])
    #expect(direct.status == 0 && again.status == 0, "\(direct.error) \(again.error)")
    #expect(try Self.fingerVelocity(direct.output) == Self.fingerVelocity(again.output))
    let played = daemon.dynctl(["play", "lock-screen", "--samples", csv])
    #expect(played.status == 0, "\(played.output) \(played.error)")
    #expect(played.output.contains("outcome: "), "\(played.output)")

    let bad = Self.folder.appendingPathComponent("bad/not-a-number.csv").path
    let refused = daemon.dynctl(["play", "lock-screen", "--samples", bad])
    #expect(refused.status == 65)
    #expect(refused.error.contains("line 4: expected a finite number for x"), "\(refused.error)")
    let missing = daemon.dynctl(["handoff", "lock-screen", "--samples", "/nonexistent.csv"])
    #expect(missing.status == 66, "\(missing.error)")
    for arguments in [
      ["gesture", "s", "--samples", csv, "--from", "1,2"],
      ["gesture", "s", "--samples", "stroke.txt"],
      ["gesture", "s", "--from", "1,2", "--to", "3,4", "--screen-density", "3"],
      ["play", "lock-screen", "--samples", csv, "--pan", "1,2:3,4"],
      ["handoff", "lock-screen", "--samples", csv, "--duration", "1"],
      ["gesture", "s", "--samples", csv, "--points-per-inch", "0"],
    ] {
      let result = daemon.dynctl(arguments)
      #expect(result.status == 64, "\(arguments): \(result.error)")
    }
  }
}
