import Primitives

/// Base of every behavior (UIDynamicBehavior): children, a per-step action, and the animator.
///
/// Subclass it to build composite behaviors out of the concrete ones; the animator flattens the
/// tree depth-first. A behavior instance may be in one tree of one animator at a time.
open class DynamicBehavior {
  /// Behaviors this one groups; the animator treats them as if added directly, in this order.
  public private(set) var childBehaviors: [DynamicBehavior] = []
  /// Called after every internal step while the animator runs (UIKit's `action`).
  public var action: (() -> Void)?
  /// The animator this behavior's tree belongs to, if any.
  public internal(set) weak var dynamicAnimator: DynamicAnimator?
  weak var parent: DynamicBehavior?
  /// Set when the behavior's Box2D objects must be rebuilt before the next step.
  var needsRebuild = true
  /// Whether `attachPhysics` ran (and `detachPhysics` has not since).
  var physicsAttached = false

  public init() {}

  /// Adds a child; it joins the animator with this behavior.
  public func addChildBehavior(_ child: DynamicBehavior) {
    guard child.parent == nil, child.dynamicAnimator == nil, child !== self else { return }
    child.parent = self
    childBehaviors.append(child)
    if let animator = dynamicAnimator { animator.treeDidGain(child) }
  }

  /// Removes a child (and its subtree) from this behavior and from the animator.
  public func removeChildBehavior(_ child: DynamicBehavior) {
    guard let index = childBehaviors.firstIndex(where: { $0 === child }) else { return }
    childBehaviors.remove(at: index)
    child.parent = nil
    if let animator = dynamicAnimator { animator.treeDidLose(child) }
  }

  /// Called with the new animator just before the behavior joins it, or nil before it leaves.
  open func willMove(to animator: DynamicAnimator?) {}

  // MARK: hooks for the animator (overridden by the concrete behaviors)

  /// Items this behavior itself (not its children) acts on.
  var behaviorItems: [DynamicItem] { [] }

  /// Whether the behavior's Box2D objects depend on item masses (spring stiffness does), so
  /// that they are rebuilt when a density changes.
  var dependsOnMass: Bool { false }

  /// Creates this behavior's Box2D objects; items' bodies already exist.
  func attachPhysics(_ animator: DynamicAnimator) throws {}

  /// Destroys this behavior's Box2D objects.
  func detachPhysics(_ animator: DynamicAnimator) {}

  /// Applies forces, impulses or targets before one internal step.
  func prepareStep(_ animator: DynamicAnimator) {}

  /// Sets velocities after every behavior's `prepareStep`, when the step's forces are known
  /// (a velocity field overrides them).
  func overrideVelocities(_ animator: DynamicAnimator) {}

  /// Once a frame's internal steps are taken, when it ends `lead` seconds after the last: shows
  /// the items the behavior moves by a closed form as they are at the frame's time (a spring's,
  /// a decay's). Every other item is already shown there (`DynamicAnimator.showFrameState`).
  func showFrameState(_ animator: DynamicAnimator, lead: Double) {}

  /// The acceleration the behavior gives `item` at every step whatever its state (pt/s²):
  /// gravity's. How a body not stepped yet is shown between steps (`FrameState.swift`).
  func steadyAcceleration(of item: DynamicItem) -> Vector { .zero }

  /// Whether the behavior moves its items along a closed form (spring, decay): the animator
  /// makes it their motion owner (`ItemBody.motionOwner`).
  var movesItemsExactly: Bool { false }

  /// Tells the animator a parameter changed: it resumes and wakes this behavior's items.
  func parameterDidChange() {
    dynamicAnimator?.behaviorDidChange(self, structure: false)
  }

  /// Tells the animator the items or Box2D objects of this behavior changed.
  func structureDidChange(rebuild: Bool = true) {
    if rebuild { needsRebuild = true }
    dynamicAnimator?.behaviorDidChange(self, structure: true)
  }
}

/// Adds and removes items of a list-based behavior (gravity, collision, push, item properties).
struct ItemList {
  private(set) var items: [DynamicItem]
  init(_ items: [DynamicItem]) {
    var seen = Set<ObjectIdentifier>()
    self.items = items.filter { seen.insert(ObjectIdentifier($0)).inserted }
  }
  /// Appends the item; false if it was already there.
  mutating func add(_ item: DynamicItem) -> Bool {
    guard !contains(item) else { return false }
    items.append(item)
    return true
  }
  /// Removes the item; false if it was not there.
  mutating func remove(_ item: DynamicItem) -> Bool {
    guard let i = items.firstIndex(where: { $0 === item }) else { return false }
    items.remove(at: i)
    return true
  }
  func contains(_ item: DynamicItem) -> Bool { items.contains { $0 === item } }
}
