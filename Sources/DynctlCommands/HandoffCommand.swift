import ArgumentParser
import JSON
import Primitives
import Wire

/// `dynctl handoff`: performs a pan on a transition and checks that the item leaves the finger
/// with the finger's release velocity, as far as its constraints allow, in the handoff event
/// and in the motion that follows.
struct HandoffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "handoff",
    abstract: "Check that a drag's release velocity is handed to the item exactly.",
    discussion: """
      Opens TRANSITION on the manual clock, performs the --pan (a frame stepped between \
      samples) or sends the recorded stroke of --samples FILE (stepped by its own intervals; \
      docs/STROKES.md), and checks the release:

      1. The handoff event: the item's velocity must be the finger's release velocity after the \
      item's constraints (a rail projects it onto its axis, the engine's speed limit of 24000 \
      pt/s scales it down), each explained in one sentence. The daemon's velocity_error, \
      computed before its numbers are rounded for output, must be within --tolerance. \
      The daemon holds velocities as 32-bit floats, so the tolerance is never below 2^-23 of the \
      speed (0.002 pt/s at 16 000 pt/s). A release velocity the daemon estimated (no \
      --release-velocity) that came out 0 or limited is explained in a sentence too (the \
      pointer was still for more than 40 ms before lift-off, too few samples, …).

      2. The motion: the session must hold that velocity right after the release (get); in the \
      first frame the item must not move across its rail; and its velocity in up to three \
      frames, extrapolated back to the release instant (which removes what gravity adds \
      meanwhile), must be the item velocity within --motion-tolerance. That last check is \
      judged only when two- and three-frame extrapolations agree within 0.05 pt/s (forces \
      that change fast, a snap or a stiff spring, cannot be removed that way) and the item \
      touched nothing; otherwise it says why it was not judged.

      3. A handoff that names a detent (sheet): its projection must be where UIScrollView's \
      deceleration at the session's deceleration_rate stops the item from its center and \
      velocity at the release; the detent must be the one nearest to it (each NAME_detent \
      parameter, the height shown above the bottom edge); every frame until done must be the \
      handoff's spring's closed form within 0.005 pt; done must name the detent, and the item \
      rest on it within 0.0011 pt.

      4. A handoff that names a decay (fling): its projection must be that decay's resting \
      point from the item's center and velocity at the release; every frame until done must be \
      the decay's closed form (within the wire's rounding carried through the decay: 0.0011 + \
      0.0006/λ pt); the item must rest on the projection within 0.0011 pt.

      With --expect VX,VY the item velocity must also be that one, within --tolerance (and the       wire's rounding of 0.001 pt/s).

      Ends with one verdict line on standard output (standard error with --json): PASS when \
      every check held and the motion after the release was verified (2., or the landing of 3. \
      or 4., or a document's spring); PARTIAL when the handoff held (1.) but the motion after \
      the release could not be judged, saying why (exit status 0, or 1 with \
      --require-motion); FAIL otherwise, or when no handoff happened (then saying where the \
      pan began and ended and where the transition's items were).

      Example: dynctl handoff lock-screen --pan 160,500:160,380 --duration 0.2 \
      --release-velocity 1234,-1400
      """ + "\n\n"
        + ExitStatus.help(
          "1 FAIL, or no handoff happened, or PARTIAL with --require-motion",
          ExitStatus.errorReply + ", or the samples file is not valid",
          "66 the samples file cannot be read"))

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var choice: TransitionChoice
  @OptionGroup var drag: PanOptions
  @Option(parsing: .unconditional, help: "Largest velocity_error accepted, in pt/s.") var tolerance:
    Double = 0.001
  @Option(
    parsing: .unconditional,
    help: "Largest difference between the measured motion and the item velocity, pt/s.")
  var motionTolerance: Double = 0.05
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "The item velocity expected at the handoff, in pt/s (checked within --tolerance).",
      valueName: "vx,vy"))
  var expect: PairArgument?
  @Flag(help: "A motion after the release that cannot be judged fails (PARTIAL is then FAIL).")
  var requireMotion = false

  func validate() throws {
    guard drag.given else {
      throw ValidationError("handoff checks a drag: give --pan or --samples")
    }
    for (name, value) in [("--tolerance", tolerance), ("--motion-tolerance", motionTolerance)] {
      guard value.isFinite, value >= 0 else {
        throw ValidationError("\(name) must be a non-negative number")
      }
    }
  }

  /// The motion checks: the item holds the handed-over velocity, what its constraints removed
  /// stays removed in the first frame, and the frames extrapolated back to the release agree
  /// with it — judged only when two- and three-frame extrapolations agree, that is when the
  /// forces acting meanwhile (gravity, a spring, resistance) change slowly enough to be removed.
  /// How close (pt/s) the two- and three-frame extrapolations must be for the forces acting
  /// after the release to count as removed: gravity gives 0.002 (the wire's rounding).
  static let smoothEnough = 0.05

  /// Returns the failures, and why the motion was not judged (nil when it was measured and
  /// judged).
  func check(_ motion: Motion, _ h: HandoffReport, _ output: Output) -> ([String], String?) {
    var failures: [String] = []
    var notJudged: String?
    if let held = motion.held {
      let gap = distance(held, h.itemVelocity)
      output.note("  held at the release: \(pair(held)) pt/s (get, before any step)")
      if gap > max(tolerance, 0.0011) {
        failures.append("the session holds \(pair(held)) pt/s, not the handoff's item velocity")
      }
    }
    guard let first = motion.first else {
      let why = "no frame to measure (\(motion.stopped ?? "none came"))"
      output.note("  moving: \(why)")
      return (failures, why)
    }
    output.note("  first frame after the release: \(pair(first)) pt/s")
    for c in h.constraints {
      guard case .rail(let axis) = c else { continue }
      let across = abs(-first.0 * axis.dy + first.1 * axis.dx)
      if across > motionTolerance {
        failures.append("the item moves \(format(across)) pt/s across its rail")
      }
    }
    if let two = motion.twoFrames, let three = motion.threeFrames {
      let spread = distance(two, three)
      let gap = distance(three, h.itemVelocity)
      if spread <= Self.smoothEnough {
        output.note(
          "  extrapolated back to the release: \(pair(three)) pt/s, \(format(gap)) from the "
            + "item velocity (motion tolerance \(motionTolerance))")
        if gap > motionTolerance {
          failures.append(
            "the frames after the release move at \(pair(three)) pt/s, not \(pair(h.itemVelocity))")
        }
      } else {
        notJudged = "the forces after the release change too fast"
        output.note(
          "  extrapolated back to the release: not judged: \(notJudged ?? "") (two frames give "
            + "\(pair(two)), three \(pair(three)))")
      }
    } else {
      notJudged = motion.stopped ?? "too few frames"
      output.note("  extrapolated back to the release: not judged: \(notJudged ?? "")")
    }
    return (failures, notJudged)
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var client = try connection.connect()
      client.output.showFrames = false
      let session = try choice.open(client, clock: .manual)
      let handoffs = try drag.perform(on: session, client, pacing: .step).compactMap(
        HandoffReport.init)
      guard let h = handoffs.last else {
        let items = try? client.request(Op(GetRequest(session: session)), quietReply: true)
        var states: [ItemState] = []
        if case .get(_, _, let found, _) = items { states = found }
        throw verdict(
          "FAIL: no handoff: \(choice.transition) took no drag from this pan"
            + Self.whereItWas(drag.endpoints, states), client)
      }
      var failures: [String] = []
      client.output.note(
        "handoff \(h.item): finger \(pair(h.gesture)) pt/s, item \(pair(h.itemVelocity)) pt/s")
      if let why = releaseVelocitySentence(h.estimate) { client.output.note("  \(why)") }
      let (expected, sentences) = h.expectation
      for sentence in sentences { client.output.note("  \(sentence)") }
      // The engine keeps velocities as 32-bit floats (24-bit significands): nothing finer than
      // 2⁻²³ of the speed can be asked of it, whatever --tolerance says.
      let speed = (expected.0 * expected.0 + expected.1 * expected.1).squareRoot()
      let allowed = max(tolerance, speed * 0x1p-23)
      let bound = allowed > tolerance ? "\(allowed) (32-bit precision)" : "\(tolerance)"
      // The numbers on the wire are rounded to 3 decimals: allow that much on each component.
      let wireGap = distance(expected, h.itemVelocity)
      if wireGap > allowed + 0.0011 {
        failures.append(
          "the item's velocity \(pair(h.itemVelocity)) is not the finger's after its constraints "
            + "\(pair(expected)) (off by \(format(wireGap)) pt/s)")
      }
      if let error = h.velocityError {
        client.output.note(
          "  taken within \(JSONValue.number(error).jsonText) pt/s (velocity_error, before "
            + "rounding; tolerance \(bound))")
        if error > allowed {
          failures.append("velocity_error \(error) pt/s is above the tolerance \(bound)")
        }
      }
      if let expect {
        let gap = distance((expect.x, expect.y), h.itemVelocity)
        client.output.note(
          "  expected: \(pair((expect.x, expect.y))) pt/s, \(format(gap)) from the item velocity")
        if gap > tolerance + 0.0011 {
          failures.append(
            "the item velocity \(pair(h.itemVelocity)) is not the expected "
              + "\(pair((expect.x, expect.y))) (off by \(format(gap)) pt/s, "
              + "tolerance \(tolerance))"
              + (releaseVelocitySentence(h.estimate).map { ": \($0)" } ?? ""))
        }
      }
      let detents = try DetentCheck.atRelease(h, session: session, client)
      failures += detents?.checkRelease(h, client.output) ?? []
      let decay = try DecayCheck.atRelease(h, session: session, client)
      failures += decay?.checkRelease(h, client.output) ?? []
      let spring = try SpringCheck.atRelease(h, session: session, client)
      let motion = try Motion.measure(item: h.item, session: session, client)
      let (motionFailures, notJudged) = check(motion, h, client.output)
      failures += motionFailures
      var landing = try detents?.checkLanding(h, session: session, client)
      if landing == nil { landing = try decay?.checkLanding(h, session: session, client) }
      if landing == nil { landing = try spring?.checkLanding(h, session: session, client) }
      failures += landing?.failures ?? []
      let how = h.constraints.isEmpty ? "exactly" : "as far as its constraints allow"
      // The motion is verified by the extrapolation or by a landing followed frame by frame.
      let unverified = landing?.verified == true ? nil : notJudged
      if let unverified, requireMotion, failures.isEmpty {
        failures.append("its motion after the release was not verified: \(unverified)")
      }
      if !failures.isEmpty {
        throw verdict("FAIL: " + failures.joined(separator: "; "), client)
      }
      if let unverified {
        _ = verdict(
          "PARTIAL: \(h.item) took the finger's release velocity \(how) at the handoff; its "
            + "motion after the release was not verified: \(unverified)", client)
      } else {
        _ = verdict("PASS: \(h.item) moves with the finger's release velocity, \(how)", client)
      }
    }
  }

  /// Writes the verdict line (PASS, PARTIAL or FAIL) where every verdict goes — standard
  /// output, or standard error with --json (whose standard output is JSON lines) — and returns
  /// the failure that sets the exit status (used for FAIL; its text is not written again).
  func verdict(_ line: String, _ client: DaemonClient) -> Failure {
    if connection.json { printToStandardError(line) } else { client.output.note(line) }
    return .verdictWritten(line)
  }

  /// Where a pan that started no drag went, whether it began on an item, and where the
  /// transition's items were at its end: each of up to three, those nearest the pan's start
  /// first, with its center and frame.
  static func whereItWas(_ pan: (from: Point, to: Point)?, _ items: [ItemState]) -> String {
    let start = pan?.from ?? Point(x: 0, y: 0)
    func frame(_ s: ItemState) -> Rect {
      Rect(
        x: s.center.x - s.size.width / 2, y: s.center.y - s.size.height / 2,
        width: s.size.width, height: s.size.height)
    }
    func gap(_ s: ItemState) -> Double {
      let f = frame(s)
      let dx = max(f.minX - start.x, 0, start.x - f.maxX)
      let dy = max(f.minY - start.y, 0, start.y - f.maxY)
      return (dx * dx + dy * dy).squareRoot()
    }
    let nearest = items.sorted { gap($0) < gap($1) }
    var parts: [String] = []
    if let pan {
      let on = nearest.first.flatMap { gap($0) == 0 ? $0.id : nil }
      parts.append(
        "the pan went from \(pair((pan.from.x, pan.from.y))) to \(pair((pan.to.x, pan.to.y))) "
          + (on.map { "and began on \($0)" } ?? "and began outside every item"))
    }
    let described = nearest.prefix(3).map { s -> String in
      let f = frame(s)
      return "\(s.id) at center \(pair((s.center.x, s.center.y))), frame x \(format(f.minX)) … "
        + "\(format(f.maxX)), y \(format(f.minY)) … \(format(f.maxY))"
    }
    if !described.isEmpty {
      let more = items.count > 3 ? " (and \(items.count - 3) more)" : ""
      parts.append("at its end " + described.joined(separator: "; ") + more)
    }
    return parts.isEmpty ? "" : ": " + parts.joined(separator: "; ")
  }
}

/// The dragged item's velocity after the release, measured from the session itself.
struct Motion {
  /// The item's velocity as the session holds it right after the release (`get`, no step).
  var held: (Double, Double)?
  /// The velocity in the first frame after the release.
  var first: (Double, Double)?
  /// Extrapolated back to the release instant through the first two and three frames; nil
  /// where the frames ran out (a `done` or `pause`, a contact).
  var twoFrames: (Double, Double)?
  var threeFrames: (Double, Double)?
  /// Why the frames stopped early, if they did.
  var stopped: String?

  /// Reads the item with `get`, then steps single frames (at most three) until a contact, a
  /// `done` or a `pause` ends the free flight.
  static func measure(item: String, session: String, _ client: DaemonClient) throws(Failure)
    -> Motion
  {
    var motion = Motion()
    let now = try client.request(Op(GetRequest(session: session)), quietReply: true)
    if case .get(_, _, let items, _) = now { motion.held = velocity(of: item, in: items) }
    // Frame k after the release is exactly k/60 s after it (manual clock, default 60 fps); the
    // frames' own times are rounded to 1 ms on the wire.
    var samples: [(t: Double, v: (Double, Double))] = []
    while samples.count < 3, motion.stopped == nil {
      var frame: (Double, Double)?
      try client.request(Op(StepRequest(session: session, count: 1)), quietReply: true) {
        event in
        guard case .event(let e) = event.content else { return }
        switch e {
        case .frame(let f): frame = velocity(of: item, in: f.items)
        case .contact(let c) where c.item == item || c.partner == .item(item):
          motion.stopped = "the item touched something"
        case .done: motion.stopped = "the transition reported its outcome"
        case .pause: motion.stopped = "the session came to rest"
        default: break
        }
      }
      // A frame that came with its end is shown as the first frame when it is one, but not
      // extrapolated from: what follows it is the end (an item stopped off screen), not flight.
      if samples.isEmpty { motion.first = frame }
      guard motion.stopped == nil, let v = frame else { break }
      samples.append((Double(samples.count + 1) / 60, v))
    }
    if samples.count >= 2 { motion.twoFrames = extrapolate(Array(samples.prefix(2)), to: 0) }
    if samples.count >= 3 { motion.threeFrames = extrapolate(samples, to: 0) }
    return motion
  }

  static func velocity(of item: String, in items: [ItemState]) -> (Double, Double)? {
    guard let state = items.first(where: { $0.id == item }) else { return nil }
    return (state.velocity.dx, state.velocity.dy)
  }

  /// The polynomial through the samples (Lagrange form), evaluated at `t`.
  static func extrapolate(_ samples: [(t: Double, v: (Double, Double))], to t: Double) -> (
    Double, Double
  ) {
    var x = 0.0
    var y = 0.0
    for (i, s) in samples.enumerated() {
      var weight = 1.0
      for (j, o) in samples.enumerated() where j != i { weight *= (t - o.t) / (s.t - o.t) }
      x += weight * s.v.0
      y += weight * s.v.1
    }
    return (x, y)
  }
}
