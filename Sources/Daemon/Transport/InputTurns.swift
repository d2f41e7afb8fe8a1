/// The loop's turns for connections whose buffered requests outlast one slice.
///
/// A connection handles its buffered lines for at most `Connection.Limits.inputSlice` at a time
/// (at least one line). If lines are left, it stops reading and waits here for its next turn.
/// The connections waiting are served in the order they came, one slice each per round, and a
/// round runs from a zero-delay timer: libevent polls the sockets between two rounds, so a
/// connection that became readable meanwhile is served before the next round. A connection that
/// pipelines thousands of costly requests thus delays another's `hello` by about one slice per
/// busy connection, never by all of its requests.
///
/// One per loop, shared by its connections (`EventLoop.inputTurns`); it lives as long as one of
/// them does. It holds the waiting connections weakly: a connection keeps itself alive while
/// open.
final class InputTurns {
  /// The rounds run so far. A connection served outside a round (its socket was readable, or its
  /// output drained) counts as served in the next round, which moves it to the back instead: one
  /// slice per connection per round.
  private(set) var round: UInt64 = 0
  private var waiting: [WeakConnection] = []
  private var timer: OneShotTimer?

  init(loop: EventLoop) {
    timer = OneShotTimer(loop: loop) { [unowned self] _ in self.runRound() }
  }

  /// Queues `connection` for a slice in the next round.
  func enqueue(_ connection: Connection) {
    waiting.append(WeakConnection(connection: connection))
    if let timer, !timer.isScheduled { timer.schedule(after: .zero) }
  }

  /// Gives every connection waiting when the round starts one slice, in order; those that queue
  /// again (lines still left) wait for the next round, after the sockets have been polled.
  private func runRound() {
    round &+= 1
    let served = waiting
    waiting.removeAll(keepingCapacity: true)
    for entry in served { entry.connection?.takeTurn(round: round) }
    if let timer, !waiting.isEmpty, !timer.isScheduled { timer.schedule(after: .zero) }
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
