import DaemonSocket
import HummingbirdWebSocket
import InspectorCore
import Logging
import NIOCore
import NIOPosix

/// One page connection bridged to one connection of the user's dynd, line for line: each text
/// message the page sends is written to dynd as one line, each line dynd writes is sent to the
/// page as one text message. dynd's rules (one watch per connection, frames coalesced for a
/// connection that reads slowly) thus hold for the page as for any client: the bridge reads
/// from dynd only as fast as the page takes its messages.
enum DaemonBridge {
  /// The largest message a page may send (dynd's own line limit is 1 MiB).
  static let maxMessageBytes = 1 << 20

  static func run(
    socket: SocketLocation, inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter,
    presence: DaemonPresence
  ) async throws {
    let fd: Int32
    switch TrustedSocket.connect(socket) {
    case .success(let connected):
      fd = connected
      presence.found()
    case .failure(let fault):
      presence.lost(fault.sentence)
      try await outbound.close(.unexpectedServerError, reason: fault.shortReason)
      return
    }
    let daemon = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .withConnectedSocket(fd) { channel in
        channel.eventLoop.makeCompletedFuture {
          try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
        }
      }
    try await daemon.executeThenClose { fromDaemon, toDaemon in
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for try await message in inbound.messages(maxSize: maxMessageBytes) {
            guard case .text(let line) = message else { continue }
            var buffer = ByteBuffer(string: line)
            buffer.writeInteger(UInt8(ascii: "\n"))
            try await toDaemon.write(buffer)
          }
        }
        group.addTask {
          var pending = ByteBuffer()
          for try await chunk in fromDaemon {
            var chunk = chunk
            pending.writeBuffer(&chunk)
            while let line = Self.nextLine(&pending) { try await outbound.write(.text(line)) }
            pending.discardReadBytes()
          }
          presence.connectionEnded(socket)
          try await outbound.close(.goingAway, reason: "dynd closed the connection")
        }
        // Whichever side ends first ends the bridge.
        try await group.next()
        group.cancelAll()
      }
    }
  }

  /// The next complete line of `buffer` without its newline, consumed; nil if none is complete.
  static func nextLine(_ buffer: inout ByteBuffer) -> String? {
    guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
      return nil
    }
    let line = buffer.readString(length: newline - buffer.readerIndex) ?? ""
    buffer.moveReaderIndex(forwardBy: 1)
    return line
  }
}

extension ConnectFault {
  /// At most 123 bytes, as a WebSocket close reason must be.
  var shortReason: String {
    switch self {
    case .unreachable: "dynd is not running (or its socket cannot be reached)"
    case .untrusted: "dynd's socket failed the trust checks; see dynd-inspect's output"
    }
  }
}
