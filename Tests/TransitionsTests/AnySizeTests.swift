import Dynamics
import Primitives
import Testing

@testable import Transitions

/// Every transition at a phone's, the seeds' and a desktop's size: laid out in its bounds, driven
/// by the same gestures placed relative to them, it reaches the same outcome where the same
/// geometry says it should (issue 37, "every transition at any size").
@Suite("Transitions at any size")
struct AnySizeTests {
  static let sizes = [
    Rect(x: 0, y: 0, width: 320, height: 568),  // the seeds' iPhone 5
    Rect(x: 0, y: 0, width: 412, height: 915),  // a phone
    Rect(x: 0, y: 0, width: 1920, height: 1080),  // a desktop
    Rect(x: 100, y: -50, width: 1024, height: 768),  // an origin away from (0, 0)
  ]

  /// The point at fractions (u, v) of `b`.
  func at(_ b: Rect, _ u: Double, _ v: Double) -> Point {
    Point(x: b.minX + u * b.size.width, y: b.minY + v * b.size.height)
  }

  @Test("lock-screen fills the bounds and a flick up opens it", arguments: sizes)
  func lockScreen(b: Rect) throws {
    let d = try Driver(LockScreen.self, bounds: b)
    let screen = d.item("screen")
    #expect(screen.size == b.size && screen.center == b.center)
    d.pan(
      from: at(b, 0.5, 0.9), to: at(b, 0.5, 0.7), duration: 0.2, release: Vector(dx: 0, dy: -2000))
    #expect(d.runUntilDone() == ["opened"])
    #expect(screen.frame.maxY < b.minY)
  }

  @Test("sidebar-menu opens to its width from the bounds' left edge", arguments: sizes)
  func sidebarMenu(b: Rect) throws {
    let d = try Driver(SidebarMenu.self, bounds: b)
    let menu = d.item("menu")
    #expect(menu.frame.maxX == b.minX)
    #expect(d.swipe(.right))
    #expect(d.runUntilDone() == ["opened"])
    #expect(abs(menu.frame.maxX - (b.minX + 150)) < 2, "\(menu.frame)")
  }

  @Test(
    "sheet: detents of the bounds' height, a flick to large, a slow drag to medium",
    arguments: sizes)
  func sheet(b: Rect) throws {
    let d = try Driver(Sheet.self, bounds: b)
    let sheet = d.item("sheet")
    #expect(sheet.frame.minY == b.maxY - 88, "collapsed shows 88 pt")
    d.pan(
      from: Point(x: b.center.x, y: b.maxY - 44), to: at(b, 0.5, 0.6), duration: 0.2,
      release: Vector(dx: 0, dy: -3000))
    #expect(d.runUntilDone() == ["large"])
    #expect(abs(sheet.frame.minY - (b.minY + 20)) < 0.01, "large shows the height less 20 pt")
    d.pan(
      from: Point(x: b.center.x, y: b.minY + 40), to: Point(x: b.center.x, y: b.center.y + 30),
      duration: 0.5, release: .zero)
    #expect(d.runUntilDone() == ["medium"])
    #expect(abs(sheet.frame.minY - b.center.y) < 0.01, "medium shows half the height")
  }

  @Test("fling: a card at the center coasts on a flick and stops", arguments: sizes)
  func fling(b: Rect) throws {
    let d = try Driver(Fling.self, bounds: b)
    let card = d.item("card")
    #expect(card.center == b.center)
    d.pan(from: b.center, to: at(b, 0.55, 0.5), duration: 0.1, release: Vector(dx: 400, dy: 0))
    #expect(d.runUntilDone() == ["stopped"])
    #expect(card.center.x > b.center.x + 150)
  }

  @Test("pip-corners: a flick toward the top left lands in that corner", arguments: sizes)
  func pipCorners(b: Rect) throws {
    let d = try Driver(PipCorners.self, bounds: b)
    let window = d.item("window")
    #expect(window.center == Point(x: b.maxX - 28 - 80, y: b.maxY - 28 - 45))
    d.pan(
      from: window.center, to: window.center + Vector(dx: -30, dy: -30), duration: 0.1,
      release: Vector(dx: -3000, dy: -3000 * b.size.height / b.size.width))
    #expect(d.runUntilDone() == ["top_left"])
    #expect((window.center - Point(x: b.minX + 28 + 80, y: b.minY + 28 + 45)).length < 1)
  }

  @Test("snap: the label rests where the tap was", arguments: sizes)
  func snap(b: Rect) throws {
    let d = try Driver(SnapTransition.self, bounds: b)
    #expect(d.item("label").center.x == b.center.x)
    d.tap(at: at(b, 0.25, 0.75))
    #expect(d.runUntilDone() == ["snapped"])
    #expect((d.item("label").center - at(b, 0.25, 0.75)).length <= 0.5)
  }

  @Test("heavy: the label falls to the bounds' floor", arguments: sizes)
  func heavy(b: Rect) throws {
    let d = try Driver(HeavyTransition.self, bounds: b)
    #expect(d.runUntilDone() == ["landed"])
    #expect(abs(d.item("label").center.y - (b.maxY - 17)) <= 0.5)
  }

  @Test(
    "drag: the brick, placed as in the seed, is dragged, dropped, and stays in", arguments: sizes)
  func drag(b: Rect) throws {
    let d = try Driver(DragTransition.self, bounds: b)
    let brick = d.item("brick")
    #expect(brick.center == at(b, 0.5, 407.5 / 568))
    d.pan(
      from: brick.center, to: at(b, 0.4, 0.5), duration: 0.3, release: Vector(dx: 200, dy: -100))
    #expect(d.runUntilDone() == ["dropped"])
    #expect(b.intersects(brick.frame))
  }

  @Test("snake: the chain is laid out in the bounds and comes to rest", arguments: sizes)
  func snake(b: Rect) throws {
    let d = try Driver(SnakeTransition.self, bounds: b)
    let orange = d.item("orange")
    #expect(orange.center == at(b, 0.5, 410.0 / 568))
    #expect(d.item("blue1").center.x == b.center.x - 102)
    d.pan(
      from: orange.center, to: at(b, 0.3, 0.3), duration: 0.5, release: Vector(dx: -300, dy: -200))
    #expect(d.runUntilDone(limit: 60) == ["rested"])
  }

  @Test("toss: a fast flick tosses the photo away, a slow one returns it", arguments: sizes)
  func toss(b: Rect) throws {
    let d = try Driver(Toss.self, bounds: b)
    let photo = d.item("photo")
    d.pan(from: b.center, to: at(b, 0.52, 0.5), duration: 0.1, release: Vector(dx: 40, dy: 0))
    #expect(d.runUntilDone() == ["returned"])
    #expect((photo.center - b.center).length < 1)
    d.pan(from: b.center, to: at(b, 0.6, 0.5), duration: 0.1, release: Vector(dx: 4000, dy: 0))
    #expect(d.runUntilDone() == ["tossed"])
    #expect(!b.intersects(photo.frame))
  }

  @Test("notification-center: pulled down from the top edge, it opens", arguments: sizes)
  func notificationCenter(b: Rect) throws {
    let d = try Driver(NotificationCenterSheet.self, bounds: b)
    let sheet = d.item("sheet")
    #expect(sheet.frame.maxY == b.minY)
    d.pan(
      from: Point(x: b.center.x, y: b.minY + 10), to: at(b, 0.5, 0.6), duration: 0.3,
      release: Vector(dx: 0, dy: 1000))
    #expect(d.runUntilDone() == ["opened"])
    #expect(abs(sheet.frame.maxY - (b.maxY + 1)) < 2)
  }

  @Test("wave-pop: a fast pan right pops the list", arguments: sizes)
  func wavePop(b: Rect) throws {
    let d = try Driver(WavePop.self, bounds: b)
    let y = b.minY + 64 + 4.5 * 50
    d.pan(
      from: Point(x: b.minX + 5, y: y), to: Point(x: b.minX + 0.4 * b.size.width, y: y),
      duration: 0.3, release: Vector(dx: 1500, dy: 0))
    #expect(d.runUntilDone() == ["popped"])
  }

  @Test("springy-list: rows dragged down settle one row height apart, in order", arguments: sizes)
  func springyList(b: Rect) throws {
    let d = try Driver(SpringyList.self, bounds: b)
    #expect(d.t.items.allSatisfy { $0.center.x == b.center.x && $0.size.width == b.size.width })
    d.pan(
      from: Point(x: b.center.x, y: b.minY + 100), to: Point(x: b.center.x, y: b.minY + 220),
      duration: 0.3, release: Vector(dx: 0, dy: 300))
    #expect(d.runUntilDone(limit: 60) == ["settled"])
    let ys = d.t.items.map(\.center.y)
    for (a, b) in zip(ys, ys.dropFirst()) { #expect(abs(b - a - 44) < 1, "\(ys)") }
  }

  @Test("parameters of the bounds resolve in them; a default beyond a small range is held in it")
  func parameters() throws {
    let phone = Size(width: 412, height: 915)
    let values = try ParameterValues([:], declared: Sheet.parameters, in: phone)
    #expect(values.number("medium_detent") == 457.5)
    #expect(values.number("large_detent") == 895)
    #expect(throws: TransitionError.self) {
      try ParameterValues(["large_detent": .number(900)], declared: Sheet.parameters)
    }
    #expect(throws: Never.self) {
      try ParameterValues(["large_detent": .number(900)], declared: Sheet.parameters, in: phone)
    }
    // In 100 × 100 bounds pip's window_width range is 10 … 20 and its default is held at 20.
    let watch = try ParameterValues(
      [:], declared: PipCorners.parameters, in: Size(width: 100, height: 100))
    #expect(watch.number("window_width") == 20)
    #expect(watch.number("window_height") == 10)
    // Every declaration's expressions read, and give finite values at the corners of the sides.
    for type in TransitionRegistry.all {
      for p in type.parameters {
        guard let relative = p.relative else { continue }
        for extent in [relative.defaultValue, relative.minimum, relative.maximum]
        where extent.text != nil {
          #expect(
            extent.expression != nil, "\(type.name).\(p.name): '\(extent.text!)' does not read")
        }
        for w in [100.0, 10_000] {
          for h in [100.0, 10_000] {
            let resolved = p.resolved(in: Size(width: w, height: h))
            guard case .number(let range) = resolved.kind,
              case .number(let value) = resolved.defaultValue
            else { continue }
            #expect(range.lowerBound.isFinite && range.upperBound.isFinite && range.contains(value))
          }
        }
      }
    }
  }
}
