import Glibc
import Wire

/// Reads the realtime frames of many sessions on many connections (one `poll(2)` loop) and notes
/// when each arrives.
///
/// Sessions are named `b0`, `b1`, …; a frame's lateness is judged from its `seq`: a realtime
/// session's frame n is due n periods after its clock started, so `arrival − n·period` is the
/// same for every frame that is on time. The smallest such offset seen for a session is taken as
/// on time, and every frame is late by how much its offset exceeds that one. A frame that never
/// arrives (a gap in `seq`: coalesced or skipped) counts as late too.
///
/// Each socket that poll reports readable is read in turn, its arrival time taken just before
/// its read; a frame is recognised by its head alone (`MessageHead`), so that receiving
/// thousands of frames a second costs little next to what the daemon does.
final class FrameReceiver {
  let period: UInt64
  private let sockets: [LineSocket]
  /// One entry per socket; a socket the daemon closed gets fd −1, which poll skips.
  private var polled: [pollfd]
  /// Per session, `arrival − seq·period` in ns of each frame received while recording.
  private(set) var offsets: [[Int64]]
  private(set) var firstSeq: [UInt64]
  private(set) var lastSeq: [UInt64]
  private(set) var pauses = 0
  private(set) var closed = 0
  private var recording = false

  init(sockets: [LineSocket], sessions: Int, period: UInt64) throws(BenchError) {
    self.sockets = sockets
    self.period = period
    offsets = Array(repeating: [], count: sessions)
    firstSeq = Array(repeating: 0, count: sessions)
    lastSeq = Array(repeating: 0, count: sessions)
    polled = sockets.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
    for socket in sockets { socket.setNonBlocking() }
  }

  /// Receives for `nanoseconds`, keeping offsets only when `record` is true.
  func receive(for nanoseconds: UInt64, record: Bool) {
    recording = record
    let deadline = monotonicNanoseconds() + nanoseconds
    while true {
      let now = monotonicNanoseconds()
      guard now < deadline else { return }
      let wait = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
      let ready = poll(&polled, nfds_t(polled.count), wait)
      if ready < 0 && errno != EINTR { return }
      guard ready > 0 else { continue }
      for index in polled.indices where polled[index].revents != 0 {
        polled[index].revents = 0
        readable(index)
      }
    }
  }

  private func readable(_ index: Int) {
    let arrival = Int64(monotonicNanoseconds())
    if !sockets[index].readAvailable({ line in self.handle(line, arrival: arrival) }) {
      closed += 1
      polled[index].fd = -1
    }
  }

  private func handle(_ line: UnsafeRawBufferPointer, arrival: Int64) {
    let head = MessageHead(line)
    guard let event = head.eventName else { return }
    if event == EventName.pause.rawValue { pauses += 1 }
    guard recording, event == EventName.frame.rawValue, let seq = head.seq,
      let name = head.session, name.first == "b", let session = Int(name.dropFirst()),
      offsets.indices.contains(session)
    else { return }
    if offsets[session].isEmpty { firstSeq[session] = seq }
    lastSeq[session] = seq
    offsets[session].append(arrival - Int64(seq * period))
  }
}
