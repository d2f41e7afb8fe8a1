import Dynamics
import Primitives
import SceneBuilding
import Wire

/// The scenes of the `sessions` benchmark, described once as wire specs: what dynd is asked to
/// open (`openRequest`) and what the raw cost is measured on (`animator()`) are built from the
/// same `SceneSpec` by the same builder, so the two cannot drift apart.
///
/// Squares in a 320×568 box fall under gravity (1000 pt/s² down) onto the reference bounds,
/// with elasticity 1, friction 0 and resistance 0: they bounce for ever and never come to rest.
struct BouncingScene {
  static let bounds = Rect(x: 0, y: 0, width: 320, height: 568)

  let spec: SceneSpec

  /// The light scene of each `b*` session: `count` 30 pt squares in separate columns.
  static func light(items count: Int) -> BouncingScene {
    var items: [ItemSpec] = []
    for i in 0..<count {
      let x = 20 + Double(i % 6) * 50
      let y = 60 + (Double(i) * 37).truncatingRemainder(dividingBy: 300)
      items.append(
        ItemSpec(id: "i\(i)", center: Point(x: x, y: y), size: Size(width: 30, height: 30)))
    }
    return BouncingScene(items: items)
  }

  /// Side of the heavy scene's squares.
  static let heavySide = 12.0
  /// Closest spacing of the heavy scene's grid: squares start 6 pt apart or more. Denser grids
  /// still make valid scenes, but the box then packs so tight that the engine's step cost
  /// climbs steeply (one thread, 60 Hz step: about 3 ms at 300 squares, 7 ms at 400, 40 ms at
  /// 600, over 200 ms at 700), and the heavy session measures little but that.
  static let heavyMinimumPitch = heavySide * 1.5

  /// Most squares the heavy scene can place (on a grid of `heavyMinimumPitch`).
  static var heavyCapacity: Int { gridSize(pitch: heavyMinimumPitch).count }

  /// `count` 12 pt squares on the widest grid that holds them, odd rows shifted by half a pitch
  /// so that the columns do not bounce in step; every square starts clear of its neighbours and
  /// of the bounds.
  static func heavy(items count: Int) -> BouncingScene {
    var pitch = 40.0
    while pitch > heavyMinimumPitch, gridSize(pitch: pitch).count < count { pitch -= 0.5 }
    let grid = gridSize(pitch: pitch)
    precondition(grid.count >= count, "at most \(heavyCapacity) heavy items fit")
    var items: [ItemSpec] = []
    for i in 0..<count {
      let row = i / grid.columns
      let shift = row % 2 == 1 ? pitch / 2 : 0
      let x = pitch / 2 + shift + Double(i % grid.columns) * pitch
      let y = pitch / 2 + Double(row) * pitch
      items.append(
        ItemSpec(
          id: "h\(i)", center: Point(x: x, y: y),
          size: Size(width: heavySide, height: heavySide)))
    }
    return BouncingScene(items: items)
  }

  /// Columns and rows of a grid of `pitch` in the bounds, one column fewer than fits so that
  /// the shifted rows stay inside too.
  private static func gridSize(pitch: Double) -> (columns: Int, count: Int) {
    let columns = Int(bounds.size.width / pitch) - 1
    let rows = Int(bounds.size.height / pitch)
    return (columns, max(0, columns) * rows)
  }

  private init(items: [ItemSpec]) {
    let ids = items.map(\.id)
    spec = SceneSpec(
      bounds: Self.bounds, items: items,
      behaviors: [
        .gravity(GravitySpec(items: ids)),
        .collision(CollisionSpec(items: ids, referenceBounds: true)),
        .dynamicItem(DynamicItemSpec(items: ids, elasticity: 1, friction: 0, resistance: 0)),
      ])
  }

  /// Opens the scene as realtime session `session`.
  func openRequest(session: String) -> Op {
    Op(OpenRequest(source: .scene(spec), session: session))
  }

  /// The scene built directly with the engine by the builder dynd's sessions use
  /// (`SceneBuilder`), from the same spec.
  func animator() -> (animator: DynamicAnimator, items: [DynamicItem]) {
    let built = try! SceneBuilder.build(spec)
    return (built.animator, built.items)
  }
}
