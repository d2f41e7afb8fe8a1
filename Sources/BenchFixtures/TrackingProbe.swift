import Dynamics
import Primitives
import Transitions

/// Measures how closely a dragged item follows the finger: a straight pan at a constant speed,
/// one `changed` per frame of `hz` (60 by default) and the frame after each, as a client drives
/// a manual session.
/// Shared by the tests (`TrackingTests`) and `dynbench tracking`.
public struct TrackingProbe: Sendable {
  /// A draggable transition: where the pan starts, which way it goes, the dragged item, the
  /// axis it can move along (nil: free) and how far it can be pulled.
  public struct Case: Sendable {
    public let transition: String
    public let start: Point
    public let direction: Vector
    public let item: String
    public let axis: Vector?
    public let reach: Double
  }

  /// Every transition whose source moves the item with the finger.
  public static let cases = [
    Case(
      transition: "lock-screen", start: Point(x: 160, y: 500), direction: Vector(dx: 0, dy: -1),
      item: "screen", axis: Vector(dx: 0, dy: 1), reach: 250),
    Case(
      transition: "notification-center", start: Point(x: 160, y: 10),
      direction: Vector(dx: 0, dy: 1), item: "sheet", axis: Vector(dx: 0, dy: 1), reach: 250),
    Case(
      transition: "sidebar-menu", start: Point(x: -5, y: 300), direction: Vector(dx: 1, dy: 0),
      item: "menu", axis: Vector(dx: 1, dy: 0), reach: 140),
    Case(
      transition: "toss", start: Point(x: 200, y: 300), direction: Vector(dx: 0.6, dy: -0.8),
      item: "photo", axis: nil, reach: 250),
    Case(
      transition: "pip-corners", start: Point(x: 200, y: 480),
      direction: Vector(dx: -0.28, dy: -0.96), item: "window", axis: nil, reach: 250),
  ]

  /// The worst distance (pt) between the finger and the touched point at the end of a frame
  /// over a pan of `c.reach` pt at `speed` pt/s (along the item's axis when it has one).
  public static func worstDistance(_ c: Case, speed: Double, hz: Double = 60) throws -> Double {
    guard let type = TransitionRegistry.type(named: c.transition) else { return .infinity }
    let t = try type.init(
      parameters: try ParameterValues([:], declared: type.parameters),
      bounds: Rect(x: 0, y: 0, width: 320, height: 568))
    guard let item = t.items.first(where: { $0.identifier == c.item }) else { return .infinity }
    _ = t.handle(GestureSample(phase: .began, point: c.start, time: 0), now: 0)
    let offset = (c.start - item.center).rotated(by: -item.angle)
    let frames = max(2, Int((c.reach / speed * hz).rounded(.up)))
    var worst = 0.0
    for i in 1...frames {
      let finger = c.start + c.direction * min(speed * Double(i) / hz, c.reach)
      _ = t.handle(GestureSample(phase: .changed, point: finger, time: Double(i) / hz), now: 0)
      t.animator.step(1 / hz)
      _ = t.afterStep()
      let touched = item.center + offset.rotated(by: item.angle)
      var gap = finger - touched
      if let axis = c.axis { gap = axis * (gap.dx * axis.dx + gap.dy * axis.dy) }
      worst = max(worst, gap.length)
    }
    return worst
  }

  /// drag (seed 000): the worst error (pt) of its rigid stick's length at the end of a frame,
  /// the finger going straight up 200 pt at `speed` pt/s from a point below the brick.
  public static func dragStickError(speed: Double, hz: Double = 60) throws -> Double {
    let t = try DragTransition(
      parameters: try ParameterValues([:], declared: DragTransition.parameters),
      bounds: Rect(x: 0, y: 0, width: 320, height: 568))
    let brick = t.brick
    let start = Point(x: 100, y: 450)
    let attach = Vector(dx: 41, dy: 0.5)
    let length = (brick.center + attach - start).length
    _ = t.handle(GestureSample(phase: .began, point: start, time: 0), now: 0)
    var worst = 0.0
    let frames = max(2, Int((200 / speed * hz).rounded(.up)))
    for i in 1...frames {
      let finger = start + Vector(dx: 0, dy: -1) * min(speed * Double(i) / hz, 200)
      _ = t.handle(GestureSample(phase: .changed, point: finger, time: Double(i) / hz), now: 0)
      t.animator.step(1 / hz)
      _ = t.afterStep()
      let end = brick.center + attach.rotated(by: brick.angle)
      worst = max(worst, abs((end - finger).length - length))
    }
    return worst
  }
}
