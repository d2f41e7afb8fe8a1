import ArgumentParser
import Dynamics
import Primitives

/// Symmetric drops onto a flat floor: an item released flat, at rest, under plain downward
/// gravity should fall, bounce and settle straight down. Each row reports how far it moved
/// sideways (max |x − x0|), how fast (max |vx|, and |vx| at the end), how far it turned (max
/// |angle|), and when the animator paused.
struct DropDrift: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "drift",
    abstract: "Sideways drift and rest time of symmetric drops onto a flat floor.")

  @Option(help: "Simulated seconds per drop (the drop stops early when the animator pauses).")
  var seconds: Double = 60

  @Option(help: "Height of the item's center when released, pt (the floor is at y 568).")
  var startY: Double = 100

  @Option(help: "Floors, comma-separated: bounds, segment, anchored.")
  var floors: String = "bounds,segment"

  @Flag(help: "Print a Markdown table.")
  var markdown = false

  func validate() throws {
    guard seconds > 0, seconds <= 600 else { throw ValidationError("seconds must be in (0, 600]") }
    guard startY >= 0, startY < 400 else { throw ValidationError("start-y must be in [0, 400)") }
    guard parseFloors() != nil else {
      throw ValidationError("--floors takes bounds, segment and anchored, comma-separated")
    }
  }

  func parseFloors() -> [DropCase.Floor]? {
    let names = floors.split(separator: ",").map(String.init)
    let list = names.compactMap(DropCase.Floor.init(rawValue:))
    return list.isEmpty || list.count != names.count ? nil : list
  }

  func run() throws {
    let header = [
      "shape", "floor", "x0", "elasticity", "friction", "max drift pt", "max side speed pt/s",
      "final side speed pt/s", "max turn °", "paused at s",
    ]
    if markdown {
      print("| " + header.joined(separator: " | ") + " |")
      print("|---|---|" + String(repeating: "---:|", count: header.count - 2))
    } else {
      print(header.joined(separator: "\t"))
    }
    var never = 0
    var count = 0
    var worst = 0.0
    for drop in DropCase.matrix(floors: parseFloors()!) {
      let result = try drop.run(seconds: seconds, startY: startY)
      count += 1
      if result.pausedAt == nil { never += 1 }
      worst = max(worst, result.maxDrift)
      let row =
        [drop.shape.name, drop.floor.rawValue, r(drop.x, 1), r(drop.elasticity, 1)]
        + [r(drop.friction, 1), r(result.maxDrift), r(result.maxSpeed), r(result.finalSpeed)]
        + [r(result.maxAngle * 180 / .pi, 4), result.pausedAt.map { r($0, 3) } ?? "never"]
      print(markdown ? "| " + row.joined(separator: " | ") + " |" : row.joined(separator: "\t"))
    }
    print(
      "\(count) drops of \(r(seconds, 1)) s from y \(r(startY, 1)): \(never) never paused; "
        + "largest sideways drift \(r(worst)) pt")
  }
}

/// One symmetric drop: an item at rest, flat, under gravity (magnitude 1, straight down), onto
/// a horizontal floor at y 568 in a 320×568 reference space.
struct DropCase {
  enum Floor: String, CaseIterable {
    /// The collision behavior's reference-bounds boundary (its four walls).
    case bounds
    /// A named segment boundary, 2 320 pt wide, with nothing else around.
    case segment
    /// An anchored item 2 320 × 40 pt whose top is at y 568 (an item that acts as a boundary).
    case anchored
  }

  struct Shape {
    let name: String
    let size: Size
    let collision: CollisionShape
  }

  static let shapes = [
    Shape(name: "box 50×50", size: Size(width: 50, height: 50), collision: .rectangle),
    Shape(name: "box 100×100", size: Size(width: 100, height: 100), collision: .rectangle),
    Shape(name: "box 200×40", size: Size(width: 200, height: 40), collision: .rectangle),
    Shape(name: "ellipse 60×60", size: Size(width: 60, height: 60), collision: .ellipse),
    Shape(
      name: "path square 60",
      size: Size(width: 60, height: 60),
      collision: .path([
        Point(x: -30, y: -30), Point(x: 30, y: -30), Point(x: 30, y: 30), Point(x: -30, y: 30),
      ])),
  ]
  static let elasticities = [0, 0.3, 0.5, 0.8, 0.9]
  static let frictions = [0, 0.5]
  /// The middle of the screen, and a point off it (the widest item still clears the walls).
  static let xs = [160.0, 111.0]

  static func matrix(floors: [Floor]) -> [DropCase] {
    var all: [DropCase] = []
    for shape in shapes {
      for floor in floors {
        for x in xs {
          for e in elasticities {
            for f in frictions {
              all.append(DropCase(shape: shape, floor: floor, x: x, elasticity: e, friction: f))
            }
          }
        }
      }
    }
    return all
  }

  let shape: Shape
  let floor: Floor
  let x: Double
  let elasticity: Double
  let friction: Double

  struct Result {
    var maxDrift = 0.0
    var maxSpeed = 0.0
    var finalSpeed = 0.0
    var maxAngle = 0.0
    var pausedAt: Double?
  }

  /// Steps 60 Hz frames for `seconds` or until the animator pauses.
  func run(seconds: Double, startY: Double) throws -> Result {
    let screen = Rect(x: 0, y: 0, width: 320, height: 568)
    let animator = DynamicAnimator(referenceBounds: screen)
    let item = try DynamicItem(
      identifier: "item", center: Point(x: x, y: startY), size: shape.size,
      shape: shape.collision)
    animator.addBehavior(GravityBehavior(items: [item]))
    let collision = CollisionBehavior(items: [item])
    switch floor {
    case .bounds:
      try collision.setTranslatesReferenceBoundsIntoBoundary(true)
    case .segment:
      try collision.addBoundary(
        identifier: "floor", from: Point(x: -1000, y: 568), to: Point(x: 1320, y: 568))
    case .anchored:
      let slab = try DynamicItem(
        identifier: "floor", center: Point(x: 160, y: 588), size: Size(width: 2320, height: 40))
      collision.addItem(slab)
      let anchor = DynamicItemBehavior(items: [slab])
      anchor.anchored = true
      animator.addBehavior(anchor)
    }
    animator.addBehavior(collision)
    let material = DynamicItemBehavior(items: [item])
    material.elasticity = elasticity
    material.friction = friction
    animator.addBehavior(material)

    var result = Result()
    let frames = Int((seconds * 60).rounded())
    for _ in 0..<frames {
      animator.step(1.0 / 60)
      result.maxDrift = max(result.maxDrift, abs(item.center.x - x))
      result.maxSpeed = max(result.maxSpeed, abs(item.velocity.dx))
      result.maxAngle = max(result.maxAngle, abs(item.angle))
      if !animator.isRunning {
        result.pausedAt = animator.elapsedTime
        break
      }
    }
    result.finalSpeed = abs(item.velocity.dx)
    return result
  }
}
