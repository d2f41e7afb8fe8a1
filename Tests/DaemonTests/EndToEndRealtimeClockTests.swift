import Testing

/// The realtime clock on the daemon's own timer: frames stream until rest, the timer stops, and a
/// change starts it again. What the frames and events hold is checked through the embedded host
/// (`SessionHostTests/HostOpsTests`), where time is advanced by hand; the transcripts replay
/// through the host and, one of them, through this daemon (`TranscriptReplayTests`).
@Suite("End to end: the realtime clock")
struct EndToEndRealtimeClockTests {
  @Test("the daemon's timer streams frames until rest, then stops; a change restarts it")
  func realtimeClock() throws {
    try withDaemon { daemon in
      let client = try daemon.connect()
      try client.expectOK(
        #"{"op":"open","session":"r","fps":120,"scene":"# + Scenes.dropOnFloor + "}")
      let fall = try client.read { $0.event == "pause" }
      let frames = fall.filter { $0.event == "frame" }
      #expect(frames.count > 10)
      #expect(frames.map(\.seq) == Array(1...frames.count).map { Optional($0) })
      // At rest the timer is stopped: nothing arrives until a change.
      #expect(throws: (any Error).self) { try client.readLine(timeout: .milliseconds(300)) }
      let kick = try client.expectOK(
        #"{"op":"add_velocity","session":"r","item":"a","velocity":[0,-300]}"#)
      #expect(kick.events.map(\.event) == ["resume"])
      let again = try client.read { $0.event == "pause" }
      let more = again.filter { $0.event == "frame" }
      #expect(more.first?.seq == frames.count + 1)
    }
  }
}
