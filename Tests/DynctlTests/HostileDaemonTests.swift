import Foundation
import Glibc
import Testing

/// dynctl against a stand-in daemon that breaks the protocol (`tools/client_fuzz.py serve`):
/// it exits 76 with a short, clear message by its deadline, in bounded memory, whatever the
/// daemon does. Each case prints its time to fail. The cases of a huge or long line spawn the
/// dynctl binary, whose peak memory is what they measure; the others run dynctl in-process.
@Suite("dynctl: hostile daemons")
struct HostileDaemonTests {
  /// `tools/client_fuzz.py serve SOCKET BEHAVIOR` in a fresh private directory.
  final class Stand: @unchecked Sendable {
    let directory: String
    let socket: String
    private let process = Process()

    init(_ behavior: String, megabytes: Int = 100) throws {
      directory = try Trust.temporaryDirectory("hostile")
      socket = directory + "/d.sock"
      process.executableURL = URL(fileURLWithPath: Trust.python)
      process.arguments = [
        Binaries.packageRoot.appendingPathComponent("tools/client_fuzz.py").path, "serve",
        socket, behavior, "--megabytes", String(megabytes),
      ]
      process.environment = cleanEnvironment()
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let deadline = ContinuousClock.now + .seconds(20)
      while access(socket, F_OK) != 0 {
        guard ContinuousClock.now < deadline, process.isRunning else {
          throw DynctlTestFailure("client_fuzz.py serve \(behavior) did not start")
        }
        usleep(10_000)
      }
    }

    deinit {
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      process.waitUntilExit()
      try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs dynctl on this socket in-process: its result and seconds taken.
    func dynctl(_ arguments: [String]) -> (RunResult, Double) {
      let started = ContinuousClock.now
      let result = runDynctl(["--socket", socket] + arguments)
      let seconds = Self.seconds(ContinuousClock.now - started)
      print(
        "dynctl \(arguments.joined(separator: " ")): exit \(result.status) after "
          + "\(String(format: "%.2f", seconds)) s")
      return (result, seconds)
    }

    static func seconds(_ elapsed: Duration) -> Double {
      Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Runs the dynctl binary on this socket: its result, seconds taken, and peak resident size
    /// in KiB (measured by a Python parent, `RUSAGE_CHILDREN`): the process's memory is what
    /// is measured.
    func dynctlBinary(_ arguments: [String]) throws -> (RunResult, Double, Int) {
      let peakFile = directory + "/peak"
      let measure =
        "import resource, subprocess, sys\n"
        + "done = subprocess.run(sys.argv[2:])\n"
        + "open(sys.argv[1], 'w').write(str(resource.getrusage(resource.RUSAGE_CHILDREN)"
        + ".ru_maxrss))\n"
        + "sys.exit(done.returncode)\n"
      let started = ContinuousClock.now
      let result = try runProgram(
        Trust.python,
        ["-c", measure, peakFile, try Binaries.path("dynctl"), "--socket", socket] + arguments,
        environment: cleanEnvironment(), in: directory, timeout: .seconds(60))
      let seconds = Self.seconds(ContinuousClock.now - started)
      let peak = Int((try? String(contentsOfFile: peakFile, encoding: .utf8)) ?? "") ?? -1
      print(
        "dynctl \(arguments.joined(separator: " ")): exit \(result.status) after "
          + "\(String(format: "%.2f", seconds)) s, peak \(peak / 1024) MiB")
      return (result, seconds, peak)
    }
  }

  @Test("a reply with another id is refused: exit 76, naming both ids")
  func wrongID() throws {
    let stand = try Stand("wrong-id")
    let (result, seconds) = stand.dynctl(["--timeout", "5", "hello"])
    #expect(result.status == 76, "\(result.error)")
    #expect(result.error.contains("the daemon answered request 1 with a reply to request"))
    #expect(result.output.isEmpty, "nothing of the wrong reply is printed as the answer")
    #expect(seconds < 2)
  }

  @Test("a successful reply without the id is refused too")
  func missingID() throws {
    let stand = try Stand("no-id")
    let (result, _) = stand.dynctl(["get", "s"])
    #expect(result.status == 76, "\(result.error)")
    #expect(result.error.contains("the daemon answered request 1 with a reply without id"))
  }

  @Test("a daemon that never reads cannot hold a large request past --timeout")
  func neverReads() throws {
    let stand = try Stand("never-reads")
    // About 1 MB: far more than a Unix socket buffers.
    let ids = (0..<1000).map { "\"item-\($0)-\(String(repeating: "x", count: 240))\"" }
    let items = ids.map { #"{"id":\#($0),"center":[10,10],"size":[4,4]}"# }
    let scene =
      #"{"items":[\#(items.joined(separator: ","))],"behaviors":[{"type":"gravity","items":["#
      + ids.joined(separator: ",") + "]}]}"
    let file = stand.directory + "/big.json"
    try scene.write(toFile: file, atomically: true, encoding: .utf8)
    let (result, seconds) = stand.dynctl(["--timeout", "3", "open", "--scene", file])
    #expect(result.status == 76, "\(result.error)")
    #expect(result.error.contains("did not take the request within 3.0 s"), "\(result.error)")
    #expect(seconds >= 3 && seconds < 4.5, "\(seconds) s")
  }

  @Test("a 100 MB line is refused at the line limit, in bounded memory, with a short message")
  func hugeLine() throws {
    let stand = try Stand("huge-line", megabytes: 100)
    let (result, seconds, peak) = try stand.dynctlBinary(["--timeout", "30", "hello"])
    #expect(result.status == 76, "\(result.error)")
    #expect(result.error.contains("longer than 67108864 bytes"), "\(result.error)")
    #expect(result.error.utf8.count < 400)
    #expect(peak > 0 && peak < 256 * 1024, "peak \(peak) KiB")
    #expect(seconds < 10)
  }

  @Test("an offending line is quoted by its first 200 bytes, escaped, marked as cut")
  func offendingLineQuote() throws {
    let stand = try Stand("bad-line", megabytes: 5)
    let (result, _, peak) = try stand.dynctlBinary(["hello"])
    #expect(result.status == 76, "\(result.error)")
    #expect(result.error.hasPrefix("dynctl: the daemon wrote a line that is not JSON: "))
    #expect(result.error.contains("…(cut: 5242875 bytes)"), "\(result.error)")
    #expect(result.error.utf8.count < 1500, "\(result.error.utf8.count) bytes")
    #expect(!result.error.contains("\u{1B}"), "escape characters are shown escaped")
    #expect(peak > 0 && peak < 128 * 1024, "peak \(peak) KiB")
  }

  @Test("an error reply without id answers a line the daemon could not read")
  func errorWithoutID() throws {
    let stand = try Stand("error-without-id")
    let (result, _) = stand.dynctl(["hello"])
    #expect(result.status == 65, "\(result.error)")
    #expect(result.error == "dynctl: bad_json: not JSON\n")
  }
}
