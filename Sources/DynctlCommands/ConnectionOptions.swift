import ArgumentParser
import DaemonSocket
import Glibc
import JSON
import Wire

/// Options every command that talks to the daemon takes.
struct ConnectionOptions: ParsableArguments {
  @Option(help: "Socket path (default: $DYND_SOCKET, then the per-user runtime directory).")
  var socket: String?

  @Flag(name: [.short, .long], help: "Print the daemon's lines as JSON lines, verbatim.")
  var json = false

  @Option(
    parsing: .unconditional,
    help: "Seconds each request may take: sending it and reading up to its reply.")
  var timeout: Double = 10

  func validate() throws {
    guard timeout.isFinite, timeout > 0 else {
      throw ValidationError(
        "--timeout \(JSONValue.number(timeout).jsonText): must be a positive number of seconds")
    }
  }

  /// Connects to the daemon, once the socket's directory (if dynctl chose it) and the daemon's
  /// uid are trusted (`SocketTrust`). The socket's variables are `Console.current`'s.
  func connect() throws(Failure) -> DaemonClient {
    let location = SocketLocation.resolve(
      flag: socket, environment: Console.current.environment)
    if let directory = location.privateDirectory,
      let fault = SocketTrust.directoryFault(directory, userID: getuid())
    {
      throw .untrusted(fault)
    }
    return DaemonClient(
      connection: try DaemonConnection(path: location.path), output: Output(json: json),
      timeout: timeout, trace: nil)
  }
}
