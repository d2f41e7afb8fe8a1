import Dynamics
import Glibc
import Wire

/// The memory sessions hold, as the daemon's budget (`SessionHost.Configuration.memoryBudget`)
/// counts it: bytes per unit of a `SceneFootprint`, from dynd's resident memory growth over
/// 10 to 200 kept sessions of one scene, each stepped once (docs/DESIGN.md, section 4, "Its
/// memory is bounded"), rounded up: an upper bound for the scenes measured, not an exact sum.
enum MemoryCost {
  /// An empty session: its animator, Box2D world and bookkeeping (measured 10.5 KB).
  static let session = 16 << 10
  /// An item or group: the item, its Box2D body once animated, its state in frames (measured
  /// 0.33 KB still, 1.45 KB animated).
  static let body = 1_536
  /// A Box2D shape (item piece or boundary segment) with its broad-phase proxy, and its share
  /// of the contacts and pairs of a dense pile (measured 0.78 KB a boundary segment, 4.7 KB an
  /// item in a pile of 1 000 touching items under one collision behavior).
  static let shape = 5 << 10
  /// A behavior, besides the items it names (measured 0.37 KB).
  static let behavior = 512
  /// An item a behavior names (measured 9.6 B).
  static let itemReference = 12
  /// An action rule and its state (measured 0.9 KB).
  static let actionRule = 1 << 10
  /// A contact Box2D holds, with its share of the solver's arrays (measured 0.5 KB: 91 boxes
  /// on one spot, 4 095 contacts, 2.1 MiB a session).
  static let contact = 512

  /// Contacts a scene of `shapes` shapes may hold: every pair of them, at most the session's
  /// limit (`Limits.maxContactsPerSession`).
  static func contacts(shapes: Int) -> Int {
    min(StepCostBound.pairs(of: shapes), Limits.maxContactsPerSession)
  }

  /// What a scene holding `f` costs, its session's own cost aside: its parts, and the contacts
  /// its shapes may make once a collision behavior holds them (not a sum over parts: a
  /// request's share is `SceneModel.memoryGrowth`).
  static func bytes(of f: SceneFootprint) -> Int {
    f.bodies * body + f.shapes * shape + f.behaviors * behavior
      + f.itemReferences * itemReference + f.actionRules * actionRule
      + (f.collisionBehaviors > 0 ? contacts(shapes: f.shapes) * contact : 0)
  }

  /// The default budget: a quarter of the machine's physical memory, at most 8 GiB (at least
  /// 256 MiB when the memory cannot be read).
  static let defaultBudget: Int = {
    let pages = sysconf(Int32(_SC_PHYS_PAGES))
    let pageSize = sysconf(Int32(_SC_PAGESIZE))
    guard pages > 0, pageSize > 0 else { return 256 << 20 }
    return min(pages * pageSize / 4, 8 << 30)
  }()
}

extension SceneFootprint {
  /// What `add_item` adds.
  init(item: ItemSpec) {
    self.init()
    bodies = 1
    shapes = DynamicItem.shapeCount(of: item.shape, size: item.size)
  }

  /// What `add_behavior` adds: the behavior and its tree.
  init(behavior: BehaviorSpec) {
    self.init()
    for node in behavior.allSpecs {
      behaviors += 1
      if node.type == .collision { collisionBehaviors += 1 }
      shapes += node.boundaryShapeCount
      itemReferences += node.itemIDs.count
      fieldPairs += node.fieldPairCount
      actionRules += node.action.count
    }
  }

}

extension SceneModel {
  /// What `set_behavior` adds to `behavior` (negative when it replaces more than it adds): the
  /// items it names, its boundary segments and rules, net of those it replaces. O(the request).
  func footprintChange(of update: BehaviorUpdate, to behavior: String) -> SceneFootprint {
    var f = SceneFootprint()
    guard let entry = behaviorsByID[behavior] else { return f }
    if let items = update.items {
      f.itemReferences = items.count - Self.heldItems(of: entry.behavior).count
    }
    if let c = entry.behavior as? CollisionBehavior {
      f.shapes = Self.boundaryShapeChange(of: update, to: c)
    }
    if let rules = update.action { f.actionRules = rules.count - (actions[behavior]?.count ?? 0) }
    return f
  }

  /// What `add_group` adds: a body made of its members' pieces (O(the group)).
  func footprint(adding group: GroupSpec) -> SceneFootprint {
    var f = SceneFootprint()
    f.bodies = 1
    f.groups = 1
    f.shapes = group.items.reduce(0) { $0 + (itemsByID[$1]?.shapeCount ?? 0) }
    return f
  }
}

extension SceneModel {
  /// What the scene's count grows by when it gains `change` (counted from a request).
  func memoryGrowth(_ change: SceneFootprint) -> Int {
    (footprint + change).bytes - footprint.bytes
  }
}

extension Session {
  /// Bytes the daemon's memory budget counts the session for: O(1) for a scene (its
  /// footprint is kept), O(its few bodies) for a transition.
  var memoryCost: Int {
    switch content {
    case .scene(let scene):
      return MemoryCost.session + scene.footprint.bytes
    case .transition(let t):
      var f = SceneFootprint()
      f.bodies = t.items.count
      f.shapes = t.animator.shapeCount
      f.behaviors = t.animator.behaviors.count
      var pending = t.animator.behaviors
      while let behavior = pending.popLast() {
        if behavior is CollisionBehavior { f.collisionBehaviors += 1 }
        pending += behavior.childBehaviors
      }
      return MemoryCost.session + f.bytes
    }
  }
}

extension SessionHost {
  /// Refuses a request that would make the sessions hold more than the memory budget (`busy`,
  /// naming the budget); `bytes` is what the request would add, counted from the request.
  func admitMemory(_ bytes: Int) throws(ProtocolError) {
    guard bytes > 0, memoryTotal + bytes > configuration.memoryBudget else { return }
    throw ProtocolError(
      .busy,
      "this would take the memory dynd's sessions hold to \(Self.mebibytes(memoryTotal + bytes)) "
        + "MiB (this request \(bytes) bytes, counted from its items, shapes, "
        + "behaviors, item references and rules); the daemon's memory budget is "
        + "\(Self.mebibytes(configuration.memoryBudget)) MiB; close some sessions first")
  }

  /// `bytes` in MiB with one decimal.
  static func mebibytes(_ bytes: Int) -> String {
    let tenths = (bytes * 10 + (1 << 19)) >> 20
    return "\(tenths / 10).\(tenths % 10)"
  }
}
