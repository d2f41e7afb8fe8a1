import CBox2D
import Primitives

/// An upper bound on the time one internal step of an animator can take, worked out from what
/// its behaviors hold, whatever the items' positions: its items' shapes all on one spot, every
/// pair of them overlapping, every contact the world may hold made (issue 39).
///
/// Each term is what one kind of work costs at most in a step, at a rate measured on the
/// costliest scene for that work (`dynbench worst-step`, `WorstScenes`; BENCHMARKS.md, "The
/// costliest internal step"), rounded up:
/// - every body and every shape: integration, the shape's box, its place in the broad-phase tree;
/// - the broad phase's pair search, at most `pairSearchLimit` and one query (PROTOCOL.md,
///   section 12), or every pair of shapes when that is fewer;
/// - every contact the world may hold, all touching: its narrow phase, its share of the solver
///   and of the time-of-impact search;
/// - every item a behavior names (a force, a collision group), every item a field acts on (its
///   law), every joint, every action rule the host checks after the step.
///
/// The host runs a step on its own thread only when this bound, not a past measurement, fits its
/// budget for it.
public struct StepCostBound: Equatable, Sendable {
  public var bodies = 0
  public var shapes = 0
  public var itemReferences = 0
  public var fieldItems = 0
  public var joints = 0
  /// Action rules checked after every internal step (the host's: `Session.stepCostBound`
  /// counts them in; the engine knows none).
  public var actionRules = 0
  public var contactLimit = Int.max
  public var pairSearchLimit = Int.max

  public init() {}

  /// Microseconds per unit of work, measured (release build, this machine's kind) and rounded up.
  enum Rate {
    static let step = 10.0
    static let body = 0.5
    static let shape = 1.0
    static let pairSearch = 0.05
    static let contact = 2.0
    static let itemReference = 0.1
    static let fieldItem = 0.5
    static let joint = 2.0
    /// A rule and its effects (at most 8): 256 rules of 8 `set` effects each took 0.66 ms a
    /// step.
    static let actionRule = 4.0
  }

  /// Pairs of shapes that can overlap: every pair, when all lie on one spot.
  var shapePairs: Int { Self.pairs(of: shapes) }

  /// Pairs of `shapes` shapes: every contact a world of them may hold when all lie on one spot.
  public static func pairs(of shapes: Int) -> Int { shapes * max(shapes - 1, 0) / 2 }

  /// Broad-phase work in one step, in the pair search's units (an overlap visited counts 1, a
  /// pair kept for a contact 8 in all; counted here as 1 and 8 more, a little over): every shape
  /// moved and meeting every other, or the limit and the one query that may pass it.
  var pairSearch: Int {
    let everything = 2 * shapePairs + 8 * shapePairs
    guard pairSearchLimit < Int.max else { return everything }
    return min(everything, pairSearchLimit + 9 * max(shapes - 1, 0))
  }

  /// Contacts the world can hold at once.
  var contacts: Int { min(shapePairs, contactLimit) }

  /// The bound, in seconds.
  public var seconds: Double {
    let microseconds =
      Rate.step + Rate.body * Double(bodies) + Rate.shape * Double(shapes)
      + Rate.pairSearch * Double(pairSearch) + Rate.contact * Double(contacts)
      + Rate.itemReference * Double(itemReferences) + Rate.fieldItem * Double(fieldItems)
      + Rate.joint * Double(joints) + Rate.actionRule * Double(actionRules)
    return microseconds / 1e6
  }
}

extension DynamicAnimator {
  /// What the behavior tree holds, counted for `StepCostBound`: O(the items behaviors name),
  /// without preparing the world (the host asks on its own thread).
  func countStepCostBound() -> StepCostBound {
    var bound = StepCostBound()
    var seen = Set<ObjectIdentifier>()
    for behavior in Self.flatten(behaviors) {
      let items = behavior.behaviorItems
      bound.itemReferences += items.count
      if behavior is FieldBehavior { bound.fieldItems += items.count }
      if behavior is AttachmentBehavior || behavior is SnapBehavior { bound.joints += 2 }
      if let collision = behavior as? CollisionBehavior {
        bound.shapes += collision.boundaryShapeCount
      }
      for item in items where seen.insert(ObjectIdentifier(item)).inserted {
        bound.bodies += 1
        bound.shapes += item.shapeCount
      }
    }
    bound.contactLimit = contactLimit
    bound.pairSearchLimit = pairSearchLimit
    return bound
  }
}

extension DynamicAnimator {
  /// Whether Box2D meets pairs with dynd's own pair finder (`Sources/CBox2D/pairs.cpp`), on which
  /// the bound of one step rests: a world of two overlapping boxes is stepped once, and the
  /// finder's count of rounds must grow. False when the library binds its own (a Box2D built with
  /// -Bsymbolic-functions or LTO); dynd says so when it starts.
  public static let boundedPairFinderInUse: Bool = {
    let animator = DynamicAnimator()
    let boxes = (0..<2).map {
      try? DynamicItem(
        identifier: "b\($0)", center: Point(x: 0, y: 0), size: Size(width: 10, height: 10))
    }
    animator.addBehavior(CollisionBehavior(items: boxes.compactMap { $0 }))
    let before = cbox2d_pair_rounds()
    _ = animator.step(stepInterval)
    return cbox2d_pair_rounds() > before
  }()
}
