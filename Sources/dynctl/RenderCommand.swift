import ArgumentParser

struct RenderCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "render",
    abstract: "Turn traces from `dynctl record` into a replayable HTML page or an SVG picture.",
    discussion: """
      --html OUT writes one self-contained page (no network, no external scripts) that replays \
      every TRACE on a canvas at true speed, with play/pause, scrubbing, 0.25×–2× speed and \
      overlay toggles for the debug geometry, and plots of the dragged item's position and \
      velocity marking the gesture, the handoff and each contact. --svg OUT writes the first \
      TRACE as a static picture: each item's trajectory and a filmstrip of key frames.
      """ + "\n\n"
        + ExitStatus.help(
          "64 usage", "65 a trace is not valid", "66 a trace cannot be read",
          "73 an output cannot be written", talksToDaemon: false))

  @Argument(help: "Trace files written by `dynctl record`.") var traces: [String]
  @Option(help: "The HTML page to write.") var html: String?
  @Option(help: "The SVG picture to write (of the first trace).") var svg: String?

  func validate() throws {
    guard !traces.isEmpty else { throw ValidationError("give at least one trace") }
    guard html != nil || svg != nil else {
      throw ValidationError("give --html OUT, --svg OUT or both")
    }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var loaded: [Trace] = []
      for path in traces { loaded.append(try Trace(path: path)) }
      let output = Output(json: false)
      if let html {
        try writeFile(html, HTMLRenderer.render(loaded))
        output.note("wrote \(html) (\(loaded.count) trace\(loaded.count == 1 ? "" : "s"))")
      }
      if let svg {
        try writeFile(svg, SVGRenderer.render(loaded[0]))
        output.note("wrote \(svg)")
      }
    }
  }
}
