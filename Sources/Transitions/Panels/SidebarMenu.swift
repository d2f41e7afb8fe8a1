import Dynamics
import Primitives

/// A menu sliding in from the left (protocol/PROTOCOL.md, “sidebar-menu”; seed 003, AppCoda:
/// docs/TRANSITIONS.md, “The seeds”).
///
/// Item `menu` has the seed's frame (−`menu_width`, `top`, `menu_width`, bounds height −
/// `tab_bar_height`): 150 × 519 at (−150, 20) in 320 × 568, so like the seed's view it reaches
/// 20 pt below the tab bar's top; item `background` covers the bounds and is in no behavior, so
/// it never moves. A swipe right opens, a swipe left closes: as in the seed's `toggleMenu:`,
/// each toggle removes every behavior and adds gravity along ±x, the boundary `menuBoundary`
/// from (±`menu_width`, `top`) to (±`menu_width`, bounds height − `tab_bar_height`), an
/// instantaneous push of ±`push` UIKit Newtons and elasticity `elasticity`, and sets the
/// background alpha (`open_alpha` open, 0 closed) at that moment, as the seed does; a drag
/// leaves the alpha alone until its release toggles. The menu bounces on the boundary and rests
/// against it: `done` `opened` or `closed`, once per toggle. Beyond the article, a pan that
/// starts on the menu or within `edge_width` of its right edge drags it between its two rest
/// positions; the release velocity is handed over exactly and its sign decides (its position
/// when it is zero), with the same behaviors but no push. The menu slides on a horizontal rail,
/// so it never turns.
public final class SidebarMenu: Transition {
  override public class var name: String { "sidebar-menu" }

  /// What clients may set, in the order they see it.
  struct Parameters: ParameterSet {
    let menuWidth = Parameter(
      "menu_width", 150, from: 20, to: "width", unit: "pt",
      source: "seed 003: #define menuWidth 150.0")
    let top = Parameter(
      "top", 20, 0...200, unit: "pt", source: "seed 003: menu frame origin y 20 (status bar)")
    let tabBarHeight = Parameter(
      "tab_bar_height", 49, 0...200, unit: "pt",
      source: "seed 003: height − tabBar height; UITabBar is 49 pt")
    let gravity = Parameter(
      "gravity", 1, 0...20, unit: "× 1000 pt/s²",
      source: "seed 003: gravityDirection (±1, 0)")
    let push = Parameter(
      "push", 20, 0...1000, unit: "UIKit Newtons",
      source: "seed 003: pushMagnitude ±20, instantaneous")
    let elasticity = Parameter(
      "elasticity", 0.4, 0...1, unit: "", source: "seed 003: menuViewBehavior.elasticity 0.4")
    let openAlpha = Parameter(
      "open_alpha", 0.5, 0...1, unit: "", source: "seed 003: backgroundView.alpha 0.5 when open")
    let edgeWidth = Parameter(
      "edge_width", 44, 0...200, unit: "pt",
      source: "dynd: a 44 pt touch target beyond the menu's right edge starts a drag")
  }

  override public class var parameters: [TransitionParameter] { Parameters.declarations }

  private enum Phase {
    case closed
    case opening
    case opened
    case closing
    case dragging
  }

  public let menu: DynamicItem
  public let background: DynamicItem
  private let p: ParameterReader<Parameters>
  private var phase = Phase.closed
  private var backgroundAlpha = 0.0
  private var drag: AttachmentBehavior?
  /// The grabbed point's x minus the finger's x when the drag began (the finger may be on the
  /// edge strip beyond the menu).
  private var grabDelta = 0.0
  private var material: DynamicItemBehavior

  public required init(parameters: ParameterValues, bounds: Rect) throws {
    p = ParameterReader(parameters)
    let width = p.menuWidth
    let top = p.top
    let height = bounds.size.height - p.tabBarHeight
    // The seed's frame (−menuWidth, 20, menuWidth, height − tab bar height).
    menu = try DynamicItem(
      identifier: "menu",
      center: Point(x: bounds.minX - width / 2, y: bounds.minY + top + height / 2),
      size: Size(width: width, height: height))
    background = try DynamicItem(identifier: "background", center: bounds.center, size: bounds.size)
    material = DynamicItemBehavior(items: [menu])
    try super.init(parameters: parameters, bounds: bounds)
    items = [menu, background]
  }

  override public var values: [(name: String, value: Double)] {
    [("background_alpha", backgroundAlpha)]
  }

  override public func swipe(
    _ direction: SwipeDirection, at point: Point?, velocity: Vector?
  ) -> Bool {
    switch direction {
    case .right: toggle(open: true, push: true)
    case .left: toggle(open: false, push: true)
    case .up, .down: return false
    }
    return true
  }

  /// The seed's `toggleMenu:`, on the rail; `push` false after a drag (the hand gave the speed).
  private func toggle(open: Bool, push: Bool) {
    animator.removeAllBehaviors()
    drag = nil
    let sign = open ? 1.0 : -1.0
    let gravity = GravityBehavior(items: [menu])
    gravity.setAngle(open ? 0 : .pi, magnitude: p.gravity)
    let collision = CollisionBehavior(items: [menu])
    let x = bounds.minX + sign * p.menuWidth
    let top = bounds.minY + p.top
    let bottom = bounds.maxY - p.tabBarHeight
    try! collision.addBoundary(
      identifier: "menuBoundary", from: Point(x: x, y: top), to: Point(x: x, y: bottom))
    var behaviors: [DynamicBehavior] = [rail(), gravity, collision]
    if push {
      let kick = PushBehavior(items: [menu], mode: .instantaneous)
      kick.setAngle(0, magnitude: sign * p.push)
      behaviors.append(kick)
    }
    material = DynamicItemBehavior(items: [menu])
    material.elasticity = p.elasticity
    behaviors.append(material)
    behaviors.forEach(animator.addBehavior)
    backgroundAlpha = open ? p.openAlpha : 0
    phase = open ? .opening : .closing
  }

  /// While dragged, the menu is held between where it rests closed and where it rests open:
  /// boundaries `closedStop` at x = −`menu_width` and `openStop` at x = +`menu_width` (the seed's
  /// two `menuBoundary` positions at once). Without them a finger could pull it past the boundary
  /// the release adds, and it would slide away on the wrong side of it.
  private func stops() -> CollisionBehavior {
    let stops = CollisionBehavior(items: [menu])
    let width = p.menuWidth
    let top = bounds.minY + p.top
    let bottom = bounds.maxY - p.tabBarHeight
    for (id, x) in [("closedStop", bounds.minX - width), ("openStop", bounds.minX + width)] {
      try! stops.addBoundary(identifier: id, from: Point(x: x, y: top), to: Point(x: x, y: bottom))
    }
    return stops
  }

  /// A horizontal rail through the menu's center line: it slides, never turns.
  private func rail() -> AttachmentBehavior {
    try! AttachmentBehavior.sliding(
      item: menu, anchor: Point(x: bounds.center.x, y: menu.center.y), axis: Vector(dx: 1, dy: 0))
  }

  override public func panBegan(at point: Point) {
    let reach = menu.center.x + menu.size.width / 2 + p.edgeWidth
    let withinY = abs(point.y - menu.center.y) <= menu.size.height / 2
    guard withinY, point.x <= reach else { return }
    // Catch it where it is: only the rail, its material, its two stops and the finger's grip
    // remain (no gravity, no push).
    animator.removeAllBehaviors()
    material = DynamicItemBehavior(items: [menu])
    material.elasticity = p.elasticity
    let offset = Vector(dx: min(point.x - menu.center.x, menu.size.width / 2), dy: 0)
    grabDelta = menu.center.x + offset.dx - point.x
    // The grip holds the menu's point on its center line under the finger's x (at the menu's
    // right edge when the finger is on the strip beyond it, `grabDelta` away).
    let grip = try! AttachmentBehavior(
      item: menu, offsetFromCenter: offset, attachedToAnchor: menu.center + offset)
    grip.length = 0
    for b in [rail(), material, stops(), grip] as [DynamicBehavior] { animator.addBehavior(b) }
    drag = grip
    phase = .dragging
  }

  override public func panChanged(at point: Point, velocity: Vector) {
    guard let drag else { return }
    drag.anchorPoint = Point(x: point.x + grabDelta, y: drag.anchorPoint.y)
  }

  override public func panEnded(at point: Point, velocity: Vector) -> [TransitionEvent] {
    guard phase == .dragging else { return [] }
    let open = velocity.dx > 0 || (velocity.dx == 0 && menu.center.x > bounds.minX)
    toggle(open: open, push: false)
    let handoff = handOff(menu, velocity: velocity, via: material)
    return [handoff]
  }

  override public func panCancelled() {
    guard phase == .dragging else { return }
    toggle(open: menu.center.x > bounds.minX, push: false)
  }

  override public func afterStep() -> [TransitionEvent] {
    guard !animator.isRunning else { return [] }
    switch phase {
    case .opening:
      phase = .opened
      return [.done(outcome: "opened")]
    case .closing:
      phase = .closed
      return [.done(outcome: "closed")]
    default:
      break
    }
    return []
  }
}
