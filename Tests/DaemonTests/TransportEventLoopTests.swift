import Daemon
import Dispatch
import Glibc
import Testing

@Suite("EventLoop")
struct TransportEventLoopTests {
  @Test("the loop uses epoll")
  func backend() throws {
    let method = Shared("")
    let loop = try LoopThread { loop in
      method.set(loop.backendMethod)
      return ()
    }
    #expect(method.value == "epoll")
    #expect(loop.stop())
  }

  @Test("performSoon runs later, in order, never inside the caller")
  func performSoon() throws {
    let order = Shared<[Int]>([])
    let loop = try LoopThread { loop in
      loop.performSoon { order.update { $0.append(1) } }
      loop.performSoon {
        order.update { $0.append(2) }
        loop.performSoon { order.update { $0.append(4) } }
        order.update { $0.append(3) }
      }
      order.update { $0.append(0) }
      return ()
    }
    #expect(order.wait { $0.count == 5 })
    #expect(order.value == [0, 1, 2, 3, 4])
    #expect(loop.stop())
  }

  @Test("stop(after:) keeps the loop running for the drain period, then returns")
  func stopAfterDrain() throws {
    let ticksAtStop = Shared<UInt64?>(nil)
    let finalTicks = Shared<UInt64?>(nil)
    let started = ContinuousClock.now
    let loop = try LoopThread { loop in
      final class Box {
        var timer: RepeatingTimer?
      }
      let box = Box()
      let timer = RepeatingTimer(loop: loop, period: .milliseconds(10)) { timer in
        finalTicks.set(timer.ticks)
      }
      box.timer = timer
      timer.start()
      let stopper = OneShotTimer(loop: loop) { _ in
        ticksAtStop.set(timer.ticks)
        loop.stop(after: .milliseconds(100))
      }
      stopper.schedule(after: .milliseconds(50))
      return (box, stopper)
    }
    #expect(loop.waitUntilStopped())
    let elapsed = ContinuousClock.now - started
    #expect(elapsed >= .milliseconds(150))
    let atStop = try #require(ticksAtStop.value)
    let final = try #require(finalTicks.value)
    #expect(final >= atStop + 5, "timers keep firing while draining (\(atStop) → \(final))")
  }

  @Test("a Wakeup runs its handler on the loop thread, fired from any thread")
  func wakeup() throws {
    let runs = Shared(0)
    let trigger = Shared<Wakeup.Trigger?>(nil)
    let loop = try LoopThread { loop in
      let wakeup = try Wakeup(loop: loop) { runs.update { $0 += 1 } }
      trigger.set(wakeup.trigger)
      return wakeup
    }
    let fire = try #require(trigger.value)
    DispatchQueue.global().async { fire.fire() }
    #expect(runs.wait { $0 >= 1 })
    fire.fire()
    fire.fire()
    #expect(runs.wait { $0 >= 2 })
    #expect(loop.stop())
    fire.fire()  // the loop side is gone: harmless
  }
}
