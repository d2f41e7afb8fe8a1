import CEpoll
import Glibc
import Wire

/// Reads the realtime frames of many sessions on many connections (one `epoll(7)` loop, so that
/// a wake-up costs the same with a thousand connections as with one) and notes when each
/// arrives.
///
/// Sessions are named `b0`, `b1`, …; a frame's lateness is judged from its `seq`: a realtime
/// session's frame n is due n periods after its clock started, so `arrival − n·period` is the
/// same for every frame that is on time. The smallest such offset seen for a session is taken as
/// on time, and every frame is late by how much its offset exceeds that one. A frame that never
/// arrives (a gap in `seq`: coalesced or skipped) counts as late too.
///
/// Each socket that epoll reports readable is read in turn, its arrival time taken just before
/// its read; a frame is recognised by its head alone (`MessageHead`), so that receiving
/// thousands of frames a second costs little next to what the daemon does.
final class FrameReceiver {
  let period: UInt64
  private let sockets: [LineSocket]
  /// The epoll instance; each socket is registered with its index as data.
  private let epoll: Int32
  private var ready: [epoll_event]
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
    epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    guard epoll >= 0 else { throw BenchError("epoll_create1 failed: errno \(errno)") }
    ready = Array(repeating: epoll_event(), count: 256)
    for (index, socket) in sockets.enumerated() {
      socket.setNonBlocking()
      var event = epoll_event()
      event.events = EPOLLIN.rawValue
      event.data.u32 = UInt32(index)
      guard epoll_ctl(epoll, Int32(EPOLL_CTL_ADD), socket.fd, &event) == 0 else {
        throw BenchError("epoll_ctl failed: errno \(errno)")
      }
    }
  }

  deinit { close(epoll) }

  /// Receives for `nanoseconds`, keeping offsets only when `record` is true.
  func receive(for nanoseconds: UInt64, record: Bool) {
    recording = record
    let deadline = monotonicNanoseconds() + nanoseconds
    while true {
      let now = monotonicNanoseconds()
      guard now < deadline else { return }
      let wait = Int32(clamping: (deadline - now + 999_999) / 1_000_000)
      let count = epoll_wait(epoll, &ready, Int32(ready.count), wait)
      if count < 0 && errno != EINTR { return }
      guard count > 0 else { continue }
      for slot in 0..<Int(count) { readable(Int(ready[slot].data.u32)) }
    }
  }

  private func readable(_ index: Int) {
    let arrival = Int64(monotonicNanoseconds())
    if !sockets[index].readAvailable({ line in self.handle(line, arrival: arrival) }) {
      closed += 1
      var unused = epoll_event()
      _ = epoll_ctl(epoll, Int32(EPOLL_CTL_DEL), sockets[index].fd, &unused)
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
