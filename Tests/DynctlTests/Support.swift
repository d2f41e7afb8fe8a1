import Foundation
import Glibc
import Testing

/// The package's built binaries: the directory this test bundle runs from holds them.
enum Binaries {
  static var directory: URL {
    let bundle =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: bundle).deletingLastPathComponent()
  }

  static func path(_ name: String) throws -> String {
    let path = directory.appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw DynctlTestFailure("no \(name) at \(path); run `swift build --build-tests` first")
    }
    return path
  }

  /// The package root (for examples and golden files).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
}

struct DynctlTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// What one program run produced.
struct RunResult {
  let status: Int32
  let output: String
  let error: String
}

/// Runs `executable` with `arguments`, standard output and error to files, killing it after
/// `timeout`.
func runProgram(
  _ executable: String, _ arguments: [String], environment: [String: String],
  in directory: String, timeout: Duration = .seconds(30)
) throws -> RunResult {
  let outPath = directory + "/stdout-\(UUID().uuidString)"
  let errPath = directory + "/stderr-\(UUID().uuidString)"
  _ = FileManager.default.createFile(atPath: outPath, contents: nil)
  _ = FileManager.default.createFile(atPath: errPath, contents: nil)
  defer {
    try? FileManager.default.removeItem(atPath: outPath)
    try? FileManager.default.removeItem(atPath: errPath)
  }
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  process.environment = environment
  process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
  process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
  process.standardInput = FileHandle.nullDevice
  try process.run()
  let deadline = ContinuousClock.now + timeout
  while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
  if process.isRunning {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    throw DynctlTestFailure("\(arguments.joined(separator: " ")) did not finish in \(timeout)")
  }
  return RunResult(
    status: process.terminationStatus,
    output: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
    error: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
}

/// A private dynd on a socket in a fresh temporary directory, stopped with SIGTERM at the end.
final class PrivateDaemon {
  let directory: String
  let socket: String
  private let process = Process()

  init() throws {
    var template = Array("/tmp/dynctl-test.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw DynctlTestFailure("mkdtemp failed") }
    directory = String(cString: made)
    socket = directory + "/d.sock"
    process.executableURL = URL(fileURLWithPath: try Binaries.path("dynd"))
    process.arguments = ["--socket", socket, "--log-level", "error"]
    process.environment = cleanEnvironment()
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(10)
    while access(socket, F_OK) != 0 {
      guard ContinuousClock.now < deadline, process.isRunning else {
        throw DynctlTestFailure("dynd did not create \(socket)")
      }
      usleep(10_000)
    }
  }

  /// Stops the daemon (SIGTERM) and removes the directory; the daemon's exit status.
  @discardableResult
  func stop() -> Int32? {
    if process.isRunning { kill(process.processIdentifier, SIGTERM) }
    let deadline = ContinuousClock.now + .seconds(10)
    while process.isRunning && ContinuousClock.now < deadline { usleep(5_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: directory)
    return process.terminationReason == .exit ? process.terminationStatus : nil
  }

  deinit { stop() }

  /// Runs dynctl with `DYND_SOCKET` set to this daemon.
  func dynctl(_ arguments: [String], timeout: Duration = .seconds(30)) throws -> RunResult {
    try runProgram(
      try Binaries.path("dynctl"), arguments,
      environment: cleanEnvironment(["DYND_SOCKET": socket]), in: directory, timeout: timeout)
  }
}

/// The test's environment without anything that would choose a socket.
func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
  var environment = ProcessInfo.processInfo.environment
  for name in ["DYND_SOCKET", "XDG_RUNTIME_DIR", "LISTEN_PID", "LISTEN_FDS"] {
    environment[name] = nil
  }
  return environment.merging(extra) { $1 }
}
