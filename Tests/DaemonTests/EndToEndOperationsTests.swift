import Daemon
import Foundation
import Glibc
import Testing

/// The `dynd` process under an operator's conditions: a low open-file limit, stray signals,
/// socket activation without `--systemd`.
@Suite("End to end: operations")
struct EndToEndOperationsTests {
  @Test("the soft open-file limit is raised to the hard limit at start, and logged")
  func raisesOpenFileLimit() throws {
    var limit = rlimit()
    #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
    let hard = limit.rlim_max
    try #require(hard > 300, "the hard limit (\(hard)) leaves no room to test a raise")
    let expected = ResourceLimits.targetSoftLimit(
      soft: 256, hard: hard,
      systemMaximum: (try? String(contentsOfFile: "/proc/sys/fs/nr_open", encoding: .utf8))
        .flatMap { rlim_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/d.sock"
    let dynd = try SpawnedDynd(
      arguments: ["--socket", socketPath], shellPrefix: "ulimit -Sn 256 &&",
      errorFile: directory + "/stderr")
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let limits = try String(contentsOfFile: "/proc/\(dynd.pid)/limits", encoding: .utf8)
    let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") }
    let fields = line?.split(separator: " ", omittingEmptySubsequences: true) ?? []
    #expect(fields.count >= 5 && fields[3] == "\(expected)", "\(line ?? "no line")")
    #expect(
      dynd.standardError.contains("open file limit \(expected) (raised from 256; hard limit"),
      "\(dynd.standardError)")
    kill(dynd.pid, SIGTERM)
    // It failed once in a clean run under load (no exit within 10 s, or a signal): say which.
    let status = dynd.exitStatus()
    #expect(
      status == 0,
      "exit status \(status.map(String.init) ?? "none"), signal \(dynd.signalled.map(String.init) ?? "none"): \(dynd.standardError)"
    )
  }

  @Test(
    "out of descriptors: pending clients get a clean close at once, one warning, one line when it recovers"
  )
  func outOfDescriptors() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/d.sock"
    // dynd has 12 descriptors open when it listens: room for about 12 clients.
    let dynd = try SpawnedDynd(
      arguments: ["--socket", socketPath], shellPrefix: "ulimit -n 24 &&",
      errorFile: directory + "/stderr")
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let listening = openDescriptors(of: dynd.pid)

    var served: [RawClient] = []
    var turnedAway: ReadEnding?
    for _ in 0..<40 {
      let client = try RawClient(path: socketPath, timeout: .seconds(5))
      client.write(#"{"op":"hello"}"# + "\n")
      let (line, ending) = client.readLine()
      if line != nil {
        served.append(client)
        continue
      }
      turnedAway = ending
      break
    }
    #expect(turnedAway == .endOfFile, "a client beyond the limit must be closed, not left waiting")
    #expect(
      (5...20).contains(served.count),
      "\(served.count) clients were served; dynd's descriptors: \(descriptors(of: dynd.pid))")

    // More clients while out of descriptors: each is closed within the back-off (at most 1 s).
    for _ in 0..<4 {
      let client = try RawClient(path: socketPath, timeout: .seconds(3))
      let started = ContinuousClock.now
      let (bytes, ending) = client.readToEnd()
      #expect(bytes.isEmpty && ending == .endOfFile, "\(ending)")
      #expect(ContinuousClock.now - started < .milliseconds(2500))
    }
    #expect(dynd.errorLines(containing: "accept failed").count == 1, "\(dynd.standardError)")
    #expect(dynd.errorLines(containing: "accepting connections again").isEmpty)

    // Descriptors free again, once the daemon has seen the hang-ups (a client that arrives
    // within the accept back-off may still be turned away, so it tries again): the next client
    // is served, and one line closes the episode.
    for client in served { client.close() }
    #expect(
      eventually { openDescriptors(of: dynd.pid) <= listening },
      "dynd still holds the closed clients' descriptors: \(descriptors(of: dynd.pid))")
    var reply: String?
    for _ in 0..<3 where reply == nil {
      let again = try RawClient(path: socketPath, timeout: .seconds(5))
      again.write(#"{"op":"hello"}"# + "\n")
      reply = again.readLine().line
    }
    #expect(reply?.contains(#""ok":true"#) == true)
    let recovered = dynd.errorLines(containing: "accepting connections again")
    #expect(recovered.count == 1, "\(dynd.standardError)")
    #expect(recovered.first?.contains("pending connections were closed unserved") == true)
    #expect(dynd.errorLines(containing: "accept failed").count == 1)
    kill(dynd.pid, SIGTERM)
    #expect(dynd.exitStatus() == 0, "\(dynd.standardError)")
  }

  @Test("signals dynd does not use neither kill nor stop it; SIGTERM still shuts it down")
  func straySignalsAreIgnored() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/d.sock"
    let dynd = try SpawnedDynd(
      arguments: ["--socket", socketPath], errorFile: directory + "/stderr")
    #expect(waitForListener(socketPath), "dynd did not listen: \(dynd.standardError)")
    let client = try RawClient(path: socketPath)
    let signals: [Int32] =
      [
        SIGHUP, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT, SIGXFSZ,
        SIGTTIN, SIGTTOU,
      ] + [__libc_current_sigrtmin(), __libc_current_sigrtmax()]
    for number in signals {
      #expect(kill(dynd.pid, number) == 0)
      client.write(#"{"op":"hello","id":\#(number)}"# + "\n")
      let reply = client.readLine()
      #expect(
        reply.line?.contains(#""id":\#(number)"#) == true,
        "after signal \(number): \(reply.ending.map(\.description) ?? "")")
      #expect(dynd.isRunning, "signal \(number) ended dynd")
      guard dynd.isRunning else { break }
    }
    #expect(fileStatus(socketPath) != nil)
    kill(dynd.pid, SIGTERM)
    #expect(dynd.exitStatus() == 0, "\(dynd.standardError)")
    #expect(fileStatus(socketPath) == nil, "the socket file is still there")
  }

  @Test("a socket passed by socket activation is served without --systemd, and nothing else")
  func activationWithoutFlag() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let socketPath = directory + "/activated.sock"
    let otherPath = directory + "/other.sock"
    let listening = try makeListeningSocket(at: socketPath)
    defer { close(listening) }
    // $DYND_SOCKET is for clients; it must not make dynd bind a second socket.
    let dynd = try SpawnedDynd(
      arguments: [], shellPrefix: "LISTEN_PID=$$ LISTEN_FDS=1",
      environment: ["DYND_SOCKET": otherPath], passing: listening,
      errorFile: directory + "/stderr")
    let client = try RawClient(path: socketPath, timeout: .seconds(10))
    client.write(#"{"op":"hello"}"# + "\n")
    let reply = client.readLine()
    #expect(
      reply.line?.contains(#""server":"dynd""#) == true,
      "\(reply.ending.map(\.description) ?? ""): \(dynd.standardError)")
    #expect(fileStatus(otherPath) == nil, "dynd bound a socket of its own")
    kill(dynd.pid, SIGTERM)
    #expect(dynd.exitStatus() == 0, "\(dynd.standardError)")
    #expect(
      (fileStatus(socketPath)?.st_mode ?? 0) & S_IFMT == S_IFSOCK, "the passed socket is gone")
  }

  @Test("--socket with a passed socket is a usage error")
  func activationWithSocketFlag() throws {
    let directory = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(directory) }
    let listening = try makeListeningSocket(at: directory + "/activated.sock")
    defer { close(listening) }
    let dynd = try SpawnedDynd(
      arguments: ["--socket", directory + "/mine.sock"], shellPrefix: "LISTEN_PID=$$ LISTEN_FDS=1",
      passing: listening, errorFile: directory + "/stderr")
    #expect(dynd.exitStatus() == 64, "\(dynd.standardError)")
    #expect(dynd.standardError.contains("exclude each other"), "\(dynd.standardError)")
    #expect(fileStatus(directory + "/mine.sock") == nil)
  }
}

/// What process `pid` has open, as `fd -> target` lines.
func descriptors(of pid: pid_t) -> String {
  let directory = "/proc/\(pid)/fd"
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  return names.sorted { Int($0) ?? 0 < Int($1) ?? 0 }.map { name in
    let target =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name))
    return "\(name) -> \(target ?? "?")"
  }.joined(separator: ", ")
}

/// How many descriptors process `pid` has open.
func openDescriptors(of pid: pid_t) -> Int {
  ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
}
