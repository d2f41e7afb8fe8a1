import Dynamics
import Glibc
import Primitives
import Testing

@Suite("Items")
struct ItemTests {
  func make(_ size: Size, shape: CollisionShape = .rectangle, center: Point = .zero) throws {
    _ = try DynamicItem(identifier: "x", center: center, size: size, shape: shape)
  }

  @Test func zeroTinyAndNonFiniteSizesAreRejected() {
    for size in [
      Size(width: 0, height: 10), Size(width: 10, height: 0), Size(width: 0.5, height: 10),
      Size(width: .nan, height: 10), Size(width: .infinity, height: 10), Size(width: -5, height: 5),
      Size(width: 1e6, height: 10),
    ] {
      #expect(throws: DynamicsError.self) { try make(size) }
    }
    #expect(throws: DynamicsError.self) {
      try make(Size(width: 10, height: 10), center: Point(x: .nan, y: 0))
    }
    #expect(throws: DynamicsError.self) {
      try make(Size(width: 10, height: 10), center: Point(x: 2e6, y: 0))
    }
  }

  @Test func pathsMustBeConvexAndSimple() {
    let bad: [[Point]] = [
      [Point(x: 0, y: 0), Point(x: 10, y: 0)],  // two points
      [Point(x: 0, y: 0), Point(x: 5, y: 0), Point(x: 10, y: 0)],  // collinear
      [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 2, y: 2), Point(x: 0, y: 10)],  // concave
      // a short edge
      [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 0.1), Point(x: 0, y: 10)],
      [Point(x: 0, y: 0), Point(x: .nan, y: 0), Point(x: 0, y: 10)],
      (0..<5).map { i in  // a pentagram: consistent turns, but it winds twice
        let t = Double(i) * 4 * Double.pi / 5
        return Point(x: 10 * cos(t), y: 10 * sin(t))
      },
    ]
    for path in bad {
      #expect(throws: DynamicsError.self) {
        try make(Size(width: 20, height: 20), shape: .path(path))
      }
    }
  }

  @Test func largePathsAndEllipsesAreSplitIntoFixtures() throws {
    let circle16 = (0..<16).map { i -> Point in
      let t = Double(i) * 2 * Double.pi / 16
      return Point(x: 30 * cos(t), y: 20 * sin(t))
    }
    try make(Size(width: 60, height: 40), shape: .path(circle16))
    try make(Size(width: 60, height: 40), shape: .path(circle16.reversed()))
    try make(Size(width: 200, height: 30), shape: .ellipse)
    try make(Size(width: 9, height: 12), shape: .ellipse)
    #expect(throws: DynamicsError.self) { try make(Size(width: 1, height: 1.5), shape: .ellipse) }
  }

  @Test func frameCoversTheRotatedBounds() {
    let it = item(x: 100, y: 100, w: 100, h: 20, angle: .pi / 2)
    #expect(abs(it.frame.size.width - 20) < 1e-9 && abs(it.frame.size.height - 100) < 1e-9)
  }
}
