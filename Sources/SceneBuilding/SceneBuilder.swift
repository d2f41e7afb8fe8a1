import Dynamics
import Primitives
import Wire

/// A scene spec built onto the engine: the one way from the wire's description of a scene to
/// `Dynamics` objects. A session's scene (SessionHost's `SceneModel`) makes every item, group
/// and behavior with these functions and `BehaviorFactory`, adding its checks and bookkeeping;
/// `build` does the same without them, for dynbench and the tests.
public enum SceneBuilder {
  /// The default reference bounds, the iPhone 5 screen the seeds were written for.
  public static let defaultBounds = Rect(x: 0, y: 0, width: 320, height: 568)

  /// An animator with the spec's reference bounds: its `bounds`, the default when it gives none,
  /// none at all when it says `"bounds": null`.
  public static func animator(for spec: SceneSpec) -> DynamicAnimator {
    DynamicAnimator(referenceBounds: spec.withoutBounds ? nil : spec.bounds ?? defaultBounds)
  }

  /// Puts on `animator` the engine's bounds that every session's world has (PROTOCOL.md,
  /// section 12): the contacts it holds at once and the pair search one internal step does.
  public static func applyStepBounds(_ animator: DynamicAnimator) {
    animator.contactLimit = Limits.maxContactsPerSession
    animator.pairSearchLimit = Limits.maxPairSearchPerStep
  }

  /// The engine item of an item spec.
  public static func item(_ spec: ItemSpec) throws(ProtocolError) -> DynamicItem {
    try engine {
      try DynamicItem(
        identifier: spec.id, center: spec.center, size: spec.size, angle: spec.angle,
        shape: spec.shape)
    }
  }

  /// The group (UIDynamicItemGroup) of `members`, named as the spec says.
  public static func group(_ spec: GroupSpec, members: [DynamicItem]) throws(ProtocolError)
    -> DynamicItem
  {
    try engine { try DynamicItem(group: spec.id, items: members) }
  }

  /// A scene's items, groups and behaviors (composites with their children) on a new animator,
  /// as a session builds them. Not checked against `Limits` or for duplicate ids, and action
  /// rules are left out (they belong to a session): for specs the caller wrote itself.
  public static func build(_ spec: SceneSpec) throws(ProtocolError) -> BuiltScene {
    let animator = animator(for: spec)
    var byID: [String: DynamicItem] = [:]
    var items: [DynamicItem] = []
    for itemSpec in spec.items {
      let made = try item(itemSpec)
      items.append(made)
      byID[itemSpec.id] = made
    }
    var groups: [DynamicItem] = []
    for groupSpec in spec.groups {
      let members = try BehaviorFactory { byID[$0] }.items(groupSpec.items)
      let made = try group(groupSpec, members: members)
      groups.append(made)
      byID[groupSpec.id] = made
    }
    let factory = BehaviorFactory { byID[$0] }
    var behaviorsByID: [String: DynamicBehavior] = [:]
    func make(_ spec: BehaviorSpec) throws(ProtocolError) -> DynamicBehavior {
      let behavior = try factory.make(spec)
      if let id = spec.id { behaviorsByID[id] = behavior }
      if case .composite(let composite) = spec {
        for child in composite.children { behavior.addChildBehavior(try make(child)) }
      }
      return behavior
    }
    for behaviorSpec in spec.behaviors { animator.addBehavior(try make(behaviorSpec)) }
    return BuiltScene(
      animator: animator, items: items, groups: groups, behaviorsByID: behaviorsByID)
  }
}

/// What `SceneBuilder.build` made.
public struct BuiltScene {
  public let animator: DynamicAnimator
  /// The scene's items, in the spec's order (the order of `items` in frames).
  public let items: [DynamicItem]
  /// Its groups, in the spec's order.
  public let groups: [DynamicItem]
  /// Its behaviors that have an id (composites' children included).
  public let behaviorsByID: [String: DynamicBehavior]
}

/// Runs an engine call, turning its refusal into the protocol's error.
public func engine<T>(_ body: () throws -> T) throws(ProtocolError) -> T {
  do {
    return try body()
  } catch let error as DynamicsError {
    switch error.kind {
    case .invalidShape, .invalidReference: throw ProtocolError(.invalidScene, error.message)
    case .nonFinite: throw ProtocolError(.invalidNumber, error.message)
    case .outOfRange: throw ProtocolError(.outOfRange, error.message)
    }
  } catch {
    throw ProtocolError(.invalidScene, "\(error)")
  }
}
