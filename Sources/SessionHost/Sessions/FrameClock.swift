/// One timer per frame rate, shared by every realtime session animating at that rate, as a
/// display link is shared by the views of a screen.
///
/// With a timer per session, N animating sessions cost N wake-ups per frame; sharing makes it
/// one. Ticks sit on a grid of absolute deadlines (`HostEnvironment.makeRepeatingTimer`): a
/// tick that comes late covers every period that passed, and each session then advances by
/// the time it is owed (`Session.beginTick`), so animations keep pace with the wall clock
/// instead of falling behind it for good after a stall. Each tick hands its sessions to its
/// owner (`SessionHost.tick`), which computes their frames on the workers as one `TickBatch`.
/// The host adds a session when its animator runs and removes it when it comes to rest or
/// closes, so at rest nothing ticks. A session that joins a running clock
/// gets its first frame at the clock's next tick (within one period).
///
/// The host and the sessions at its rate hold a clock; the host drops it only when no session
/// does, so a clock is never released from inside its own tick.
final class FrameClock {
  private var timer: (any HostTimer)?
  /// What a tick does with the sessions due: `periods` of the grid passed (1 when on time).
  private let onTick: (_ periods: Int, _ sessions: [Session]) -> Void
  /// Members in the order they joined.
  private var sessions: [Session] = []
  private var members: Set<ObjectIdentifier> = []
  /// Members that left during a tick, removed when it ends.
  private var leaving: Set<ObjectIdentifier> = []
  private var ticking = false

  init(
    environment: any HostEnvironment, period: Duration,
    onTick: @escaping (_ periods: Int, _ sessions: [Session]) -> Void
  ) {
    self.onTick = onTick
    timer = environment.makeRepeatingTimer(period: period) { [unowned self] periods in
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

  /// A tick covering `periods` periods of the grid (1 when on time). Sessions removed while
  /// the owner handles it leave when it ends.
  private func tick(_ periods: Int) {
    ticking = true
    onTick(periods, leaving.isEmpty ? sessions : sessions.filter(isStaying))
    ticking = false
    if !leaving.isEmpty {
      sessions.removeAll { leaving.contains(ObjectIdentifier($0)) }
      members.subtract(leaving)
      leaving = []
    }
    if sessions.isEmpty { timer?.stop() }
  }

  private func isStaying(_ session: Session) -> Bool {
    !leaving.contains(ObjectIdentifier(session))
  }
}
