import Wire

/// The loop's turns for connections whose buffered requests outlast one slice.
///
/// A connection handles its buffered lines for at most `Connection.Limits.inputSlice` at a time
/// (at least one line). If lines are left, it stops reading and joins the back of this queue.
/// The queue is served in order from a zero-delay timer, and each firing serves connections for
/// at most `Limits.requestSlice` (at least one) before it lets libevent poll the sockets again:
/// a connection that became readable meanwhile is served then, before the queue goes on. So a
/// connection that pipelines thousands of costly requests, or 200 that each pipeline a few,
/// delay another's `hello` by about one slice, never by all of their requests.
///
/// One per loop, shared by its connections (`EventLoop.inputTurns`); it lives as long as one of
/// them does. It holds the waiting connections weakly: a connection keeps itself alive while
/// open.
final class InputTurns {
  private var waiting: [WeakConnection] = []
  /// The first entry of `waiting` not yet served.
  private var head = 0
  private var timer: OneShotTimer?

  init(loop: EventLoop) {
    timer = OneShotTimer(loop: loop) { [unowned self] _ in self.serve() }
  }

  /// Queues `connection` at the back, for a slice once those ahead of it have had theirs.
  func enqueue(_ connection: Connection) {
    waiting.append(WeakConnection(connection: connection))
    if let timer, !timer.isScheduled { timer.schedule(after: .zero) }
  }

  /// Gives connections at the front one slice each, for at most `Limits.requestSlice` in all;
  /// those that queue again (lines still left) go to the back.
  private func serve() {
    let start = MonotonicClock.now()
    while head < waiting.count {
      let entry = waiting[head]
      head += 1
      guard let connection = entry.connection else { continue }
      connection.takeTurn()
      if MonotonicClock.now() - start >= Limits.requestSlice { break }
    }
    if head == waiting.count {
      waiting.removeAll(keepingCapacity: true)
      head = 0
    } else if head > waiting.count / 2 {
      waiting.removeFirst(head)
      head = 0
    }
    if let timer, head < waiting.count, !timer.isScheduled { timer.schedule(after: .zero) }
  }
}

private struct WeakConnection {
  weak var connection: Connection?
}

extension EventLoop {
  /// The turns shared by this loop's connections, created with the first of them.
  var inputTurns: InputTurns {
    if let turns = sharedInputTurns { return turns }
    let turns = InputTurns(loop: self)
    sharedInputTurns = turns
    return turns
  }
}
