import Dynamics
import Primitives
import Testing

@Suite("Reference bounds")
struct ReferenceBoundsTests {
  /// A 40×40 item resting on the floor of the screen, with a recorder.
  func restingBox(x: Double = 160) -> (DynamicAnimator, DynamicItem, Recorder) {
    let a = DynamicAnimator(referenceBounds: screen)
    let recorder = Recorder()
    a.delegate = recorder
    let box = item("box", x: x, y: 500, w: 40, h: 40)
    a.addBehavior(GravityBehavior(items: [box]))
    a.addBehavior(bounds([box]))
    runUntilRest(a)
    #expect(!a.isRunning && abs(box.center.y - 548) <= 0.5)
    return (a, box, recorder)
  }

  /// The floor moves up through a resting item (it overlaps the new wall by 28 pt): the item is
  /// pushed back inside without being thrown, comes to rest on the new floor, and its contact
  /// names the reference bounds at the new floor.
  @Test func shrinkingTheBoundsPushesAnItemBackInside() throws {
    let (a, box, recorder) = restingBox()
    recorder.contacts = []
    try a.setReferenceBounds(Rect(x: 0, y: 0, width: 320, height: 540))
    #expect(a.isRunning)
    var fastest = 0.0
    var t = 0.0
    while a.isRunning && t < 10 {
      a.step(frame60)
      t += frame60
      fastest = max(fastest, box.velocity.length)
      #expect(box.center.isFinite)
    }
    #expect(!a.isRunning)
    #expect(abs(box.center.y - 520) <= 0.5)
    #expect(fastest < 100, "fastest \(fastest) pt/s")
    let began = recorder.contacts.filter { $0.phase == .began }
    #expect(began.count == 1)
    if let contact = began.first, case .boundary(let id) = contact.other {
      #expect(id == nil)
      #expect(abs((contact.point?.y ?? 0) - 540) <= 0.5)
    } else {
      Issue.record("no contact with the new floor")
    }
  }

  /// A side wall moves in: an item inside stays where it is, one straddling the new wall is
  /// pushed inside, one beyond the wall's thickness is left where it is.
  @Test func itemsInsideStayStraddlersComeInsideOthersAreLeft() throws {
    let a = DynamicAnimator(referenceBounds: screen)
    let inside = item("inside", x: 60, y: 300, w: 40, h: 40)
    let straddling = item("straddling", x: 205, y: 300, w: 40, h: 40)  // 185…225
    let beyond = item("beyond", x: 1500, y: 300, w: 40, h: 40)
    a.addBehavior(bounds([inside, straddling, beyond]))
    runUntilRest(a)
    try a.setReferenceBounds(Rect(x: 0, y: 0, width: 200, height: 568))
    var fastest = 0.0
    for _ in 0..<120 {
      a.step(frame60)
      fastest = max(fastest, straddling.velocity.length)
    }
    #expect(inside.center == Point(x: 60, y: 300))
    #expect(straddling.frame.maxX <= 200.5 && straddling.frame.maxX > 190)
    #expect(abs(straddling.center.y - 300) < 2 && abs(straddling.angle) < 0.05)
    #expect(fastest < 100, "fastest \(fastest) pt/s")
    #expect(beyond.center == Point(x: 1500, y: 300))
  }

  @Test func growingTheBoundsLetsItemsFallFurther() throws {
    let (a, box, _) = restingBox()
    try a.setReferenceBounds(Rect(x: 0, y: 0, width: 320, height: 800))
    #expect(a.isRunning)
    runUntilRest(a)
    #expect(abs(box.center.y - 780) <= 0.5)
  }

  /// Named boundaries keep their fixtures and contacts when the bounds change.
  @Test func namedBoundariesAreUntouched() throws {
    let a = DynamicAnimator(referenceBounds: screen)
    let recorder = Recorder()
    a.delegate = recorder
    let box = item("box", x: 160, y: 100, w: 40, h: 40)
    let collision = bounds([box])
    try collision.addBoundary(
      identifier: "shelf", from: Point(x: 0, y: 300), to: Point(x: 320, y: 300))
    a.addBehavior(GravityBehavior(items: [box]))
    a.addBehavior(collision)
    runUntilRest(a)
    #expect(abs(box.center.y - 280) <= 0.5)
    recorder.contacts = []
    try a.setReferenceBounds(Rect(x: 0, y: 0, width: 320, height: 400))
    runUntilRest(a)
    #expect(recorder.boundaryContacts(.ended) == [])
    #expect(abs(box.center.y - 280) <= 0.5)
  }

  /// An animator without reference bounds has no reference-bounds boundary (UIKit's animator
  /// without a reference view): the item falls for 30 s, to the speed limit, and stays finite.
  @Test func withoutBoundsItemsFallForeverAndStayFinite() {
    let a = DynamicAnimator()
    let recorder = Recorder()
    a.delegate = recorder
    let box = item("box", x: 160, y: 100, w: 40, h: 40)
    a.addBehavior(GravityBehavior(items: [box]))
    a.addBehavior(bounds([box]))
    #expect(a.shapeCount == 5)  // counted as if it had walls: bounds may come later
    run(a, seconds: 30)
    #expect(a.isRunning)
    #expect(box.center.isFinite && box.velocity.isFinite)
    #expect(box.center.y > 400_000)
    #expect(abs(box.velocity.dy - DynamicAnimator.maxSpeed) < 1)
    #expect(recorder.contacts.isEmpty)
  }

  /// nil → bounds → nil → bounds: the walls come and go with them.
  @Test func boundsCanBeRemovedAndGivenBack() throws {
    let a = DynamicAnimator()
    let box = item("box", x: 160, y: 100, w: 40, h: 40)
    a.addBehavior(GravityBehavior(items: [box]))
    a.addBehavior(bounds([box]))
    run(a, seconds: 0.2)
    #expect(box.center.y > 110 && box.center.y < 200)
    try a.setReferenceBounds(screen)
    #expect(a.referenceBounds == screen)
    runUntilRest(a)
    #expect(abs(box.center.y - 548) <= 0.5)
    try a.setReferenceBounds(nil)
    #expect(a.isRunning && a.referenceBounds == nil)
    run(a, seconds: 2)
    #expect(box.center.y > 1700)
    // Back again with the item below the floor, beyond the wall: it is left to fall.
    let y = box.center.y
    try a.setReferenceBounds(screen)
    run(a, seconds: 0.5)
    #expect(box.center.y > y + 100)
  }

  @Test func badBoundsAreRefusedAndChangeNothing() throws {
    let (a, box, _) = restingBox()
    let bad = [
      Rect(x: .nan, y: 0, width: 10, height: 10), Rect(x: 0, y: 0, width: .infinity, height: 10),
      Rect(x: 0, y: 0, width: 0, height: 10), Rect(x: 0, y: 0, width: 10, height: -1),
      Rect(x: 999_990, y: 0, width: 20, height: 10), Rect(x: -2e6, y: 0, width: 10, height: 10),
    ]
    for rect in bad {
      #expect(throws: DynamicsError.self) { try a.setReferenceBounds(rect) }
    }
    #expect(a.referenceBounds == screen && !a.isRunning)
    // The same bounds again are no change: the animator stays paused.
    try a.setReferenceBounds(screen)
    #expect(!a.isRunning && abs(box.center.y - 548) <= 0.5)
  }
}
