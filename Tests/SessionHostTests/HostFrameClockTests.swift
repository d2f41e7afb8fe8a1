import EmbeddedHost
import Foundation
import SessionHost
import Testing

/// Realtime frames: the display grid (a late tick advances by the time that passed, at most 4
/// periods, and is counted), and frames that do not depend on how many workers computed them.
@Suite("Host: frame clocks")
struct HostFrameClockTests {
  static let period = Duration.nanoseconds(16_666_667)

  /// A realtime scene of `count` squares bouncing for ever (elasticity 1, no friction), with
  /// `seed` shifting where they start.
  static func bouncing(_ session: String, count: Int, seed: Int) -> String {
    let items = (0..<count).map { i in
      let x = 20 + Double((i + seed) % 6) * 50
      let y = 60 + Double((i * 37 + seed * 11) % 300)
      return #"{"id":"i\#(i)","center":[\#(x),\#(y)],"size":[30,30]}"#
    }
    let ids = (0..<count).map { #""i\#($0)""# }.joined(separator: ",")
    return #"{"op":"open","session":"\#(session)","scene":{"bounds":[320,568],"items":["#
      + items.joined(separator: ",") + #"],"behaviors":[{"type":"gravity","items":[\#(ids)]},"#
      + #"{"type":"collision","items":[\#(ids)],"reference_bounds":true},"#
      + #"{"type":"dynamic_item","items":[\#(ids)],"elasticity":1,"friction":0,"resistance":0}]}}"#
  }

  /// The frames `peer` received, as parsed messages.
  static func frames(_ received: [PeerID: [String]], _ peer: PeerID) throws -> [Message] {
    try (received[peer] ?? []).map(Message.init).filter { $0.event == "frame" }
  }

  @Test("a late tick advances by the periods that passed (at most 4), counted as missed")
  func lateTickCatchesUp() throws {
    let host = EmbeddedHost()
    let peer = host.connect()
    host.send(Self.bouncing("rt", count: 2, seed: 0), from: peer)
    var frames = try Self.frames(host.advance(by: Self.period), peer)
    #expect(frames.map(\.seq) == [1])
    #expect(frames.first?.number("t") == 0.016667)

    // The host's thread was busy for three periods: one frame covers them.
    host.environment.skip(Self.period * 3)
    frames = try Self.frames(host.advance(by: .zero), peer)
    #expect(frames.map(\.seq) == [2], "one frame, not a burst")
    #expect(frames.first?.number("t") == 0.066667, "t is 4 periods: on the grid again")

    // Ten periods late: the frame advances at most 4, the rest is lost (slow motion).
    host.environment.skip(Self.period * 10)
    frames = try Self.frames(host.advance(by: .zero), peer)
    #expect(frames.map(\.seq) == [3])
    #expect(frames.first?.number("t") == 0.133333)

    // On time again: one period per frame.
    frames = try Self.frames(host.advance(by: Self.period * 2), peer)
    #expect(frames.map(\.seq) == [4, 5])
    #expect(frames.map { $0.number("t") } == [0.15, 0.166667])

    let list = try (host.send(#"{"op":"list"}"#, from: peer)[peer] ?? []).map(Message.init)
    let entry = try #require((list.last?.object["sessions"] as? [[String: Any]])?.first)
    #expect((entry["missed_ticks"] as? NSNumber)?.intValue == 2 + 9)
    #expect(host.nonFiniteCount == 0)
  }

  @Test("a session that joins a late clock is owed only the ticks since it joined")
  func joiningALateClock() throws {
    let host = EmbeddedHost()
    let peer = host.connect()
    host.send(Self.bouncing("a", count: 1, seed: 0), from: peer)
    _ = host.advance(by: Self.period * 3)
    host.environment.skip(Self.period * 2)
    host.send(Self.bouncing("b", count: 1, seed: 1), from: peer)
    let frames = try Self.frames(host.advance(by: .zero), peer)
    let t = Dictionary(uniqueKeysWithValues: frames.map { ($0.session!, $0.number("t")!) })
    #expect(t["a"] == 0.083333, "a catches up 2 periods: 5 in all")
    #expect(t["b"] == 0.033333, "b is owed the two periods of the late tick it joined in")
  }

  @Test("each session's frames are the same whether one worker or several computed them")
  func framesDoNotDependOnWorkers() throws {
    func run(workers: StepWorkers?) throws -> [String: [String]] {
      let host = EmbeddedHost(workers: workers)
      let peer = host.connect()
      for index in 0..<12 {
        host.send(Self.bouncing("s\(index)", count: 1 + index % 5 * 6, seed: index), from: peer)
      }
      var bySession: [String: [String]] = [:]
      for _ in 0..<120 {
        for line in host.advance(by: Self.period)[peer] ?? [] {
          let message = try Message(line)
          guard message.event == "frame", let session = message.session else { continue }
          bySession[session, default: []].append(line)
        }
      }
      return bySession
    }
    let one = try run(workers: nil)
    let three = try run(workers: StepWorkers(threads: 3))
    #expect(one.count == 12)
    #expect(one.values.allSatisfy { $0.count == 120 })
    for (session, frames) in one {
      #expect(three[session] == frames, "session \(session)")
    }
  }
}
