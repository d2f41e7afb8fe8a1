import Daemon
import Glibc
import Testing

@Suite("Timers")
struct TransportTimerTests {
  @Test("a repeating timer fires N times in N periods, and stopping it stops it")
  func repeatingTimer() throws {
    let period = Duration.milliseconds(20)
    let periods = 10
    let ticksAtCheck = Shared<UInt64?>(nil)
    let ticksLater = Shared<UInt64?>(nil)
    let elapsedAtCheck = Shared<Duration>(.zero)
    let handlerTicks = Shared<[UInt64]>([])
    let loop = try LoopThread { loop in
      let timer = RepeatingTimer(loop: loop, period: period) { timer in
        handlerTicks.update { $0.append(timer.ticks) }
      }
      #expect(!timer.isRunning)
      timer.start()
      timer.start()  // no effect while running
      #expect(timer.isRunning)
      let check = OneShotTimer(loop: loop) { _ in
        ticksAtCheck.set(timer.ticks)
        elapsedAtCheck.set(timer.elapsed)
        timer.stop()
        #expect(!timer.isRunning)
      }
      check.schedule(after: period * periods + period / 2)
      let later = OneShotTimer(loop: loop) { _ in ticksLater.set(timer.ticks) }
      later.schedule(after: period * (periods + 6))
      return (timer, check, later)
    }
    #expect(ticksLater.wait { $0 != nil })
    let ticks = try #require(ticksAtCheck.value)
    #expect(ticks >= UInt64(periods - 1) && ticks <= UInt64(periods + 1), "got \(ticks) ticks")
    #expect(ticksLater.value == ticks, "no tick after stop()")
    // 1, 2, 3, … — a point skips only when the loop was a period late (a loaded machine).
    #expect(handlerTicks.value.first == 1 && handlerTicks.value.last == ticks)
    #expect(zip(handlerTicks.value, handlerTicks.value.dropFirst()).allSatisfy { $0 < $1 })
    #expect(elapsedAtCheck.value >= period * periods)
    #expect(loop.stop())
  }

  @Test("a stalled loop gets one late tick covering the periods that passed, then the grid")
  func lateTickCoversThePeriods() throws {
    let period = Duration.milliseconds(20)
    // (grid point, advance, time since start) of each tick.
    let seen = Shared<[(UInt64, Int, Duration)]>([])
    let loop = try LoopThread { loop in
      let timer = RepeatingTimer(loop: loop, period: period) { timer in
        seen.update { $0.append((timer.ticks, timer.advance, timer.elapsed)) }
        if timer.ticks == 2 { usleep(110_000) }  // the loop is busy for 5.5 periods
        if timer.ticks >= 12 { timer.stop() }
      }
      timer.start()
      return timer
    }
    #expect(seen.wait { ($0.last?.0 ?? 0) >= 12 })
    let ticks = seen.value
    #expect(ticks.first?.0 == 1)
    let late = try #require(ticks.first { $0.1 > 1 }, "the tick after the stall covers several")
    #expect(late.1 >= 4, "after 110 ms of a 20 ms grid: \(late)")
    #expect(ticks.filter { $0.1 > 1 }.count <= 3, "no burst: \(ticks.map(\.1))")
    for (point, advance, elapsed) in ticks {
      #expect(advance >= 1)
      // Each tick fires for a grid point that has passed, and not a period after it (the
      // machine may be loaded: allow 15 ms of lateness).
      #expect(elapsed >= period * Int(point) - .milliseconds(1), "point \(point) at \(elapsed)")
      #expect(elapsed < period * Int(point + 1) + .milliseconds(15), "point \(point) at \(elapsed)")
    }
    #expect(zip(ticks, ticks.dropFirst()).allSatisfy { $1.0 == $0.0 + UInt64($1.1) })
    #expect(loop.stop())
  }

  @Test("restarting a timer resets its tick count")
  func restart() throws {
    let counts = Shared<[UInt64]>([])
    let loop = try LoopThread { loop in
      let timer = RepeatingTimer(loop: loop, period: .milliseconds(5)) { _ in }
      timer.start()
      let restart = OneShotTimer(loop: loop) { _ in
        counts.update { $0.append(timer.ticks) }
        timer.stop()
        timer.start()
        counts.update { $0.append(timer.ticks) }
      }
      restart.schedule(after: .milliseconds(40))
      return (timer, restart)
    }
    #expect(counts.wait { $0.count == 2 })
    #expect(counts.value[0] > 0)
    #expect(counts.value[1] == 0)
    #expect(loop.stop())
  }

  @Test("one-shot timers fire once, can be cancelled, and rescheduling replaces")
  func oneShot() throws {
    let fired = Shared<[String]>([])
    let done = Shared(false)
    let loop = try LoopThread { loop in
      let once = OneShotTimer(loop: loop) { _ in fired.update { $0.append("once") } }
      once.schedule(after: .milliseconds(10))
      let cancelled = OneShotTimer(loop: loop) { _ in fired.update { $0.append("cancelled") } }
      cancelled.schedule(after: .milliseconds(10))
      cancelled.cancel()
      #expect(!cancelled.isScheduled)
      let moved = OneShotTimer(loop: loop) { _ in fired.update { $0.append("moved") } }
      moved.schedule(after: .seconds(10))
      moved.schedule(after: .milliseconds(20))
      #expect(moved.isScheduled)
      let end = OneShotTimer(loop: loop) { _ in
        #expect(!once.isScheduled)
        done.set(true)
      }
      end.schedule(after: .milliseconds(150))
      return (once, cancelled, moved, end)
    }
    #expect(done.wait { $0 })
    #expect(fired.value == ["once", "moved"])
    #expect(loop.stop())
  }

  @Test("a timer may be released from inside its own handler")
  func releaseInsideHandler() throws {
    let fired = Shared(0)
    let loop = try LoopThread { loop in
      final class Owner {
        var timer: RepeatingTimer?
      }
      let owner = Owner()
      owner.timer = RepeatingTimer(loop: loop, period: .milliseconds(5)) { [unowned owner] _ in
        fired.update { $0 += 1 }
        owner.timer = nil  // frees the timer, and its event, from its own callback
      }
      owner.timer?.start()
      return owner
    }
    #expect(fired.wait { $0 == 1 })
    usleep(50_000)  // the scenario: ten periods in which a timer still alive would fire
    #expect(fired.value == 1)
    #expect(loop.stop())
  }
}
