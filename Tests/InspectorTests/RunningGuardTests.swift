import DaemonSocket
import Foundation
import Glibc
import Synchronization
import Testing

@testable import Inspector

/// The guard as a running inspector applies it: raw HTTP/1.1 requests on 127.0.0.1, the status
/// of each answer. Refused WebSocket upgrades are answered 400 by the upgrader (403 for plain
/// requests); a granted one 101. No dynd is needed: a refused request never reaches it.
@Suite(.serialized) struct RunningGuardTests {
  /// Runs an inspector on a free port for `body`, which gets its port and token.
  static func withInspector(_ body: (Int, String) throws -> Void) async throws {
    let server = InspectorServer(
      socket: SocketLocation.resolve(flag: "/nonexistent/dynd.sock"), port: 0)
    let address = Mutex<String?>(nil)
    let task = Task { try await server.run { url in address.withLock { $0 = url } } }
    defer { task.cancel() }
    // The server's task runs on the cooperative pool, two threads on this machine, which the
    // other suites' blocking tests can hold for a while in a full `swift test`.
    let deadline = ContinuousClock.now + .seconds(120)
    while address.withLock({ $0 }) == nil {
      guard ContinuousClock.now < deadline else { throw GuardTestFailure("no inspector") }
      try await Task.sleep(for: .milliseconds(20))
    }
    let url = address.withLock { $0 } ?? ""
    let port = Int(url.split(separator: ":")[2].prefix { $0.isNumber }) ?? 0
    try body(port, server.token)
  }

  /// The status code of the answer to `request` (a whole HTTP/1.1 head).
  static func status(port: Int, _ request: String) throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw GuardTestFailure("cannot connect to port \(port)") }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array(request.utf8)
    guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
      throw GuardTestFailure("cannot send")
    }
    var answer = [UInt8](repeating: 0, count: 4096)
    let count = recv(fd, &answer, answer.count, 0)
    guard count > 0 else { throw GuardTestFailure("no answer to \(request.debugDescription)") }
    let statusLine = String(decoding: answer[..<count], as: UTF8.self).prefix { $0 != "\r" }
    guard let code = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
      throw GuardTestFailure("not an HTTP answer: \(statusLine)")
    }
    return code
  }

  /// A WebSocket handshake for /ws with the token and these extra header lines.
  static func upgrade(port: Int, token: String, _ headers: [String]) -> String {
    "GET /ws?token=\(token) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined()
      + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
  }

  @Test func anUpgradeWithAListedProtocolIsStillCheckedForItsOrigin() async throws {
    try await Self.withInspector { port, token in
      let host = "Host: 127.0.0.1:\(port)"
      let foreign = "Origin: http://evil.example"
      for upgrade in ["Upgrade: websocket, foo", "Upgrade: foo, websocket", "Upgrade: WebSocket"] {
        let started = ContinuousClock.now
        let refused = try Self.status(
          port: port,
          Self.upgrade(port: port, token: token, [host, foreign, upgrade, "Connection: Upgrade"]))
        print("\(upgrade) from a foreign origin: \(refused) after \(ContinuousClock.now - started)")
        #expect([400, 403].contains(refused), "\(upgrade)")
      }
      // Sec-WebSocket-* headers without an Upgrade header, and two Origin headers.
      let plain = try Self.status(
        port: port, Self.upgrade(port: port, token: token, [host, foreign]))
      #expect([400, 403, 404].contains(plain) && plain != 101)
      let twoOrigins = try Self.status(
        port: port,
        Self.upgrade(
          port: port, token: token,
          [
            host, "Origin: http://127.0.0.1:\(port)", foreign, "Upgrade: websocket",
            "Connection: Upgrade",
          ]))
      #expect([400, 403].contains(twoOrigins))
      // The page's own origin, and a client that is not a browser (no Origin), are let in
      // (the bridge then fails to reach the missing dynd, after the handshake).
      let own = try Self.status(
        port: port,
        Self.upgrade(
          port: port, token: token,
          [host, "Origin: http://127.0.0.1:\(port)", "Upgrade: websocket", "Connection: Upgrade"]))
      #expect(own == 101)
    }
  }

  @Test func twoHostHeadersAreRefused() async throws {
    try await Self.withInspector { port, token in
      let page = "GET /?token=\(token) HTTP/1.1\r\n"
      let own = "Host: 127.0.0.1:\(port)\r\n"
      #expect(try Self.status(port: port, page + own + "\r\n") == 200)
      for second in ["Host: evil.example\r\n", own, "Host: localhost:\(port)\r\n"] {
        let started = ContinuousClock.now
        let refused = try Self.status(port: port, page + own + second + "\r\n")
        print("a second \(second.dropLast()): \(refused) after \(ContinuousClock.now - started)")
        #expect([400, 403].contains(refused), "\(second)")
      }
      let upgrade = try Self.status(
        port: port,
        Self.upgrade(
          port: port, token: token,
          [
            "Host: 127.0.0.1:\(port)", "Host: evil.example", "Upgrade: websocket",
            "Connection: Upgrade",
          ]))
      #expect([400, 403].contains(upgrade))
    }
  }
}

struct GuardTestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
