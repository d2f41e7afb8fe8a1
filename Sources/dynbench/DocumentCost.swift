import ArgumentParser
import EmbeddedHost
import Foundation
import Primitives
import SessionHost
import TransitionDocuments
import Transitions

/// What a transition written as a document costs against its Swift form (issue 37: at most
/// 1.2×): the five built-ins of examples/transitions/built-ins beside the Swift transitions,
/// each driven by the same flick (a `began`, 6 `changed` and an `ended` at 60 Hz, then frames
/// until it is done), timed per gesture request (`Transition.handle`) and per frame (the
/// animator's step, `afterStep` and the frame's `values`, as a session runs them); then the same
/// through the daemon's host in process (`EmbeddedHost`): per `gesture` request, per one-frame
/// `step` and per `open`, each decoded, applied and answered as dynd does. The two forms alternate
/// run by run, so that both see the same machine.
struct DocumentCost: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "document-cost",
    abstract: "Time the built-ins written as documents against their Swift form.")

  @Option(help: "Runs per transition and form (alternating).")
  var runs: Int = 200

  @Option(help: "The folder of the documents (default: the checkout's built-ins).")
  var documents: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("examples/transitions/built-ins").path

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  @Option(help: "The built-ins to time, comma-separated (default: all five).")
  var transitions: String?

  /// The built-ins asked for, in the table's order.
  private var names: [String] {
    guard let transitions else { return Self.names }
    let asked = Set(transitions.split(separator: ",").map(String.init))
    return Self.names.filter(asked.contains)
  }

  static let names = ["lock-screen", "sidebar-menu", "sheet", "fling", "pip-corners"]

  func validate() throws {
    guard runs >= 1 else { throw ValidationError("runs must be ≥ 1") }
    guard !names.isEmpty else {
      throw ValidationError("--transitions takes names among " + Self.names.joined(separator: ", "))
    }
  }

  /// Nanoseconds spent in the gesture requests, the frames and the `open`s of one run, and their
  /// counts.
  struct Cost {
    var gestureNanoseconds: UInt64 = 0
    var gestures = 0
    var frameNanoseconds: UInt64 = 0
    var frames = 0
    var openNanoseconds: UInt64 = 0
    var opens = 0

    mutating func add(_ other: Cost) {
      gestureNanoseconds += other.gestureNanoseconds
      gestures += other.gestures
      frameNanoseconds += other.frameNanoseconds
      frames += other.frames
      openNanoseconds += other.openNanoseconds
      opens += other.opens
    }

    var perGesture: Double { Double(gestureNanoseconds) / Double(max(gestures, 1)) }
    var perFrame: Double { Double(frameNanoseconds) / Double(max(frames, 1)) }
    var perOpen: Double { Double(openNanoseconds) / Double(max(opens, 1)) }
  }

  func run() throws {
    let bounds = TransitionBounds.standard
    var rows: [(String, Cost, Cost)] = []
    for name in names {
      guard let type = TransitionRegistry.all.first(where: { $0.name == name }) else {
        throw ValidationError("no built-in '\(name)'")
      }
      let text = try Data(contentsOf: URL(fileURLWithPath: "\(documents)/\(name).json"))
      let document = try TransitionDocument.read(text: Array(text))
      let swiftValues = try ParameterValues([:], declared: type.parameters, in: bounds.size)
      let documentValues = try ParameterValues([:], declared: document.parameters, in: bounds.size)
      let makeSwift = { try type.init(parameters: swiftValues, bounds: bounds) }
      let makeDocument = {
        try DocumentTransition(
          document, scene: document.scene(documentValues, in: bounds), values: documentValues,
          bounds: bounds) as Transition
      }
      // One untimed run of each first: the first call of anything pays for loading it.
      _ = try Self.flick(makeSwift())
      _ = try Self.flick(makeDocument())
      var swift = Cost()
      var written = Cost()
      for _ in 0..<runs {
        swift.add(try Self.flick(makeSwift()))
        written.add(try Self.flick(makeDocument()))
      }
      rows.append((name, swift, written))
    }
    print(
      markdown
        ? "| transition | per gesture request: Swift | document | ratio | per frame: Swift | document | ratio |"
        : "transition: per gesture request Swift / document (ratio); per frame Swift / document (ratio)"
    )
    if markdown { print("|---|---|---|---|---|---|---|") }
    for (name, swift, written) in rows {
      printRow(name, swift, written)
    }
    print(
      "(\(runs) flicks of each per form, alternating; gestures: began, 6 changed, ended; frames: "
        + "the animator's 60 Hz step, afterStep and values until done or 10 s)")
    print()
    try throughHost()
  }

  /// The same flicks as requests to the host: `gesture` lines and one-frame `step`s.
  func throughHost() throws {
    print(
      markdown
        ? "| through the host | per `gesture` request: Swift | document | ratio | per `step` frame: Swift | document | ratio | per `open`: Swift | document | ratio |"
        : "through the host: per gesture request Swift / document (ratio); per step frame (ratio); per open (ratio)"
    )
    if markdown { print("|---|---|---|---|---|---|---|---|---|---|") }
    for name in names {
      let text = try String(contentsOfFile: "\(documents)/\(name).json", encoding: .utf8)
      let renamed = text.replacingOccurrences(
        of: "\"transition\": \"\(name)\"", with: "\"transition\": \"\(name).document\"")
      let host = EmbeddedHost()
      let peer = host.connect()
      let compact = renamed.split(separator: "\n").joined(separator: " ")
      let reply = host.send(#"{"op":"define","document":"# + compact + "}", from: peer)
      guard reply[peer]?.first?.contains(#""ok":true"#) == true else {
        throw ValidationError("define \(name).document: \(reply[peer] ?? [])")
      }
      // One untimed run of each first, as above.
      _ = Self.flick(host, peer, transition: name, session: "first-s")
      _ = Self.flick(host, peer, transition: name + ".document", session: "first-d")
      var swift = Cost()
      var written = Cost()
      for run in 0..<runs {
        swift.add(Self.flick(host, peer, transition: name, session: "s\(run)"))
        written.add(Self.flick(host, peer, transition: name + ".document", session: "d\(run)"))
      }
      printRow(name, swift, written, opens: true)
    }
    print(
      "(each session opened with the defaults in 320×568: a document's sessions after the first "
        + "share the scene it laid out and what its effects read)")
  }

  /// One row of a table: each form's cost per gesture request and per frame (and per `open`),
  /// and their ratios.
  func printRow(_ name: String, _ swift: Cost, _ written: Cost, opens: Bool = false) {
    var cells = [
      name, "\(r(swift.perGesture / 1000, 2)) µs", "\(r(written.perGesture / 1000, 2)) µs",
      "\(r(written.perGesture / swift.perGesture, 2))×", "\(r(swift.perFrame / 1000, 2)) µs",
      "\(r(written.perFrame / 1000, 2)) µs", "\(r(written.perFrame / swift.perFrame, 2))×",
    ]
    if opens {
      cells += [
        "\(r(swift.perOpen / 1000, 1)) µs", "\(r(written.perOpen / 1000, 1)) µs",
        "\(r(written.perOpen / swift.perOpen, 2))×",
      ]
    }
    print(markdown ? "| " + cells.joined(separator: " | ") + " |" : cells.joined(separator: "  "))
  }

  /// One flick through `host` on a new manual-clock session, closed after it.
  static func flick(_ host: EmbeddedHost, _ peer: PeerID, transition: String, session: String)
    -> Cost
  {
    var cost = Cost()
    func timed(_ line: String, frame: Bool) -> [String] {
      let t0 = DispatchTime.now().uptimeNanoseconds
      let out = host.send(line, from: peer)[peer] ?? []
      let spent = DispatchTime.now().uptimeNanoseconds - t0
      if frame {
        cost.frameNanoseconds += spent
        cost.frames += 1
      } else {
        cost.gestureNanoseconds += spent
        cost.gestures += 1
      }
      return out
    }
    let opened = DispatchTime.now().uptimeNanoseconds
    _ = host.send(
      #"{"op":"open","transition":""# + transition + #"","clock":"manual","session":""# + session
        + #""}"#, from: peer)
    cost.openNanoseconds += DispatchTime.now().uptimeNanoseconds - opened
    cost.opens += 1
    let get = host.send(#"{"op":"get","session":""# + session + #""}"#, from: peer)[peer] ?? []
    // The first item's center, clamped into the bounds.
    var (x, y) = (160.0, 400.0)
    if let line = get.first, let range = line.range(of: #""center":["#) {
      let rest = line[range.upperBound...].prefix { $0 != "]" }.split(separator: ",")
      if rest.count == 2, let cx = Double(rest[0]), let cy = Double(rest[1]) {
        (x, y) = (min(max(cx, 5), 315), min(max(cy, 5), 563))
      }
    }
    let g = #"{"op":"gesture","session":""# + session + #"","#
    _ = timed(g + #""phase":"began","x":\#(x),"y":\#(y),"t":0}"#, frame: false)
    let step = #"{"op":"step","session":""# + session + #""}"#
    for i in 1...6 {
      _ = timed(step, frame: true)
      _ = timed(
        g
          + #""phase":"changed","x":\#(x - 6 * Double(i)),"y":\#(y - 12 * Double(i)),"t":\#(Double(i) / 60)}"#,
        frame: false)
    }
    _ = timed(
      g + #""phase":"ended","x":\#(x - 36),"y":\#(y - 72),"t":0.1,"vx":-600,"vy":-1200}"#,
      frame: false)
    for _ in 0..<600
    where !timed(step, frame: true).contains(where: { $0.contains(#""event":"done""#) }) {}
    _ = host.send(#"{"op":"close","session":""# + session + #""}"#, from: peer)
    return cost
  }

  /// A flick from below the middle upward and to the left at 60 Hz, then frames until a `done`
  /// (or 600 frames).
  static func flick(_ t: Transition) throws -> Cost {
    var cost = Cost()
    let b = t.bounds
    let start = t.items[0].center
    let from = Point(
      x: min(max(start.x, b.minX + 5), b.maxX - 5), y: min(max(start.y, b.minY + 5), b.maxY - 5))
    func timed(_ sample: GestureSample) -> [TransitionEvent] {
      let t0 = DispatchTime.now().uptimeNanoseconds
      let events = t.handle(sample, now: 0)
      cost.gestureNanoseconds += DispatchTime.now().uptimeNanoseconds - t0
      cost.gestures += 1
      return events
    }
    func frame() -> Bool {
      let t0 = DispatchTime.now().uptimeNanoseconds
      t.animator.step(1.0 / 60)
      let events = t.afterStep()
      let values = t.values
      cost.frameNanoseconds += DispatchTime.now().uptimeNanoseconds - t0
      cost.frames += 1
      precondition(values.allSatisfy { $0.value.isFinite })
      return events.contains { if case .done = $0 { true } else { false } }
    }
    _ = timed(GestureSample(phase: .began, point: from, time: 0))
    for i in 1...6 {
      _ = frame()
      let p = Point(x: from.x - 6 * Double(i), y: from.y - 12 * Double(i))
      _ = timed(GestureSample(phase: .changed, point: p, time: Double(i) / 60))
    }
    _ = timed(
      GestureSample(
        phase: .ended, point: Point(x: from.x - 36, y: from.y - 72), time: 0.1,
        velocity: Vector(dx: -600, dy: -1200)))
    for _ in 0..<600 where !frame() {}
    return cost
  }
}
