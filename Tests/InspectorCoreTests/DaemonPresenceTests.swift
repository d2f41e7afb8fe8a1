import DaemonSocket
import Logging
import Synchronization
import Testing

@testable import InspectorCore

/// dynd-inspect's log about dynd: one line when it goes away, one when it is back, however many
/// pages try to reach it in between.
struct DaemonPresenceTests {
  /// The log lines (level and message) a presence writes.
  final class Recorded: Sendable {
    let lines = Mutex<[String]>([])
  }

  struct RecordingHandler: LogHandler {
    let recorded: Recorded
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
      recorded.lines.withLock { $0.append("\(event.level) \(event.message)") }
    }
  }

  static func presence() -> (DaemonPresence, Recorded) {
    let recorded = Recorded()
    let logger = Logger(label: "test") { _ in RecordingHandler(recorded: recorded) }
    return (DaemonPresence(logger: logger), recorded)
  }

  @Test func goneAndBackAreLoggedOnceEach() {
    let (presence, recorded) = Self.presence()
    presence.found()
    presence.found()
    #expect(recorded.lines.withLock { $0 }.isEmpty, "dynd answering from the start is no news")
    presence.lost("no dynd at /x: refused")
    presence.lost("no dynd at /x: refused")
    presence.found()
    presence.found()
    presence.lost("no dynd at /x: gone")
    #expect(
      recorded.lines.withLock { $0 } == [
        "warning dynd is gone (no dynd at /x: refused); the pages say so and reconnect when it "
          + "returns",
        "notice dynd is back; the pages reconnect and resume watching",
        "warning dynd is gone (no dynd at /x: gone); the pages say so and reconnect when it "
          + "returns",
      ])
  }

  @Test func aConnectionEndingIsNewsOnlyWhenTheSocketNoLongerAnswers() {
    let (presence, recorded) = Self.presence()
    presence.found()
    presence.connectionEnded(SocketLocation.resolve(flag: "/nonexistent/dynd.sock"))
    let lines = recorded.lines.withLock { $0 }
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("warning dynd is gone (no dynd at /nonexistent/") == true)
  }
}
