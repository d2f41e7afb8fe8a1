import ArgumentParser
import Glibc

/// The latency floor: a thread that accepts one connection on its own Unix socket and writes
/// back every byte it reads (blocking `read` then `write`, nothing else).
///
/// Timed with the same `LineSocket` client as the daemon, it gives the cost of two socket hops
/// and two thread wake-ups on this machine, which no server can beat.
final class EchoServer: @unchecked Sendable {
  let path: String
  private let listener: Int32
  private var thread = pthread_t()
  private let cpu: Int?

  /// Listens on `path`; the echo thread pins itself to `cpu` if given.
  init(path: String, cpu: Int? = nil) throws(BenchError) {
    self.path = path
    self.cpu = cpu
    unlink(path)
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0 else { throw BenchError("socket(): \(errnoText())") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      let bytes = Array(path.utf8.prefix(raw.count - 1))
      raw.copyBytes(from: bytes)
      raw[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(listener, 4) == 0 else {
      throw BenchError("cannot listen on \(path): \(errnoText())")
    }
    let context = Unmanaged.passRetained(self).toOpaque()
    let rc = pthread_create(
      &thread, nil,
      { context in
        let server = Unmanaged<EchoServer>.fromOpaque(context!).takeRetainedValue()
        server.serve()
        return nil
      }, context)
    guard rc == 0 else { throw BenchError("pthread_create: \(String(cString: strerror(rc)))") }
  }

  /// Waits until the client has come and gone.
  func waitForClient() {
    pthread_join(thread, nil)
    close(listener)
    unlink(path)
  }

  /// Closes the listener; the thread ends when its client disconnects.
  func stop() {
    close(listener)
    unlink(path)
    pthread_join(thread, nil)
  }

  private func serve() {
    if let cpu { pin(0, toCPU: cpu) }
    let client = accept(listener, nil, nil)
    guard client >= 0 else { return }
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    buffer.withUnsafeMutableBytes { raw in
      while true {
        let n = read(client, raw.baseAddress!, raw.count)
        if n <= 0 { break }
        var offset = 0
        while offset < n {
          let written = write(client, raw.baseAddress! + offset, n - offset)
          if written <= 0 { break }
          offset += written
        }
      }
    }
    close(client)
  }
}

/// `dynbench echo-server --socket PATH`: the echo floor as a process of its own, so it is
/// scheduled as the dynd child is (a thread of the client's process tends to share its CPU).
struct EchoServerCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "echo-server",
    abstract: "Echo one client's bytes on a Unix socket (the latency floor), until it leaves.",
    shouldDisplay: false)

  @Option(help: "Socket path.")
  var socket: String

  func run() throws {
    let server = try EchoServer(path: socket)
    server.waitForClient()
  }
}
