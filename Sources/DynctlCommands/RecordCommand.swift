import ArgumentParser
import Glibc
import JSON
import Primitives
import TraceRender
import Wire

struct RecordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Record a transition's gesture cycle, a scene, or a running session, as a trace.",
    discussion: """
      Writes a JSON-lines trace to --output: a header {"trace":1,"source":…,"transition":…,\
      "session":…,"bounds":[…]}, then every line dynctl sent (as {"sent":{…}}) and every line \
      the daemon wrote, in order — the items with their sizes, each frame followed by its debug \
      geometry, the gesture, the handoff, the contacts and the outcome. `dynctl render` turns \
      traces into HTML or SVG. What is recorded:

      TRANSITION with --pan, --samples, --tap or --swipe: like `play`, on the manual clock with \
      the debug stream on, until the outcome (`done`) or --max-seconds of animation (exit 1 \
      then). --samples FILE sends a recorded stroke with its own timestamps (docs/STROKES.md); \
      the trace's gesture can itself be replayed with --samples. \
      --session names the session (default TRANSITION-PID), --param sets its parameters; the \
      trace keeps the `hello` reply, whose parameter tables give the others' defaults.

      --scene FILE: opens the scene (as `dynctl open --scene`: a JSON file, - for standard \
      input, or inline JSON) on the manual clock with the debug stream on, and steps it until \
      it comes to rest or for --max-seconds of animation. --session names the session \
      (default scene-PID). No gesture, no parameters.

      --session NAME alone: joins a session that is already open (whoever opened it, either \
      clock), reads its items, reference bounds and (for a transition) the parameters it was \
      opened with from `get`, the parameter tables from `hello`, turns the debug stream on \
      (which watches it) and records what happens without sending gestures or steps: until a \
      transition's `done`, a scene's `pause` (at rest), the session's closing, or \
      --max-seconds of waiting (wall clock). Exit 1 if no frame came.

      Examples:
        dynctl record lock-screen --pan 160,500:160,380 -o lock.jsonl
        dynctl record lock-screen --samples flick.csv -o flick-trace.jsonl
        dynctl record lock-screen --param gravity=8 --pan 160,500:160,380 -o g8.jsonl
        dynctl record --scene examples/scenes/drop.json --max-seconds 3 -o drop.jsonl
        dynctl record --session live --max-seconds 5 -o live.jsonl
      """ + "\n\n"
        + ExitStatus.help(
          "1 no outcome within --max-seconds (a transition), no frame came (--session alone)",
          ExitStatus.errorReply + ", or the scene or samples file is not valid",
          "66 the scene or samples file cannot be read", "73 the trace cannot be written"))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The transition to open and play (see `dynctl hello`).") var transition: String?
  @Option(help: "A scene to open and record: a JSON file, `-` for standard input, or inline JSON.")
  var scene: String?
  @Option(
    help: """
      With TRANSITION or --scene: the name of the session to open (default: TRANSITION-PID, \
      scene-PID). Alone: the open session to join and record.
      """)
  var session: String?
  @Option(
    name: .customLong("param"),
    help: "A transition parameter NAME=VALUE (VALUE is JSON, or else a string); repeatable.")
  var params: [String] = []
  @Option(help: transitionBoundsHelp) var bounds: String?
  @OptionGroup var drag: PanOptions
  @OptionGroup var other: TapSwipeOptions
  @Option(name: [.short, .long], help: "The trace file to write.") var output: String
  @Option(
    parsing: .unconditional,
    help: "Seconds of animation to wait for the outcome or rest (of waiting, with --session alone)."
  )
  var maxSeconds: Double = 10

  var plan: GesturePlan { GesturePlan(drag: drag, other: other) }

  func validate() throws {
    _ = try transitionBounds(bounds)
    guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= 600 else {
      throw ValidationError(
        "--max-seconds \(JSONValue.number(maxSeconds).jsonText): must be between 0 and 600")
    }
    for param in params where !param.contains("=") {
      throw ValidationError("--param '\(param)' must be NAME=VALUE")
    }
    let gestures = plan.given
    if transition != nil {
      guard scene == nil else {
        throw ValidationError("give either a transition or --scene, not both")
      }
      guard gestures.count == 1 else {
        throw ValidationError("give exactly one of --pan, --samples, --tap, --swipe")
      }
    } else if scene != nil {
      if let option = gestures.first {
        throw ValidationError(
          "\(option) is a transition's gesture: a scene is recorded as it moves by itself")
      }
      if !params.isEmpty { throw ValidationError("--param applies to transitions, not to scenes") }
    } else if session != nil {
      if let option = gestures.first {
        throw ValidationError(
          "\(option) needs a transition: --session NAME alone joins a running session and "
            + "sends it no gestures (send them with `dynctl gesture NAME …`)")
      }
      if !params.isEmpty {
        throw ValidationError(
          "--param applies to a transition being opened: --session NAME alone joins a session "
            + "as it is")
      }
    } else {
      throw ValidationError(
        "give a transition, --scene FILE, or --session NAME (to join a running session)")
    }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let sceneJSON = try scene.map { (text) throws(Failure) in try OpenCommand.sceneObject(text) }
      var client = try connection.connect()
      client.output = Output(json: false, showFrames: false, silent: true)
      let trace = TraceLines()
      client.trace = trace
      let recording: Recording
      if let transition {
        recording = try recordTransition(transition, client)
      } else if let sceneJSON {
        recording = try recordScene(sceneJSON, client)
      } else {
        recording = try RecordJoin(session: session ?? "", maxSeconds: maxSeconds).record(client)
      }
      try writeFile(
        output, ([recording.header.jsonText] + trace.lines).joined(separator: "\n") + "\n")
      Output(json: false).note(
        "recorded \(trace.frames) frames (\(recording.ending)) to \(output)")
      if let failure = recording.failure { throw .checkFailed(failure) }
    }
  }

  private func recordTransition(_ transition: String, _ client: DaemonClient) throws(Failure)
    -> Recording
  {
    // The daemon's parameter tables (hello's `parameters`): the renderer shows the defaults.
    try client.request(Op(HelloRequest()), quietReply: true)
    let name = try openTransition(
      transition, session: session, params: params, bounds: try? transitionBounds(bounds), client,
      clock: .manual)
    // Every parameter as the session took it, defaults and expressions of the bounds worked
    // out (`get`'s `params`): the renderer draws a sheet's detents from them.
    try client.request(Op(GetRequest(session: name)), quietReply: true)
    try client.request(Op(DebugRequest(session: name, enable: true)), quietReply: true)
    let cycle = try plan.follow(name, client, manual: true, maxSeconds: maxSeconds)
    return Recording(
      header: Recording.header(
        source: "transition", transition: .string(transition), session: name),
      ending: cycle.outcome ?? "no outcome",
      failure: cycle.outcome == nil ? "no outcome within \(maxSeconds) s of animation" : nil)
  }

  private func recordScene(_ json: JSONValue, _ client: DaemonClient) throws(Failure) -> Recording {
    let spec: SceneSpec
    do throws(ProtocolError) {
      spec = try SceneSpec(json: json)
    } catch {
      throw .errorReply(code: error.code.rawValue, message: error.message)
    }
    let name = session ?? "scene-\(getpid())"
    try client.request(
      Op(OpenRequest(source: .scene(spec), session: name, clock: .manual)), quietReply: true)
    try client.request(Op(DebugRequest(session: name, enable: true)), quietReply: true)
    // Steps a second at a time (the last one shorter) until the scene is at rest.
    var animated = 0
    let frames = Int((maxSeconds * Limits.defaultFPS).rounded(.up))
    var running = true
    while running, animated < frames {
      let count = min(Int(Limits.defaultFPS), frames - animated)
      if case .step(_, let still) = try client.request(
        Op(StepRequest(session: name, count: count)), quietReply: true)
      {
        running = still
      }
      animated += count
    }
    let b = spec.bounds ?? Rect(x: 0, y: 0, width: 320, height: 568)
    var header = Recording.header(
      source: "scene", transition: .null, session: name,
      bounds: [b.minX, b.minY, b.size.width, b.size.height])
    let file = scene.map { $0 == "-" ? "standard input" : $0.hasPrefix("{") ? "inline" : $0 }
    if case .object(var members) = header {
      members.append(
        JSONMember(name: "scene", value: .string(HTMLRenderer.baseName(file ?? ""))))
      header = .object(members)
    }
    return Recording(
      header: header, ending: running ? "still moving after \(maxSeconds) s" : "at rest",
      failure: nil)
  }
}
