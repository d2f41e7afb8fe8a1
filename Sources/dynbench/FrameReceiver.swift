import CEpoll
import Glibc
import Wire

/// Reads the realtime frames of many sessions on many connections (one `epoll(7)` loop, so that
/// a wake-up costs the same with a thousand connections as with one) and notes when each
/// arrives.
///
/// Sessions are named `b0`, `b1`, …; a frame's lateness is judged from its `t`, the session's
/// animator time, not from its `seq`. Realtime ticks sit on an absolute grid of `period`, and a
/// tick that comes late advances the animator by the whole periods that passed (at most 4: a
/// session left further behind stays late), so a frame is due on the grid point its `t` names.
/// Its tick is `t` in periods, rounded (`t` is written to the millisecond, the grid is exact),
/// and `arrival − tick·period` is the same for every frame of a session that is on time.
/// `SessionLoadResult.collect` takes the smallest such offset of a session as on time and judges
/// every frame against it; grid ticks between a session's first and last frame that brought no
/// frame (coalesced for a slow reader, or missed by a late tick) count as missing.
///
/// Each socket that epoll reports readable is read in turn, its arrival time taken just before
/// its read; a frame is recognised by its head alone (`MessageHead`, which reads `t` too), so
/// that receiving thousands of frames a second costs little next to what the daemon does.
/// Frames of the session named `heavy` are read (so the daemon never coalesces them) and
/// counted, not judged.
final class FrameReceiver {
  let period: UInt64
  private let sockets: [LineSocket]
  /// The epoll instance; each socket is registered with its index as data.
  private let epoll: Int32
  private var ready: [epoll_event]
  /// Per session, `arrival − tick·period` in ns of each frame received while recording.
  private(set) var offsets: [[Int64]]
  /// Per session, the arrival in ns of each frame received while recording.
  private(set) var arrivals: [[Int64]]
  /// Per session, the grid tick (`t` in periods) of its first and last recorded frame.
  private(set) var firstTick: [Int64]
  private(set) var lastTick: [Int64]
  /// Frames of the `heavy` session received while recording.
  private(set) var heavyFrames = 0
  private(set) var pauses = 0
  private(set) var closed = 0
  private var recording = false

  init(sockets: [LineSocket], sessions: Int, period: UInt64) throws(BenchError) {
    self.sockets = sockets
    self.period = period
    offsets = Array(repeating: [], count: sessions)
    arrivals = Array(repeating: [], count: sessions)
    firstTick = Array(repeating: 0, count: sessions)
    lastTick = Array(repeating: 0, count: sessions)
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
    guard recording, event == EventName.frame.rawValue, let name = head.session else { return }
    if name == "heavy" {
      heavyFrames += 1
      return
    }
    guard let t = head.t, name.first == "b", let session = Int(name.dropFirst()),
      offsets.indices.contains(session)
    else { return }
    let tick = Int64((t * 1e9 / Double(period)).rounded())
    if offsets[session].isEmpty { firstTick[session] = tick }
    lastTick[session] = tick
    offsets[session].append(arrival - tick * Int64(period))
    arrivals[session].append(arrival)
  }

  /// Frames of the `b*` sessions received while recording.
  var received: Int { offsets.reduce(0) { $0 + $1.count } }
}
