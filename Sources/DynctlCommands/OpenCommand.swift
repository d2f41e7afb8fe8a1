import ArgumentParser
import Glibc
import JSON
import Wire

struct OpenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "open",
    abstract: "Open a session: a named transition, or a scene from a JSON file.",
    discussion: """
      Examples:
        dynctl open lock-screen --session L --clock manual
        dynctl open lock-screen --param gravity=2
        dynctl open sheet --bounds 412x915
        dynctl open --scene examples/scenes/drop.json --session drop --clock manual

      The session is kept (keep: true) so that later dynctl commands can reach it; close it with \
      `dynctl close`. Prints the session's name and its items.
      """ + "\n\n"
        + ExitStatus.help(
          ExitStatus.errorReply + ", or the scene is not valid JSON",
          "66 the scene file cannot be read"))

  @OptionGroup var connection: ConnectionOptions
  @Argument(help: "The transition to open (see `dynctl hello`).") var transition: String?
  @Option(help: "A scene object: a JSON file, `-` for standard input, or inline JSON.")
  var scene: String?
  @Option(help: "The session's name (default: the daemon assigns one).") var session: String?
  @Option(help: "Clock: realtime (frames streamed at --fps) or manual (moves only on step).")
  var clock: String?
  @Option(parsing: .unconditional, help: "Frames per second.") var fps: Double?
  @Option(
    name: .customLong("param"),
    help: "A transition parameter NAME=VALUE (VALUE is JSON, or else a string); repeatable.")
  var params: [String] = []
  @Option(help: transitionBoundsHelp) var bounds: String?
  @Flag(
    inversion: .prefixedNo,
    help: "Reduce motion: after a release, show where the motion ends (default: the daemon's).")
  var reduceMotion: Bool?

  func validate() throws {
    guard (transition == nil) != (scene == nil) else {
      throw ValidationError("give either a transition name or --scene, not both or neither")
    }
    if let clock, clock != "realtime", clock != "manual" {
      throw ValidationError("--clock '\(clock)': must be realtime or manual")
    }
    for param in params where !param.contains("=") {
      throw ValidationError("--param '\(param)' must be NAME=VALUE")
    }
    if scene != nil, !params.isEmpty {
      throw ValidationError("--param applies to transitions, not to scenes")
    }
    if scene != nil, bounds != nil {
      throw ValidationError("--bounds applies to transitions; a scene gives its own bounds")
    }
    _ = try transitionBounds(bounds)
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      let sceneJSON = try scene.map { (text) throws(Failure) in try Self.sceneObject(text) }
      let client = try connection.connect()
      // What the daemon would refuse in the scene or the params is refused here, as it would
      // have been (they cannot be typed otherwise), once connected as before.
      let source: OpenRequest.Source
      if let sceneJSON {
        do throws(ProtocolError) {
          source = .scene(try SceneSpec(json: sceneJSON))
        } catch {
          throw .errorReply(code: error.code.rawValue, message: error.message)
        }
      } else {
        source = .transition(name: transition ?? "", params: try transitionParams(params))
      }
      let open = OpenRequest(
        source: source, session: session, clock: clock.flatMap(Clock.init) ?? .realtime,
        fps: fps?.asSent ?? Limits.defaultFPS, keep: true, bounds: try? transitionBounds(bounds),
        reduceMotion: reduceMotion)
      try client.request(Op(open))
    }
  }

  /// The scene JSON from a file, standard input (`-`) or the argument itself (`{…}`).
  static func sceneObject(_ argument: String) throws(Failure) -> JSONValue {
    let inline = argument.hasPrefix("{")
    let text = inline ? argument : try readFile(argument)
    do {
      return try JSONParser().parse(text)
    } catch {
      throw .invalidInput(
        path: inline ? "--scene" : argument, reason: ProtocolError(error).description)
    }
  }
}
