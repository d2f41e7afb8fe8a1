import Wire

/// Who a host's peer is: a connection of the daemon, a client of the embedded host in tests.
public struct PeerID: Hashable, Sendable, CustomStringConvertible {
  public let value: UInt64
  public init(_ value: UInt64) { self.value = value }
  public var description: String { "peer \(value)" }
}

/// A message the host sends, with everyone it goes to. The transport encodes it once and hands
/// the bytes to each recipient.
public struct Outgoing: Sendable {
  public enum Message: Sendable {
    case reply(Reply)
    case event(Event)
  }

  /// How a recipient may be spared a message when it does not keep up.
  public enum Delivery: Sendable {
    /// Always sent (replies, and what a request caused for its requester).
    case always
    /// A frame or contact event for a watcher: a slow reader may have it coalesced
    /// (protocol/PROTOCOL.md, “9. Clocks, flow control, coalescing”): frames are counted into the next frame's `dropped`,
    /// contact events into its `dropped_contacts`.
    case coalescible
    /// A `debug` event: sent only if this recipient got the session's frame it belongs to.
    case withFrame
  }

  public struct Recipient: Sendable, Equatable {
    public var peer: PeerID
    public var delivery: Delivery
    public init(_ peer: PeerID, _ delivery: Delivery = .always) {
      self.peer = peer
      self.delivery = delivery
    }
  }

  public var message: Message
  public var recipients: [Recipient]

  public init(_ message: Message, to recipients: [Recipient]) {
    self.message = message
    self.recipients = recipients
  }

  /// `reply` to `peer`.
  public static func reply(_ reply: Reply, to peer: PeerID) -> Outgoing {
    Outgoing(.reply(reply), to: [Recipient(peer)])
  }
}

/// Messages collected while the host handles one entry (a request, a tick, a finished job),
/// in the order they are to be sent.
final class Outbox {
  private(set) var messages: [Outgoing] = []

  func add(_ outgoing: Outgoing) {
    guard !outgoing.recipients.isEmpty else { return }
    messages.append(outgoing)
  }

  func event(_ event: Event, to recipients: [Outgoing.Recipient]) {
    add(Outgoing(.event(event), to: recipients))
  }

  func reply(_ reply: Reply, to peer: PeerID) { add(.reply(reply, to: peer)) }

  /// What was collected; empties the box.
  func take() -> [Outgoing] {
    defer { messages = [] }
    return messages
  }
}
