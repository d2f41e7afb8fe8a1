/// One timer per frame rate, shared by every realtime session animating at that rate, as a
/// display link is shared by the views of a screen.
///
/// With a timer per session, N animating sessions cost N wake-ups per frame; sharing makes it
/// one. Ticks sit on a grid of absolute deadlines (`HostEnvironment.makeRepeatingTimer`): a
/// tick that comes late covers every period that passed, and each session then advances by
/// the time it is owed (`Session.beginTick`), so animations keep pace with the wall clock
/// instead of falling behind it for good after a stall. Each tick hands the frames of all its
/// sessions to the workers as one `TickBatch`. A session joins when its animator runs and
/// leaves when it comes to rest, so at rest nothing ticks. A session that joins a running clock
/// gets its first frame at the clock's next tick (within one period).
///
/// The host and the sessions at its rate hold a clock; the host drops it only when no session
/// does, so a clock is never released from inside its own tick.
final class FrameClock {
  private var timer: (any HostTimer)?
  private unowned let host: SessionHost
  /// Members in the order they joined.
  private var sessions: [Session] = []
  private var members: Set<ObjectIdentifier> = []
  /// Members that left during a tick, removed when it ends.
  private var leaving: Set<ObjectIdentifier> = []
  private var ticking = false

  init(host: SessionHost, period: Duration) {
    self.host = host
    timer = host.environment.makeRepeatingTimer(period: period) { [unowned self] periods in
      self.tick(periods)
    }
  }

  /// Ticks `session` from the next tick on; starts the timer if it was idle.
  func add(_ session: Session) {
    let id = ObjectIdentifier(session)
    if members.contains(id) {
      leaving.remove(id)
      return
    }
    members.insert(id)
    sessions.append(session)
    session.owedPeriods = 0
    timer?.start()
  }

  /// Stops ticking `session`; stops the timer when no session is left.
  func remove(_ session: Session) {
    let id = ObjectIdentifier(session)
    guard members.contains(id) else { return }
    if ticking {
      leaving.insert(id)
    } else {
      members.remove(id)
      sessions.removeAll { $0 === session }
      if sessions.isEmpty { timer?.stop() }
    }
  }

  /// A tick covering `periods` periods of the grid (1 when on time).
  private func tick(_ periods: Int) {
    ticking = true
    var work: [TickWork] = []
    work.reserveCapacity(sessions.count)
    for session in sessions where leaving.isEmpty || !leaving.contains(ObjectIdentifier(session)) {
      if let job = session.beginTick(periods: periods) { work.append(job) }
    }
    ticking = false
    TickBatch.run(work, host: host)
    host.deliver()  // `slow` and `on_time`
    if !leaving.isEmpty {
      sessions.removeAll { leaving.contains(ObjectIdentifier($0)) }
      members.subtract(leaving)
      leaving = []
    }
    if sessions.isEmpty { timer?.stop() }
  }
}
