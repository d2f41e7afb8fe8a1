import DynctlCommands
import Foundation
import Glibc
import Synchronization
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

/// What a dynctl run has written so far, standard output and error apart: the console it is
/// given takes the text (a run in progress may be read from another thread).
final class CapturedConsole: Sendable {
  private let written = Mutex((output: "", error: ""))

  /// A console writing here, with `environment` as the variables dynctl reads
  /// (`DYND_SOCKET`, `XDG_RUNTIME_DIR`: none, as `cleanEnvironment()` leaves a process) and
  /// `standardInput` as what `-` reads (empty, as the null device a spawned dynctl had).
  func console(environment: [String: String], standardInput: String) -> Console {
    Console(environment: environment, standardInput: .text(standardInput)) { stream, text in
      self.written.withLock {
        switch stream {
        case .standardOutput: $0.output += text
        case .standardError: $0.error += text
        }
      }
    }
  }

  var output: String { written.withLock { $0.output } }
  var error: String { written.withLock { $0.error } }
}

/// Runs dynctl in this process (`Dynctl.run`, what the binary's `main` runs), its output
/// captured: `environment` holds the variables it reads, none by default.
func runDynctl(
  _ arguments: [String], environment: [String: String] = [:], standardInput: String = ""
) -> RunResult {
  let captured = CapturedConsole()
  let status = Dynctl.run(
    arguments,
    console: captured.console(environment: environment, standardInput: standardInput))
  return RunResult(status: status, output: captured.output, error: captured.error)
}

/// A dynctl command line that streams (`watch`, `record --session`) run in this process on a
/// thread of its own, as `runDynctl` runs one, while the test goes on.
final class BackgroundDynctl: Sendable {
  private let captured = CapturedConsole()
  private let status = Mutex<Int32?>(nil)

  init(_ arguments: [String], environment: [String: String]) {
    let console = captured.console(environment: environment, standardInput: "")
    // A thread, not a task: dynctl blocks on its socket, and the tests' tasks share two
    // threads here.
    let thread = Thread {
      let finished = Dynctl.run(arguments, console: console)
      self.status.withLock { $0 = finished }
    }
    thread.start()
  }

  /// Waits until the run has written its first line (a streaming command says it is ready), or
  /// has ended.
  func waitForFirstLine(timeout: Duration = .seconds(30)) throws {
    let deadline = ContinuousClock.now + timeout
    while !captured.output.contains("\n") && status.withLock({ $0 }) == nil {
      guard ContinuousClock.now < deadline else {
        throw DynctlTestFailure("no line from dynctl within \(timeout)")
      }
      usleep(5_000)
    }
  }

  /// Waits for the run's end: what it wrote and its status.
  func finish(timeout: Duration = .seconds(30)) throws -> RunResult {
    let deadline = ContinuousClock.now + timeout
    while true {
      if let finished = status.withLock({ $0 }) {
        return RunResult(status: finished, output: captured.output, error: captured.error)
      }
      guard ContinuousClock.now < deadline else {
        throw DynctlTestFailure("dynctl did not finish within \(timeout)")
      }
      usleep(5_000)
    }
  }
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

  /// Runs dynctl in this process (`runDynctl`) with `DYND_SOCKET` set to this daemon.
  func dynctl(_ arguments: [String], standardInput: String = "") -> RunResult {
    runDynctl(arguments, environment: ["DYND_SOCKET": socket], standardInput: standardInput)
  }

  /// Runs the built dynctl binary with `DYND_SOCKET` set to this daemon: for what only the
  /// process shows.
  func dynctlBinary(_ arguments: [String]) throws -> RunResult {
    try runProgram(
      try Binaries.path("dynctl"), arguments,
      environment: cleanEnvironment(["DYND_SOCKET": socket]), in: directory)
  }
}

/// The test's environment without anything that would choose a socket, or the width of dynctl's
/// help (`COLUMNS`: a spawned dynctl wraps at 80 columns, as `runDynctl` does).
func cleanEnvironment(_ extra: [String: String] = [:]) -> [String: String] {
  var environment = ProcessInfo.processInfo.environment
  for name in ["DYND_SOCKET", "XDG_RUNTIME_DIR", "LISTEN_PID", "LISTEN_FDS", "COLUMNS"] {
    environment[name] = nil
  }
  return environment.merging(extra) { $1 }
}
