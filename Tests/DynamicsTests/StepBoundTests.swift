import CBox2D
import Dynamics
import Primitives
import Testing

/// The bounded internal step (issue 39): the shim's own pair finder is the one Box2D runs, its
/// pair search bound makes pairs late but never loses one, and `StepCostBound` grows with what
/// can make a step costly.
@Suite("Step bounds")
struct StepBoundTests {
  /// `n` boxes of 40 pt on one spot in one collision behavior, nothing else moving them.
  func pile(_ n: Int) -> DynamicAnimator {
    let animator = DynamicAnimator()
    let boxes = (0..<n).map { item("b\($0)", x: 160, y: 284, w: 40, h: 40) }
    animator.addBehavior(CollisionBehavior(items: boxes))
    return animator
  }

  @Test("Box2D finds its pairs with the shim's pair finder (pairs.cpp), not its own")
  func interposed() {
    let before = cbox2d_pair_rounds()
    _ = pile(3).step(DynamicAnimator.stepInterval)
    #expect(cbox2d_pair_rounds() > before)
    #expect(DynamicAnimator.boundedPairFinderInUse)
  }

  @Test("under the pair search bound a row's pairs are met over several steps, every one of them")
  func deferredPairsAreMet() {
    // 30 boxes in a row, each overlapping the next by 2 pt: 29 touching pairs.
    func row() -> DynamicAnimator {
      let animator = DynamicAnimator()
      let boxes = (0..<30).map { item("b\($0)", x: 30 + 38 * Double($0), y: 284, w: 40, h: 40) }
      animator.addBehavior(CollisionBehavior(items: boxes))
      return animator
    }
    let unbounded = row()
    _ = unbounded.step(DynamicAnimator.stepInterval)
    #expect(unbounded.contactCount == 29)
    #expect(unbounded.deferredShapeCount == 0)

    // One query a step: the pairs are met as the shapes' turns come.
    let bounded = row()
    bounded.pairSearchLimit = 1
    _ = bounded.step(DynamicAnimator.stepInterval)
    #expect(bounded.contactCount < 29)
    #expect(bounded.deferredShapeCount > 0)
    var steps = 1
    var deferred = bounded.deferredShapeCount
    while steps < 60 {
      _ = bounded.step(DynamicAnimator.stepInterval)
      steps += 1
      if bounded.deferredShapeCount == deferred { break }
      deferred = bounded.deferredShapeCount
    }
    #expect(steps <= 31, "the moved shapes still waited after \(steps) steps")
    #expect(bounded.contactCount == 29, "after \(steps) steps")
  }

  @Test("a pile that keeps moving under the bound waits in a buffer no longer than its shapes")
  func waitingDoesNotGrow() {
    let animator = pile(100)
    animator.addBehavior(
      GravityBehavior(items: (animator.behaviors[0] as! CollisionBehavior).items))
    animator.pairSearchLimit = 50
    var before: Int64 = 0
    for step in 0..<120 {
      _ = animator.step(DynamicAnimator.stepInterval)
      let waited = animator.deferredShapeCount - before
      before = animator.deferredShapeCount
      #expect(waited <= 100, "step \(step): \(waited) shapes waited")
    }
    #expect(before > 0, "the bound deferred no shape: nothing was tested")
  }

  @Test("the step's bound grows with shapes, contacts and named items")
  func boundGrows() {
    let small = pile(2).stepCostBound
    let large = pile(200).stepCostBound
    #expect(large.seconds > small.seconds)
    // A pile of 200 shapes may hold 19 900 contacts, capped by the contact limit.
    let capped = pile(200)
    capped.contactLimit = 100
    #expect(capped.stepCostBound.seconds < large.seconds)
    let animator = DynamicAnimator()
    let boxes = [item("a"), item("b", x: 300)]
    animator.addBehavior(GravityBehavior(items: boxes))
    let before = animator.stepCostBound.seconds
    animator.addBehavior(GravityBehavior(items: boxes))
    #expect(animator.stepCostBound.seconds > before)
  }
}

/// The move buffer, through the C shim: moving a body again and again between steps (`set_item`
/// on a session that does not step) cannot grow it without bound.
@Suite("Step bounds: the move buffer")
struct MoveBufferTests {
  @Test("a body set somewhere 10 000 times without a step leaves at most twice its proxies")
  func setTransformDoesNotGrowTheBuffer() {
    let world = cbox2d_world_create()!
    defer { cbox2d_world_destroy(world) }
    var handles: [Int32] = []
    for k in 0..<20 {
      let handle = cbox2d_body_create(world, CBOX2D_BODY_DYNAMIC, Float(k), 0, 0)
      #expect(cbox2d_body_add_box(world, handle, 0.1, 0.1, 0) == CBOX2D_OK.rawValue)
      handles.append(handle)
    }
    #expect(cbox2d_world_step(world, 1.0 / 120, 8, 3) == CBOX2D_OK.rawValue)
    for round in 0..<500 {
      for handle in handles {
        _ = cbox2d_body_set_transform(world, handle, Float(round % 7) * 50, 0, 0)
      }
    }
    let length = cbox2d_world_move_buffer_length(world)
    #expect(length >= 0 && length <= 2 * 20 + 64, "\(length) entries")
    #expect(cbox2d_world_step(world, 1.0 / 120, 8, 3) == CBOX2D_OK.rawValue)
  }
}
