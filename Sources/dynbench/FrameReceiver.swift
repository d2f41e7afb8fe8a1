import CLibevent
import Glibc

/// Reads the realtime frames of many sessions on many connections (one epoll thread) and notes
/// when each arrives.
///
/// Sessions are named `b0`, `b1`, …; a frame's lateness is judged from its `seq`: a realtime
/// session's frame n is due n periods after its clock started, so `arrival − n·period` is the
/// same for every frame that is on time. The smallest such offset seen for a session is taken as
/// on time, and every frame is late by how much its offset exceeds that one. A frame that never
/// arrives (a gap in `seq`: coalesced or skipped) counts as late too.
final class FrameReceiver {
  let period: UInt64
  private let sockets: [LineSocket]
  /// libevent's loop (epoll), which Glibc's Swift module does not expose directly.
  private let base: OpaquePointer
  private var events: [OpaquePointer] = []
  private let indexByFD: [Int32: Int]
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
    indexByFD = Dictionary(uniqueKeysWithValues: sockets.enumerated().map { ($1.fd, $0) })
    offsets = Array(repeating: [], count: sessions)
    firstSeq = Array(repeating: 0, count: sessions)
    lastSeq = Array(repeating: 0, count: sessions)
    guard let base = event_base_new() else { throw BenchError("event_base_new failed") }
    self.base = base
    let context = Unmanaged.passUnretained(self).toOpaque()
    for socket in sockets {
      socket.setNonBlocking()
      let event = event_new(
        base, socket.fd, Int16(EV_READ | EV_PERSIST),
        { fd, _, context in
          Unmanaged<FrameReceiver>.fromOpaque(context!).takeUnretainedValue().readable(fd)
        }, context)
      guard let event, event_add(event, nil) == 0 else { throw BenchError("event_add failed") }
      events.append(event)
    }
  }

  deinit {
    for event in events { event_free(event) }
    event_base_free(base)
  }

  /// Receives for `nanoseconds`, keeping offsets only when `record` is true.
  func receive(for nanoseconds: UInt64, record: Bool) {
    recording = record
    var timeout = timeval(
      tv_sec: Int(nanoseconds / 1_000_000_000), tv_usec: Int(nanoseconds % 1_000_000_000 / 1000))
    event_base_loopexit(base, &timeout)
    event_base_dispatch(base)
  }

  private func readable(_ fd: Int32) {
    guard let index = indexByFD[fd] else { return }
    let arrival = Int64(monotonicNanoseconds())
    if !sockets[index].readAvailable({ line in self.handle(line, arrival: arrival) }) {
      closed += 1
      event_del(events[index])
    }
  }

  private func handle(_ line: UnsafeRawBufferPointer, arrival: Int64) {
    if line.starts(with: #"{"ev":"pause""#.utf8) { pauses += 1 }
    guard recording, line.starts(with: #"{"ev":"frame","session":"b"#.utf8) else { return }
    var cursor = 26
    let session = Int(number(line, &cursor))
    guard line[cursor...].starts(with: #"","seq":"#.utf8), session < offsets.count else { return }
    cursor += 8
    let seq = number(line, &cursor)
    if offsets[session].isEmpty { firstSeq[session] = seq }
    lastSeq[session] = seq
    offsets[session].append(arrival - Int64(seq * period))
  }

  /// The decimal digits at `cursor`, which moves past them.
  private func number(_ line: UnsafeRawBufferPointer, _ cursor: inout Int) -> UInt64 {
    var value: UInt64 = 0
    while cursor < line.count, line[cursor] >= 0x30, line[cursor] <= 0x39 {
      value = value * 10 + UInt64(line[cursor] - 0x30)
      cursor += 1
    }
    return value
  }
}
