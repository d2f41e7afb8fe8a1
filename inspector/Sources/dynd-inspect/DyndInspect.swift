import ArgumentParser
import DaemonSocket
import Glibc
import Inspector
import ReleaseInfo

@main
struct DyndInspect: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "dynd-inspect",
    abstract: "Watch and touch dynd's sessions live in a browser.",
    discussion: """
      Serves a page on 127.0.0.1 (and nothing else) that lists the sessions of your dynd as \
      they open, run, pause and close; shows one live with its debug geometry; lets you drag \
      its items with the mouse or a finger (gestures with their timestamps, so the handoff and \
      the outcome show as they happen); opens transitions with a form for their parameters; \
      edits a scene's behaviors; and records what it shows as a trace for `dynctl render`.

      It prints the address to open, with a random token that every request must carry. Stop \
      it with Ctrl-C.

      Exit status: 0 stopped by SIGINT or SIGTERM; 64 usage; 69 no dynd answers at the socket; \
      71 the server could not start (the port is taken); 77 the socket failed the trust checks.

      Environment: DYND_SOCKET dynd's socket when --socket is not given; XDG_RUNTIME_DIR the \
      per-user runtime directory the default socket is in (when it is an absolute path).

      Files: $XDG_RUNTIME_DIR/dynd/dynd.sock dynd's default socket; /tmp/dynd-$UID/dynd.sock \
      dynd's default socket when XDG_RUNTIME_DIR is not set.
      """,
    version: releaseVersion)

  @Option(help: "dynd's socket (default: $DYND_SOCKET, then the per-user runtime directory).")
  var socket: String?

  @Option(
    parsing: .unconditional,
    help: "The port to listen on at 127.0.0.1; 0 lets the system choose a free one.")
  var port: Int = 0

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("--port \(port): must be between 0 and 65535")
    }
  }

  func run() async throws {
    let location = SocketLocation.resolve(flag: socket)
    switch TrustedSocket.connect(location) {
    case .success(let fd): close(fd)
    case .failure(let fault):
      let hint: String
      if case .unreachable = fault {
        hint = "; start it first (dynd, or make run), or name its socket with --socket"
      } else {
        hint = ""
      }
      printError("dynd-inspect: \(fault.sentence)\(hint)")
      if case .untrusted = fault { throw ExitCode(77) }
      throw ExitCode(69)
    }
    let server = InspectorServer(socket: location, port: port)
    do {
      try await server.run { address in
        writeLine(1, "dynd-inspect: serving the inspector of dynd at \(location.path)")
        writeLine(1, "dynd-inspect: open \(address)")
      }
    } catch {
      printError("dynd-inspect: the server could not run on 127.0.0.1:\(port): \(error)")
      throw ExitCode(71)
    }
  }

  private func printError(_ line: String) { writeLine(2, line) }
}

/// Writes a line to a descriptor at once (stdout may be a pipe a test reads the address from).
func writeLine(_ fd: Int32, _ line: String) {
  var bytes = Array((line + "\n").utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { return }
    offset += written
  }
  bytes.removeAll()
}
