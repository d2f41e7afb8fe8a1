import ArgumentParser
import Glibc
import Wire

/// Every line a connection sent and received, in order: what a trace is made of.
final class Transcript {
  private(set) var lines: [String] = []
  /// The `frame` events among them.
  private(set) var frames = 0

  /// A request, wrapped as `{"sent": …}` so that it cannot be mistaken for a daemon line.
  func sent(_ line: String) { lines.append("{\"sent\":\(line)}") }
  /// A reply or an event, verbatim.
  func received(_ message: Message) {
    lines.append(message.text)
    if message.eventKind == .frame { frames += 1 }
  }
}

struct RecordCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record",
    abstract: "Record a transition's gesture cycle, with its debug geometry, as a trace.",
    discussion: """
      Like `play`, but on the manual clock with the debug stream on, and writes a JSON-lines \
      trace to --output: a header {"trace":1,"transition":…,"session":…,"bounds":[…]}, then every \
      line dynctl sent (as {"sent":{…}}) and every line the daemon wrote, in order — the items \
      with their sizes, each frame followed by its debug geometry, the gesture, the handoff, the \
      contacts and the outcome. `dynctl render` turns traces into HTML or SVG.

      Example: dynctl record lock-screen --pan 160,500:160,380 --duration 0.2 \
      --release-velocity 0,-1400 -o lock.trace.jsonl
      """ + "\n\n"
        + ExitStatus.help(
          "1 no outcome within --max-seconds", ExitStatus.errorReply,
          "73 the trace cannot be written"))

  @OptionGroup var connection: ConnectionOptions
  @OptionGroup var gesture: TransitionGesture
  @Option(name: [.short, .long], help: "The trace file to write.") var output: String
  @Option(parsing: .unconditional, help: "Seconds of animation to wait for the outcome.")
  var maxSeconds: Double = 10

  func validate() throws {
    guard maxSeconds.isFinite, maxSeconds > 0, maxSeconds <= 600 else {
      throw ValidationError(
        "--max-seconds \(JSONValue.number(maxSeconds).jsonText): must be between 0 and 600")
    }
  }

  func run() throws {
    try runReportingFailure { () throws(Failure) in
      var client = try connection.connect()
      client.output = Output(json: false, showFrames: false, silent: true)
      let transcript = Transcript()
      client.transcript = transcript
      let session = try gesture.open(client, clock: .manual)
      try client.request(.debug(session: session, enable: true), quietReply: true)
      let cycle = try gesture.follow(session, client, manual: true, maxSeconds: maxSeconds)
      let header = JSONValue.object([
        JSONMember(name: "trace", value: .number(1)),
        JSONMember(name: "transition", value: .string(gesture.transition)),
        JSONMember(name: "session", value: .string(session)),
        JSONMember(name: "bounds", value: .array([0, 0, 320, 568].map { .number($0) })),
      ])
      try writeFile(output, ([header.jsonText] + transcript.lines).joined(separator: "\n") + "\n")
      let frames = transcript.frames
      let outcome = cycle.outcome ?? "no outcome"
      Output(json: false).note("recorded \(frames) frames (\(outcome)) to \(output)")
      if cycle.outcome == nil {
        throw .checkFailed("no outcome within \(maxSeconds) s of animation")
      }
    }
  }
}

/// Writes `text` to `path` (created or truncated, mode 0644).
func writeFile(_ path: String, _ text: String) throws(Failure) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw .unwritableFile(path: path, reason: String(cString: strerror(errno))) }
  defer { close(fd) }
  var text = text
  let failure: Int32? = text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return nil
  }
  if let failure {
    throw .unwritableFile(path: path, reason: String(cString: strerror(failure)))
  }
}
