import Daemon
import Glibc
import Testing

@Suite("SocketActivation")
struct TransportSocketActivationTests {
  let pid = getpid()

  @Test("LISTEN_PID and LISTEN_FDS are parsed as sd_listen_fds does")
  func parser() throws {
    func parse(_ environment: [String: String]) throws -> Range<Int32>? {
      try SocketActivation.passedDescriptors(environment: environment, processID: pid)
    }
    #expect(try parse([:]) == nil)
    #expect(try parse(["LISTEN_FDS": "1"]) == nil, "no LISTEN_PID: not activated")
    #expect(
      try parse(["LISTEN_PID": "\(pid + 1)", "LISTEN_FDS": "1"]) == nil, "meant for another process"
    )
    #expect(try parse(["LISTEN_PID": "\(pid)"]) == nil)
    #expect(try parse(["LISTEN_PID": "\(pid)", "LISTEN_FDS": "0"]) == nil)
    #expect(try parse(["LISTEN_PID": "\(pid)", "LISTEN_FDS": "1"]) == 3..<4)
    #expect(try parse(["LISTEN_PID": "\(pid)", "LISTEN_FDS": "3"]) == 3..<6)
    #expect(throws: TransportError.self) { try parse(["LISTEN_PID": "abc", "LISTEN_FDS": "1"]) }
    #expect(throws: TransportError.self) {
      try parse(["LISTEN_PID": "\(pid)", "LISTEN_FDS": "-1"])
    }
    #expect(throws: TransportError.self) { try parse(["LISTEN_PID": "\(pid)", "LISTEN_FDS": "x"]) }
  }

  @Test("a listening Unix stream socket is taken, made close-on-exec and non-blocking")
  func takesListeningSocket() throws {
    let root = try makeTemporaryDirectory()
    defer { removeTemporaryDirectory(root) }
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    #expect(try withSocketAddress(root + "/s") { bind(fd, $0, $1) } == 0)
    #expect(listen(fd, 4) == 0)
    let taken = try SocketActivation.listeningSocket(
      environment: ["LISTEN_PID": "\(pid)", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "dynd.socket"],
      processID: pid, firstDescriptor: fd, unsetEnvironment: false)
    #expect(taken == fd)
    #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
    #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
  }

  @Test("sockets of the wrong kind are refused with a clear message")
  func refusesWrongSockets() throws {
    func check(_ fd: Int32) throws(TransportError) {
      _ = try SocketActivation.listeningSocket(
        environment: ["LISTEN_PID": "\(pid)", "LISTEN_FDS": "1"], processID: pid,
        firstDescriptor: fd, unsetEnvironment: false)
    }
    var pair: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
    defer {
      close(pair[0])
      close(pair[1])
    }
    #expect(throws: TransportError(.activation, "the socket passed by systemd is not listening")) {
      try check(pair[0])
    }

    let datagram = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    defer { close(datagram) }
    let error = try #require(throws: TransportError.self) { try check(datagram) }
    #expect(error.message.contains("not a stream socket"))

    let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(tcp) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(tcp, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    #expect(bound == 0)
    #expect(listen(tcp, 4) == 0)
    #expect(
      throws: TransportError(
        .activation, "the socket passed by systemd is not a Unix domain socket (AF_UNIX)")
    ) { try check(tcp) }

    let file = open("/dev/null", O_RDONLY)
    defer { close(file) }
    let notSocket = try #require(throws: TransportError.self) { try check(file) }
    #expect(notSocket.message.contains("is not a socket"))
  }

  @Test("more than one socket is refused")
  func refusesSeveral() throws {
    // Two adjacent descriptors far above anything the test process uses.
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    let first = fcntl(fd, F_DUPFD, 900)
    #expect(first >= 900)
    #expect(fcntl(first + 1, F_GETFD) == -1, "the next descriptor is free")
    #expect(dup2(fd, first + 1) == first + 1)
    defer {
      close(first)
      close(first + 1)
    }
    let error = try #require(throws: TransportError.self) {
      try SocketActivation.listeningSocket(
        environment: ["LISTEN_PID": "\(pid)", "LISTEN_FDS": "2"], processID: pid,
        firstDescriptor: first, unsetEnvironment: false)
    }
    #expect(error.message.contains("passed 2 sockets"))
    #expect(fcntl(first, F_GETFD) & FD_CLOEXEC != 0, "every passed descriptor gets FD_CLOEXEC")
    #expect(fcntl(first + 1, F_GETFD) & FD_CLOEXEC != 0)
  }

  @Test("the LISTEN_* variables are unset afterwards, whatever the outcome")
  func unsetsEnvironment() throws {
    setenv("LISTEN_PID", "\(pid + 1)", 1)
    setenv("LISTEN_FDS", "1", 1)
    setenv("LISTEN_FDNAMES", "dynd.socket", 1)
    #expect(SocketActivation.processEnvironment()["LISTEN_FDS"] == "1")
    #expect(try SocketActivation.listeningSocket() == nil, "meant for another process")
    #expect(SocketActivation.processEnvironment().isEmpty)
  }
}
