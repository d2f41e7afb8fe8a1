import Dynamics
import Primitives
import Transitions

/// A scene's pan (`ScenePan`): which item a touch grips, and what carries a velocity to an item.
extension SceneModel {
  /// The item a touch at `point` grips: the last in the scene's order whose shape holds the
  /// point (a rectangle or a path by its frame, an ellipse by itself, each turned with the
  /// item); a member of a group grips its group. Nil when none does.
  func itemUnder(_ point: Point) -> DynamicItem? {
    for item in items.reversed() where ScenePan.holds(item, point) {
      return groupOfItem[item.identifier] ?? item
    }
    return nil
  }

  /// The `dynamic_item` behavior a velocity given to `item` goes through: the last of the
  /// scene's holding it, else the one dynd made for it (made on first use, one per item).
  func velocityCarrier(for item: DynamicItem) -> DynamicItemBehavior {
    // The last item behavior holding it, in one pass over the behaviors (no sort).
    var last: (order: Int, behavior: DynamicItemBehavior)?
    for entry in behaviorsByID.values where entry.order > (last?.order ?? -1) {
      if let d = entry.behavior as? DynamicItemBehavior, d.items.contains(where: { $0 === item }) {
        last = (entry.order, d)
      }
    }
    if let behavior = last?.behavior { return behavior }
    if let carrier = carriers[ObjectIdentifier(item)] { return carrier }
    let carrier = DynamicItemBehavior(items: [item])
    animator.addBehavior(carrier)
    carriers[ObjectIdentifier(item)] = carrier
    return carrier
  }

  /// Lets go of `item` if the pan holds it, and removes the carrier dynd made for it: what
  /// removing an item or a group takes with it besides the scene's behaviors.
  func releaseDynd(_ item: DynamicItem) {
    if pan.heldItem === item { pan.letGo() }
    if let carrier = carriers.removeValue(forKey: ObjectIdentifier(item)) {
      animator.removeBehavior(carrier)
    }
  }
}
