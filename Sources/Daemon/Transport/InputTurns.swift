import Wire

/// The loop's turns for connections whose buffered requests outlast one slice.
///
/// A connection handles its buffered lines for at most `Connection.Limits.requestSlice` at a time
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
  /// Connections waiting for a turn: `fresh` ones (not served since they became readable: the
  /// loop had spent its slice on others' read callbacks) before `busy` ones (they used a whole
  /// slice and have lines left). A client that sends a request now and then is served ahead of
  /// those that pipeline, so it waits for one request of theirs, not for one of each.
  private var fresh = WaitingLine()
  private var busy = WaitingLine()
  private var timer: OneShotTimer?
  /// Time connections spent on lines straight from their read callbacks since the queue was
  /// last served. When many connections become readable at once (200 clients pipelining at
  /// the same moment), libevent calls all their read callbacks in one turn of the loop: past
  /// one slice of such work, the rest wait for turns in the queue instead.
  private var directTime: Duration = .zero

  init(loop: EventLoop) {
    timer = OneShotTimer(loop: loop) { [unowned self] _ in self.serve() }
  }

  /// Queues `connection` for a slice: after the fresh ones if it is `fresh` (it has not been
  /// served since it became readable), else at the back.
  func enqueue(_ connection: Connection, fresh isFresh: Bool) {
    if isFresh { fresh.append(connection) } else { busy.append(connection) }
    if let timer, !timer.isScheduled { timer.schedule(after: .zero) }
  }

  /// Whether a connection that became readable may deliver its lines now, from its read
  /// callback, rather than wait for a turn.
  var mayServeDirectly: Bool { directTime < Limits.requestSlice }

  /// A connection delivered lines from its read callback for `time`.
  func servedDirectly(for time: Duration) {
    directTime += time
    if let timer, !mayServeDirectly, !timer.isScheduled { timer.schedule(after: .zero) }
  }

  /// Gives connections at the front one slice each, fresh ones first, for at most
  /// `Limits.requestSlice` in all; those that queue again (lines still left) go to the back.
  private func serve() {
    directTime = .zero
    let start = MonotonicClock.now()
    while let connection = fresh.next() ?? busy.next() {
      connection.takeTurn()
      if MonotonicClock.now() - start >= Limits.requestSlice { break }
    }
    if let timer, !(fresh.isEmpty && busy.isEmpty), !timer.isScheduled {
      timer.schedule(after: .zero)
    }
  }
}

/// Connections in the order they queued.
private struct WaitingLine {
  private var waiting: [WeakConnection] = []
  /// The first entry not yet served.
  private var head = 0

  var isEmpty: Bool { head == waiting.count }

  mutating func append(_ connection: Connection) {
    waiting.append(WeakConnection(connection: connection))
  }

  /// The next connection still open, taken off the line.
  mutating func next() -> Connection? {
    while head < waiting.count {
      let entry = waiting[head]
      head += 1
      if head == waiting.count {
        waiting.removeAll(keepingCapacity: true)
        head = 0
      } else if head > 1024, head > waiting.count / 2 {
        waiting.removeFirst(head)
        head = 0
      }
      if let connection = entry.connection { return connection }
    }
    return nil
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
