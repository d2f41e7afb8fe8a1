import Foundation
import Primitives
import Testing
import TransitionDocuments
import Transitions
import Wire

/// The five built-ins re-expressed as documents (examples/transitions/built-ins) give the
/// frames of their Swift form (issue 37): each driven beside its Swift twin by the same
/// gestures (a slow drag, a flick, a catch in flight, a cancel, and its taps and swipes) at
/// 320×568 and on a 412×915 phone, every item's center within 0.01 pt after every frame, the
/// same `handoff` and the same `done`, in the same frames.
@Suite("Built-ins as documents: the same frames as their Swift form")
struct BuiltInDocumentTests {
  static let sizes: [(Double, Double)] = [(320, 568), (412, 915)]

  /// A Swift transition and its document driven in lockstep.
  final class Twin {
    let swift: Transition
    let document: Transition
    var worst = 0.0
    /// The frame at which the centers first differ by more than 0.01 pt.
    var firstApart: Int?
    var frames = 0
    /// Every event either reported, in order, with the frame it came in.
    var events: [(frame: Int, swift: [TransitionEvent], document: [TransitionEvent])] = []
    let bounds: Rect

    init(_ name: String, _ overrides: [String: ParameterValue] = [:], bounds: Rect) throws {
      let type = try #require(TransitionRegistry.all.first { $0.name == name })
      self.bounds = bounds
      swift = try type.init(
        parameters: ParameterValues(overrides, declared: type.parameters, in: bounds.size),
        bounds: bounds)
      let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
      let file = root.appendingPathComponent("examples/transitions/built-ins/\(name).json")
      let doc = try TransitionDocument.read(text: Array(try Data(contentsOf: file)))
      let values = try ParameterValues(overrides, declared: doc.parameters, in: bounds.size)
      document = try DocumentTransition(
        doc, scene: doc.scene(values, in: bounds), values: values, bounds: bounds)
      func table(_ ps: [TransitionParameter]) -> [String] {
        ps.map { "\($0.name) \($0.defaultValue) \($0.kind) \($0.unit) \($0.source)" }
      }
      #expect(
        table(doc.parameters) == table(type.parameters),
        "\(name): the document declares the Swift form's parameters")
      compare()
    }

    /// A point in the bounds by fractions of its size.
    func at(_ fx: Double, _ fy: Double) -> Point {
      Point(x: bounds.minX + bounds.size.width * fx, y: bounds.minY + bounds.size.height * fy)
    }

    private func record(_ a: [TransitionEvent], _ b: [TransitionEvent]) {
      if !a.isEmpty || !b.isEmpty { events.append((frames, a, b)) }
    }

    func send(_ sample: GestureSample) {
      record(swift.handle(sample, now: 0), document.handle(sample, now: 0))
    }

    func began(_ p: Point, t: Double) {
      send(GestureSample(phase: .began, point: p, time: t))
    }
    func moved(_ p: Point, t: Double) { send(GestureSample(phase: .changed, point: p, time: t)) }
    func ended(_ p: Point, t: Double, v: Vector?) {
      send(GestureSample(phase: .ended, point: p, time: t, velocity: v))
    }
    func cancelled(_ p: Point, t: Double) {
      send(GestureSample(phase: .cancelled, point: p, time: t))
    }

    func tap(_ p: Point) {
      #expect(swift.tap(at: p) == document.tap(at: p), "a tap at \(p) is taken alike")
    }

    func swipe(_ direction: SwipeDirection) {
      #expect(
        swift.swipe(direction, at: nil, velocity: nil)
          == document.swipe(direction, at: nil, velocity: nil))
    }

    /// `count` 60 Hz frames: each steps both, runs their `afterStep` and compares.
    func frame(_ count: Int = 1) {
      for _ in 0..<count {
        swift.animator.step(1.0 / 60)
        document.animator.step(1.0 / 60)
        frames += 1
        record(swift.afterStep(), document.afterStep())
        compare()
      }
    }

    /// Frames until both are at rest and have been for a second, at most `limit`.
    func settle(limit: Int = 900) {
      var quiet = 0
      for _ in 0..<limit where quiet < 60 {
        frame()
        quiet = swift.animator.isRunning || document.animator.isRunning ? 0 : quiet + 1
      }
    }

    /// A straight pan at 60 Hz from `from` to `to` over `duration`, each sample after a frame,
    /// released with `release` (nil: the estimate).
    func pan(from: Point, to: Point, duration: Double, release: Vector?, cancel: Bool = false) {
      let count = max(1, Int((duration * 60).rounded()))
      began(from, t: 0)
      for i in 1...count {
        frame()
        let f = Double(i) / Double(count)
        moved(
          Point(x: from.x + (to.x - from.x) * f, y: from.y + (to.y - from.y) * f),
          t: Double(i) / 60)
      }
      if cancel {
        cancelled(to, t: Double(count) / 60)
      } else {
        ended(to, t: Double(count) / 60, v: release)
      }
    }

    private func compare() {
      #expect(swift.items.count == document.items.count)
      for (a, b) in zip(swift.items, document.items) {
        #expect(a.identifier == b.identifier)
        let d = max(abs(a.center.x - b.center.x), abs(a.center.y - b.center.y))
        worst = max(worst, d.isNaN ? .infinity : d)
        if worst > 0.01, firstApart == nil { firstApart = frames }
      }
    }

    /// The run's verdict: every center within 0.01 pt, the same events in the same frames.
    func check(_ what: String) {
      if ProcessInfo.processInfo.environment["PRINT_DOCUMENT_DIFFERENCES"] != nil {
        print(
          "\(document.openedName) \(Int(bounds.size.width))×\(Int(bounds.size.height)) \(what): "
            + "worst \(worst) pt over \(frames) frames, \(events.count) events")
      }
      #expect(
        worst <= 0.01,
        "\(what): centers differ by \(worst) pt, first at frame \(firstApart ?? -1)")
      for (frame, a, b) in events {
        #expect(a.count == b.count, "\(what), frame \(frame): \(a) vs \(b)")
        for (x, y) in zip(a, b) {
          switch (x, y) {
          case (.done(let o1), .done(let o2)):
            #expect(o1 == o2, "\(what), frame \(frame): done \(o1) vs \(o2)")
          case (.handoff(let h1), .handoff(let h2)):
            #expect(Self.same(h1, h2), "\(what), frame \(frame): \(h1) vs \(h2)")
          default:
            Issue.record("\(what), frame \(frame): \(x) vs \(y)")
          }
        }
      }
    }

    static func same(_ a: Handoff, _ b: Handoff) -> Bool {
      func close(_ p: Point?, _ q: Point?) -> Bool {
        guard let p, let q else { return p == nil && q == nil }
        return abs(p.x - q.x) <= 1e-6 && abs(p.y - q.y) <= 1e-6
      }
      return a.item == b.item && a.gestureVelocity == b.gestureVelocity
        && a.itemVelocity == b.itemVelocity && a.constraints == b.constraints
        && a.velocityError == b.velocityError && a.estimate == b.estimate
        && close(a.projection, b.projection) && a.detent == b.detent && a.spring == b.spring
        && a.decay == b.decay
    }

    var outcomes: [String] {
      events.flatMap(\.swift).compactMap {
        if case .done(let outcome) = $0 { outcome } else { nil }
      }
    }
  }

  static func bounds(_ size: (Double, Double)) -> Rect {
    Rect(x: 0, y: 0, width: size.0, height: size.1)
  }

  @Test("lock-screen", arguments: sizes)
  func lockScreen(width: Double, height: Double) throws {
    let b = Self.bounds((width, height))
    let slow = try Twin("lock-screen", bounds: b)
    slow.pan(from: slow.at(0.5, 0.8), to: slow.at(0.5, 0.55), duration: 1, release: nil)
    slow.settle()
    slow.check("a slow drag")
    #expect(slow.outcomes == ["closed"])

    let flick = try Twin("lock-screen", bounds: b)
    flick.pan(
      from: flick.at(0.5, 0.8), to: flick.at(0.5, 0.7), duration: 0.1,
      release: Vector(dx: 0, dy: -1500))
    flick.settle()
    flick.check("a flick")
    #expect(flick.outcomes == ["opened"])

    let caught = try Twin("lock-screen", bounds: b)
    caught.pan(
      from: caught.at(0.5, 0.8), to: caught.at(0.5, 0.5), duration: 0.3,
      release: Vector(dx: 0, dy: 300))
    caught.frame(12)
    caught.pan(
      from: caught.at(0.5, 0.9), to: caught.at(0.5, 0.6), duration: 0.2,
      release: Vector(dx: 0, dy: -900))
    caught.settle()
    caught.check("a catch in flight")
    #expect(caught.outcomes == ["opened"])

    let cancel = try Twin("lock-screen", bounds: b)
    cancel.pan(
      from: cancel.at(0.5, 0.8), to: cancel.at(0.5, 0.4), duration: 0.3, release: nil,
      cancel: true)
    cancel.settle()
    cancel.tap(cancel.at(0.5, 0.5))
    cancel.tap(Point(x: b.maxX - 5, y: b.maxY - 5))
    cancel.settle()
    cancel.check("a cancel, then taps off and on the grabber")
    #expect(cancel.outcomes == ["closed", "bounced"])
  }

  @Test("sidebar-menu", arguments: sizes)
  func sidebarMenu(width: Double, height: Double) throws {
    let b = Self.bounds((width, height))
    let slow = try Twin("sidebar-menu", bounds: b)
    slow.pan(from: slow.at(0.05, 0.5), to: slow.at(0.3, 0.5), duration: 1, release: nil)
    slow.settle()
    slow.check("a slow drag")

    let flick = try Twin("sidebar-menu", bounds: b)
    flick.pan(
      from: flick.at(0.02, 0.5), to: flick.at(0.15, 0.5), duration: 0.1,
      release: Vector(dx: 1200, dy: 0))
    flick.settle()
    flick.check("a flick")
    #expect(flick.outcomes == ["opened"])

    let caught = try Twin("sidebar-menu", bounds: b)
    caught.swipe(.right)
    caught.frame(10)
    caught.pan(
      from: caught.at(0.1, 0.4), to: caught.at(0.02, 0.4), duration: 0.1,
      release: Vector(dx: -900, dy: 0))
    caught.settle()
    caught.swipe(.right)
    caught.settle()
    caught.swipe(.left)
    caught.settle()
    caught.check("a swipe caught in flight, then swipes")
    #expect(caught.outcomes == ["closed", "opened", "closed"])

    let cancel = try Twin("sidebar-menu", bounds: b)
    cancel.pan(
      from: cancel.at(0.05, 0.5), to: cancel.at(0.35, 0.5), duration: 0.4, release: nil,
      cancel: true)
    cancel.settle()
    cancel.check("a cancel")
    #expect(cancel.outcomes == ["opened"])
  }

  @Test("sheet", arguments: sizes)
  func sheet(width: Double, height: Double) throws {
    let b = Self.bounds((width, height))
    for overrides in [[:], ["stiffness": ParameterValue.number(300)]] {
      let slow = try Twin("sheet", overrides, bounds: b)
      slow.pan(
        from: slow.at(0.5, 0.95), to: Point(x: slow.at(0.5, 0).x, y: b.maxY - 250), duration: 1,
        release: nil)
      slow.settle()
      slow.check("a slow drag, \(overrides)")
      #expect(slow.outcomes.count == 1)

      let flick = try Twin("sheet", overrides, bounds: b)
      flick.pan(
        from: flick.at(0.5, 0.95), to: flick.at(0.5, 0.85), duration: 0.1,
        release: Vector(dx: 0, dy: -2500))
      flick.settle()
      flick.check("a flick, \(overrides)")
      #expect(flick.outcomes == ["large"])

      let caught = try Twin("sheet", overrides, bounds: b)
      caught.pan(
        from: caught.at(0.5, 0.95), to: caught.at(0.5, 0.85), duration: 0.1,
        release: Vector(dx: 0, dy: -2500))
      caught.frame(8)
      let top = caught.swift.items[0].frame.minY + 10
      caught.pan(
        from: Point(x: b.center.x, y: top), to: Point(x: b.center.x, y: top - 200), duration: 0.3,
        release: Vector(dx: 0, dy: -400))
      caught.settle()
      caught.check("a catch in flight, past the top, \(overrides)")

      let cancel = try Twin("sheet", overrides, bounds: b)
      cancel.pan(
        from: cancel.at(0.5, 0.95), to: cancel.at(0.5, 0.6), duration: 0.3, release: nil,
        cancel: true)
      cancel.settle()
      cancel.check("a cancel, \(overrides)")
      #expect(cancel.outcomes == ["collapsed"])
    }
  }

  @Test("fling", arguments: sizes)
  func fling(width: Double, height: Double) throws {
    let b = Self.bounds((width, height))
    for overrides in [[:], ["friction": ParameterValue.number(2)]] {
      let slow = try Twin("fling", overrides, bounds: b)
      slow.pan(from: slow.at(0.5, 0.5), to: slow.at(0.6, 0.55), duration: 1, release: nil)
      slow.settle()
      slow.check("a slow drag, \(overrides)")

      let flick = try Twin("fling", overrides, bounds: b)
      flick.pan(
        from: flick.at(0.5, 0.5), to: flick.at(0.55, 0.45), duration: 0.1,
        release: Vector(dx: 900, dy: -700))
      flick.settle()
      flick.check("a flick, \(overrides)")
      #expect(flick.outcomes == ["stopped"])

      let caught = try Twin("fling", overrides, bounds: b)
      caught.pan(
        from: caught.at(0.5, 0.5), to: caught.at(0.55, 0.45), duration: 0.1,
        release: Vector(dx: 900, dy: -700))
      caught.frame(10)
      let c = caught.swift.items[0].center
      caught.pan(
        from: c, to: Point(x: c.x - 30, y: c.y + 20), duration: 0.2,
        release: Vector(dx: -500, dy: 300))
      caught.settle()
      caught.check("a catch in flight, \(overrides)")
      #expect(caught.outcomes == ["stopped"])

      let cancel = try Twin("fling", overrides, bounds: b)
      cancel.pan(
        from: cancel.at(0.5, 0.5), to: cancel.at(0.4, 0.6), duration: 0.3, release: nil,
        cancel: true)
      cancel.frame(120)
      cancel.check("a cancel, \(overrides)")
    }
  }

  @Test("pip-corners", arguments: sizes)
  func pipCorners(width: Double, height: Double) throws {
    let b = Self.bounds((width, height))
    let start = { (t: Twin) in t.swift.items[0].center }
    let slow = try Twin("pip-corners", bounds: b)
    slow.pan(from: start(slow), to: slow.at(0.3, 0.6), duration: 1, release: nil)
    slow.settle()
    slow.check("a slow drag")
    #expect(slow.outcomes == ["top_left"], "its projection half a second on, past the middle")

    let flick = try Twin("pip-corners", bounds: b)
    flick.pan(
      from: start(flick), to: flick.at(0.6, 0.7), duration: 0.1,
      release: Vector(dx: -1500, dy: -1800))
    flick.settle()
    flick.check("a flick")
    #expect(flick.outcomes == ["top_left"])

    let caught = try Twin("pip-corners", bounds: b)
    caught.pan(
      from: start(caught), to: caught.at(0.6, 0.7), duration: 0.1,
      release: Vector(dx: -1500, dy: -1800))
    caught.frame(6)
    let c = start(caught)
    caught.pan(
      from: c, to: Point(x: c.x + 40, y: c.y), duration: 0.2, release: Vector(dx: 1200, dy: 0))
    caught.settle()
    caught.check("a catch in flight")
    #expect(caught.outcomes.count == 1)

    let cancel = try Twin("pip-corners", bounds: b)
    cancel.pan(
      from: start(cancel), to: cancel.at(0.4, 0.3), duration: 0.4, release: nil, cancel: true)
    cancel.settle()
    cancel.check("a cancel")
    #expect(cancel.outcomes == ["top_left"])
  }
}

/// Sessions of one document share what its effects read (`BehaviorEffect`): each still gets the
/// behavior its own values give.
@Suite("Built-ins as documents: sessions of one document")
struct SharedDocumentTests {
  @Test("two sheets of one document land on their own detents, with their own springs")
  func twoSheets() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let file = root.appendingPathComponent("examples/transitions/built-ins/sheet.json")
    let document = try TransitionDocument.read(text: Array(try Data(contentsOf: file)))
    let bounds = TransitionBounds.standard
    func sheet(_ overrides: [String: ParameterValue]) throws -> DocumentTransition {
      let values = try ParameterValues(overrides, declared: document.parameters, in: bounds.size)
      return try DocumentTransition(
        document, scene: document.scene(values, in: bounds), values: values, bounds: bounds)
    }
    func flick(_ t: DocumentTransition, from: Double, to: Double, vy: Double) -> String? {
      _ = t.handle(GestureSample(phase: .began, point: Point(x: 160, y: from), time: 0), now: 0)
      t.animator.step(1.0 / 60)
      _ = t.handle(
        GestureSample(phase: .changed, point: Point(x: 160, y: to), time: 1.0 / 60), now: 0)
      _ = t.handle(
        GestureSample(
          phase: .ended, point: Point(x: 160, y: to), time: 2.0 / 60,
          velocity: Vector(dx: 0, dy: vy)),
        now: 0)
      for _ in 0..<600 {
        t.animator.step(1.0 / 60)
        for case .done(let outcome) in t.afterStep() { return outcome }
      }
      return nil
    }
    let up = try sheet([:])
    let soft = try sheet(["stiffness": .number(40)])
    #expect(flick(up, from: 540, to: 500, vy: -2500) == "large")
    #expect(abs(up.items[0].center.y - (568 + 284 - 548)) < 0.01)
    #expect(flick(up, from: 320, to: 330, vy: 300) == "medium", "the same session, another detent")
    #expect(abs(up.items[0].center.y - (568 + 284 - 284)) < 0.01)
    #expect(flick(soft, from: 600, to: 560, vy: -20) == "collapsed", "another spring")
    #expect(abs(soft.items[0].center.y - (568 + 284 - 88)) < 0.01)
    #expect(soft.motionInForce?.spring?.parameters.stiffness == 40)
  }
}
