import Daemon
import Glibc
import Testing

@Suite("SignalHandling")
struct TransportSignalHandlingTests {
  @Test("a watched signal runs the closure on the loop")
  func signalOnLoop() throws {
    let received = Shared<[Int32]>([])
    let loop = try LoopThread { loop in
      let handler = SignalHandler(loop: loop, signals: [SIGUSR2]) { number in
        received.update { $0.append(number) }
      }
      #expect(handler.signals == [SIGUSR2])
      return handler
    }
    #expect(kill(getpid(), SIGUSR2) == 0)
    #expect(received.wait { $0 == [SIGUSR2] })
    #expect(loop.stop())
  }

  @Test("with SIGPIPE ignored, writing to a vanished peer is EPIPE, not death")
  func sigpipeIgnored() {
    SignalHandling.ignoreSIGPIPE()
    var fds: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
    close(fds[1])
    defer { close(fds[0]) }
    var byte: UInt8 = 0
    #expect(write(fds[0], &byte, 1) == -1)
    #expect(errno == EPIPE)
  }
}
