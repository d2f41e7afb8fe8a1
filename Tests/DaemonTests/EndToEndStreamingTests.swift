import Foundation
import Glibc
import Testing

/// Several connections on one daemon: shared sessions, peers that vanish, peers that lag.
@Suite("End to end: streaming to several clients")
struct EndToEndStreamingTests {
  @Test("two connections watching one session get the same frames, byte for byte")
  func twoWatchersSameFrames() throws {
    try withDaemon { daemon in
      let owner = try daemon.connect("owner")
      let viewer = try daemon.connect("viewer")
      // Manual clock: the owner's step frames go to both.
      try owner.expectOK(
        #"{"op":"open","session":"m","clock":"manual","scene":"# + Scenes.endlessFall(items: 4)
          + "}")
      try viewer.expectOK(#"{"op":"watch","session":"m"}"#)
      let stepped = try owner.expectOK(#"{"op":"step","session":"m","count":30}"#)
      let seen = try viewer.read { $0.seq == 30 }
      #expect(stepped.events("frame").count == 30)
      #expect(seen.map(\.text) == stepped.events.map(\.text))

      // Realtime clock: every frame after the watch reaches both, identical.
      try owner.expectOK(
        #"{"op":"open","session":"r","fps":120,"scene":"# + Scenes.endlessFall(items: 4) + "}")
      try viewer.expectOK(#"{"op":"watch","session":"r"}"#)
      let viewed = try viewer.read { $0.seq ?? 0 >= 40 }.filter { $0.event == "frame" }
      let owned = try owner.read { $0.seq ?? 0 >= 40 }.filter { $0.event == "frame" }
      let first = try #require(viewed.first?.seq)
      #expect(viewed.map(\.seq) == Array(first...40).map { Optional($0) })
      #expect(owned.map(\.seq) == Array(1...40).map { Optional($0) })
      #expect(viewed.map(\.text) == owned.suffix(viewed.count).map(\.text))
    }
  }

  @Test("clients vanishing mid-stream or mid-step do not disturb the others")
  func vanishingClients() throws {
    try withDaemon { daemon in
      let survivor = try daemon.connect("survivor")
      try survivor.expectOK(
        #"{"op":"open","session":"keep-going","fps":60,"scene":"#
          + Scenes.endlessFall(items: 2) + "}")
      _ = try survivor.read { $0.seq == 5 }

      // One streams a busy realtime session and leaves with frames unread.
      let streamer = try daemon.connect("streamer")
      try streamer.expectOK(
        #"{"op":"open","session":"stream","fps":240,"scene":"#
          + Scenes.endlessFall(items: 40) + "}")
      _ = try streamer.read { $0.seq == 10 }
      // One watches the survivor's session and leaves.
      let watcher = try daemon.connect("watcher")
      try watcher.expectOK(#"{"op":"watch","session":"keep-going"}"#)
      // One asks for a long manual step and leaves without reading it.
      let stepper = try daemon.connect("stepper")
      try stepper.expectOK(
        #"{"op":"open","session":"stepped","clock":"manual","scene":"#
          + Scenes.endlessFall(items: 40) + "}")
      try stepper.send(#"{"op":"step","session":"stepped","count":20000}"#)
      usleep(100_000)  // the scenario: they leave 100 ms into the step
      streamer.close()
      watcher.close()
      stepper.close()

      // The survivor's frames carry on, none lost, and the daemon still answers.
      let before = try survivor.read { $0.event == "frame" }.last?.seq ?? 0
      let frames = try survivor.read { $0.seq ?? 0 >= before + 30 }.filter { $0.event == "frame" }
      #expect(frames.map(\.seq) == Array(before + 1...before + 30).map { Optional($0) })
      #expect(frames.allSatisfy { $0.dropped == 0 })
      // The leavers' sessions close with them (they were not kept).
      let gone = try eventually {
        let list = try survivor.expectOK(#"{"op":"list"}"#).reply
        let names = (list.object["sessions"] as? [[String: Any]] ?? []).map {
          $0["session"] as? String
        }
        return names == ["keep-going"]
      }
      #expect(gone, "the sessions of vanished clients are still listed")
      try survivor.expectOK(#"{"op":"hello"}"#)
    }
  }

  @Test("a client that stops reading gets coalesced frames; the others keep theirs")
  func slowReader() throws {
    try withDaemon { daemon in try Self.slowReader(daemon) }
  }

  private static func slowReader(_ daemon: TestDaemon) throws {
    let fast = try daemon.connect("fast")
    let slow = try daemon.connect("slow")
    try fast.expectOK(
      #"{"op":"open","session":"busy","fps":240,"scene":"# + Scenes.endlessFall(items: 60)
        + "}")
    try slow.expectOK(#"{"op":"watch","session":"busy"}"#)
    // The slow client reads nothing for two seconds, and on until the fast one, which reads
    // everything, has seen twice the bound on the slow one's backlog go by (a loaded machine
    // makes fewer frames a second; at most 20 s).
    let started = ContinuousClock.now
    var fastFrames: [Message] = []
    func outpaced() -> Bool {
      let seqs = fastFrames.compactMap(\.seq)
      let bytes = fastFrames.last?.text.utf8.count ?? 0
      return ((seqs.last ?? 0) - (seqs.first ?? 0)) * bytes > 2 << 20
    }
    while ContinuousClock.now < started + .seconds(2)
      || (!outpaced() && ContinuousClock.now < started + .seconds(20))
    {
      fastFrames += try fast.read { $0.event == "frame" }
    }
    let seqs = fastFrames.compactMap(\.seq)
    #expect(seqs == Array(seqs[0]...seqs[seqs.count - 1]), "the fast reader lost frames")
    #expect(fastFrames.allSatisfy { $0.dropped == 0 })
    let produced = (seqs.last ?? 0) - (seqs.first ?? 0)
    let frameBytes = fastFrames.last?.text.utf8.count ?? 0

    // What the daemon had queued for the slow client is bounded, far below what it skipped.
    let slowFrames = try slow.read(timeout: .seconds(20)) { $0.dropped > 0 }
      .filter { $0.event == "frame" }
    let backlog = slow.bytesRead
    #expect(backlog < 1 << 20, "\(backlog) bytes were queued for a client that did not read")
    #expect(
      produced * frameBytes > 2 * backlog,
      "the test did not outpace the bound: \(produced) frames of \(frameBytes) bytes")
    // Then it catches up and gets frames again; every gap is accounted for by `dropped`.
    let caughtUp = try slow.read { $0.event == "frame" && $0.dropped == 0 }
    let all = (slowFrames + caughtUp).filter { $0.event == "frame" }
    for (previous, next) in zip(all, all.dropFirst()) {
      let gap = (next.seq ?? 0) - (previous.seq ?? 0)
      #expect(gap == next.dropped + 1, "seq \(previous.seq ?? 0) → \(next.text.prefix(80))")
    }
    let fresh = try fast.read { $0.event == "frame" }.last?.seq ?? 0
    #expect(fresh > seqs.last ?? 0)
  }

  @Test("a manual step to a client that does not read is paused, never dropped")
  func flowControlledStep() throws {
    try withDaemon { daemon in
      let client = try daemon.connect("stepper")
      let other = try daemon.connect("other")
      try client.expectOK(
        #"{"op":"open","session":"m","clock":"manual","scene":"# + Scenes.endlessFall(items: 30)
          + "}")
      try client.send(#"{"op":"step","session":"m","count":1500,"id":"long"}"#)
      // While the stepper does not read (for 500 ms: the scenario), the daemon serves others.
      usleep(500_000)
      try other.expectOK(#"{"op":"list"}"#)
      let messages = try client.read(timeout: .seconds(30)) { $0.isReply }
      let frames = messages.filter { $0.event == "frame" }
      #expect(frames.map(\.seq) == Array(1...1500).map { Optional($0) })
      #expect(frames.allSatisfy { $0.dropped == 0 })
      #expect(messages.last?.id == "long" && messages.last?.ok == true)
    }
  }
}
