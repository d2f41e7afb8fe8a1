import EmbeddedHost
import Foundation
import SessionHost
import Testing

/// A test failure with a sentence.
struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// An `EmbeddedHost` whose peers are `HostClient`s with inboxes: every line a peer receives goes
/// to its client's inbox, whoever caused it.
final class HostRig {
  let embedded: EmbeddedHost
  private var clients: [PeerID: HostClient] = [:]

  init(configuration: SessionHost.Configuration = .init()) {
    embedded = EmbeddedHost(configuration: configuration)
  }

  var host: SessionHost { embedded.host }

  /// A new peer.
  func connect(_ name: String = "client", pid: Int32 = 1) -> HostClient {
    let client = HostClient(name: name, peer: embedded.connect(pid: pid), rig: self)
    clients[client.peer] = client
    return client
  }

  /// Files what the peers received into their inboxes.
  func take(_ received: [PeerID: [String]]) {
    for (peer, lines) in received {
      clients[peer]?.inbox += lines
    }
  }

  /// Moves time on by `duration` (realtime frames, the reaper).
  func advance(by duration: Duration) { take(embedded.advance(by: duration)) }

  /// The lines of `text` sent from `client`, every line checked for non-finite numbers at the end.
  func expectFinite(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(embedded.nonFiniteCount == 0, sourceLocation: sourceLocation)
  }

  fileprivate func disconnect(_ client: HostClient) {
    take(embedded.disconnect(client.peer))
    clients[client.peer] = nil
  }
}

/// One peer of a `HostRig`, with the API of the daemon tests' `WireClient`: what would have been
/// read from the socket is read from the inbox; a realtime wait advances the host's clock.
final class HostClient {
  let name: String
  let peer: PeerID
  unowned let rig: HostRig
  /// Lines received and not read yet.
  var inbox: [String] = []
  private(set) var isConnected = true

  init(name: String, peer: PeerID, rig: HostRig) {
    self.name = name
    self.peer = peer
    self.rig = rig
  }

  /// Sends one line (without `\n`).
  func send(_ line: String) { rig.take(rig.embedded.send(line, from: peer)) }

  /// The peer leaves.
  func close() {
    guard isConnected else { return }
    isConnected = false
    rig.disconnect(self)
  }

  func stall() { rig.embedded.stall(peer) }
  func resume() { rig.take(rig.embedded.resume(peer)) }

  /// The next message received, or nil when there is none.
  func readMessage() throws -> Message? {
    guard !inbox.isEmpty else { return nil }
    return try Message(inbox.removeFirst())
  }

  /// Reads messages until one satisfies `predicate`, advancing the clock by `tick` while the
  /// inbox is empty (for at most `limit`); returns all of them, that one last.
  func read(
    tick: Duration = .milliseconds(10), limit: Duration = .seconds(30),
    until predicate: (Message) -> Bool
  ) throws -> [Message] {
    var messages: [Message] = []
    var waited: Duration = .zero
    while true {
      if let message = try readMessage() {
        messages.append(message)
        if predicate(message) { return messages }
        continue
      }
      guard waited < limit else {
        throw TestFailure(
          "\(name): the awaited line never came; last lines: "
            + messages.suffix(3).map(\.text).joined(separator: " | "))
      }
      rig.advance(by: tick)
      waited += tick
    }
  }

  /// Sends a request and reads up to its reply (which must have come at once).
  @discardableResult
  func request(_ line: String) throws -> Exchange {
    send(line)
    var messages: [Message] = []
    while let message = try readMessage() {
      messages.append(message)
      if message.isReply { return Exchange(events: Array(messages.dropLast()), reply: message) }
    }
    throw TestFailure("\(name): no reply to \(line); got \(messages.map(\.text))")
  }

  /// Sends a request that must succeed; returns what it produced.
  @discardableResult
  func expectOK(
    _ line: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Exchange {
    let exchange = try request(line)
    #expect(
      exchange.reply.ok, "\(line) → \(exchange.reply.text)", sourceLocation: sourceLocation)
    return exchange
  }

  /// Sends a request that must fail with `code`.
  @discardableResult
  func expectError(
    _ code: String, _ line: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> Message {
    let exchange = try request(line)
    #expect(
      !exchange.reply.ok && exchange.reply.errorCode == code,
      "\(line) → \(exchange.reply.text)", sourceLocation: sourceLocation)
    #expect(
      exchange.reply.errorMessage?.isEmpty == false, "an error needs a sentence",
      sourceLocation: sourceLocation)
    return exchange.reply
  }
}

/// One line a peer received, parsed with Foundation (independently of the host's codec).
struct Message: CustomStringConvertible, @unchecked Sendable {
  let text: String
  let object: [String: Any]

  init(_ text: String) throws {
    self.text = text
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    else { throw TestFailure("the host sent a line that is not a JSON object: \(text)") }
    self.object = object
  }

  var description: String { text }

  var event: String? { object["ev"] as? String }
  var isReply: Bool { object["ok"] != nil }
  var ok: Bool { object["ok"] as? Bool ?? false }
  var errorCode: String? { (object["error"] as? [String: Any])?["code"] as? String }
  var errorMessage: String? { (object["error"] as? [String: Any])?["message"] as? String }
  var session: String? { object["session"] as? String }

  func string(_ key: String) -> String? { object[key] as? String }
  func number(_ key: String) -> Double? { (object[key] as? NSNumber)?.doubleValue }
  func bool(_ key: String) -> Bool? { object[key] as? Bool }

  /// The request id echoed, as its JSON text or string.
  var id: String? {
    if let text = object["id"] as? String { return text }
    return (object["id"] as? NSNumber).map { "\($0)" }
  }

  var seq: Int? { (object["seq"] as? NSNumber)?.intValue }
  var items: [[String: Any]] { object["items"] as? [[String: Any]] ?? [] }

  /// An item's `[x, y]` field (`center`, `velocity`) from `items`.
  func vector(_ field: String, of item: String) -> [Double]? {
    guard let state = items.first(where: { $0["id"] as? String == item }) else { return nil }
    return (state[field] as? [NSNumber])?.map(\.doubleValue)
  }
}

/// What a request produced: the events received before its reply, and the reply.
struct Exchange {
  var events: [Message]
  var reply: Message

  func events(_ name: String) -> [Message] { events.filter { $0.event == name } }
}

enum Scenes {
  /// A 20×20 box that falls onto the floor of a 200×200 box and comes to rest.
  static let dropOnFloor =
    #"{"bounds":[200,200],"items":[{"id":"a","center":[100,150],"size":[20,20]}],"#
    + #""behaviors":[{"type":"gravity","id":"g","items":["a"]},"#
    + #"{"type":"collision","id":"c","items":["a"],"reference_bounds":true}]}"#

  /// `count` boxes falling forever (gravity, nothing to land on): a session that never rests.
  static func endlessFall(items count: Int) -> String {
    let items = (0..<count).map {
      #"{"id":"i\#($0)","center":[\#(10 + $0 % 30 * 10),10],"# + #""size":[5,5]}"#
    }
    let ids = (0..<count).map { #""i\#($0)""# }
    return #"{"bounds":[320,568],"items":["# + items.joined(separator: ",")
      + #"],"behaviors":[{"type":"gravity","items":["# + ids.joined(separator: ",") + "]}]}"
  }

  /// The repository's root, found from this file's path (Tests/SessionHostTests/…).
  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
}
