import ArgumentParser
import TraceRender

struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Turn traces from `dynctl record` into a replayable HTML page or an SVG picture.",
    discussion: """
      --html OUT writes one self-contained page (no network, no external scripts). Each TRACE \
      gets a header (the outcome; the handoff's gesture_velocity, item_velocity and \
      velocity_error; the parameters the session was opened with; the gesture), a replay of \
      the stage at true speed (play/pause, scrubbing, 0.25×–2× speed; item names on the items, \
      the dragged item on top, the bounds framed with a margin and what lies outside them \
      faded; the debug geometry, each kind with a toggle) with a legend of every colour and \
      mark, and plots of one item's position and velocity (the dragged one first) with time \
      and value ticks, marking the finger down, the handoff, each contact and the outcome. \
      `#t=0.5` at the end of the page's URL opens it at that time.

      --overlay draws every TRACE on one stage and one set of plot axes, one colour per trace, \
      under one header comparing them: for the same transition with different --param values. \
      --offscreen frames everything the items reach instead of the bounds (a list waiting off \
      screen, a screen thrown away).

      --svg OUT writes the first TRACE as a still sized to its content: the header, a \
      filmstrip of the stage at six evenly spaced times, and one strip per moving item of its \
      position over time on one time axis, each strip on its item's own range with a dot where \
      the item is half-way (joined across the strips, a wave shows as a slant).

      Examples:
        dynctl render lock.jsonl wave.jsonl --html replay.html --svg wave.svg
        dynctl render gravity4.jsonl gravity8.jsonl --overlay --html compare.html
      """ + "\n\n"
        + ExitStatus.help(
          "64 usage", "65 a trace is not valid", "66 a trace cannot be read",
          "73 an output cannot be written", talksToDaemon: false))

  @Argument(help: "Trace files written by `dynctl record`.") var traces: [String]
  @Option(help: "The HTML page to write.") var html: String?
  @Option(help: "The SVG picture to write (of the first trace; a warning when there are more).")
  var svg: String?
  @Flag(help: "One stage and one set of plot axes for every trace (HTML; two traces or more).")
  var overlay = false
  @Flag(help: "Frame everything the items reach, not only the bounds (HTML and SVG).")
  var offscreen = false

  func validate() throws {
    guard !traces.isEmpty else { throw ValidationError("give at least one trace") }
    guard html != nil || svg != nil else {
      throw ValidationError("give --html OUT, --svg OUT or both")
    }
    if overlay, traces.count < 2 {
      throw ValidationError("--overlay compares traces: give two or more")
    }
    if overlay, html == nil {
      throw ValidationError("--overlay draws the HTML page: give --html OUT too")
    }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var loaded: [Trace] = []
      for path in traces {
        let text = try readFile(path)
        do throws(InvalidTrace) {
          loaded.append(try Trace(path: path, text: text))
        } catch {
          throw .invalidInput(path: path, reason: error.reason)
        }
      }
      for warning in warnings(loaded) { complain("warning: " + warning) }
      let output = Output(json: false)
      if let html {
        let options = HTMLRenderer.Options(overlay: overlay, offscreen: offscreen)
        try writeFile(html, HTMLRenderer.render(loaded, options: options))
        let count = "\(loaded.count) trace\(loaded.count == 1 ? "" : "s")"
        output.note("wrote \(html) (\(count)\(overlay ? ", overlaid" : ""))")
      }
      if let svg {
        try writeFile(svg, SVGRenderer.render(loaded[0], offscreen: offscreen))
        output.note("wrote \(svg)")
      }
    }
  }

  /// What the pictures will not show as the options might suggest: the SVG draws only the
  /// first trace, and an overlay of different transitions compares unlike items.
  func warnings(_ loaded: [Trace]) -> [String] {
    var found: [String] = []
    if svg != nil, loaded.count > 1 {
      found.append(
        "--svg draws only the first trace (\(traces[0]))"
          + (overlay ? "; --overlay applies to the HTML page" : ""))
    }
    let kinds = loaded.map { $0.transition ?? "scene" }
    if overlay, Set(kinds).count > 1 {
      found.append(
        "--overlay compares different transitions (\(kinds.joined(separator: ", "))): their "
          + "items share one stage and one set of axes")
    }
    return found
  }
}
