import Dynamics
import Primitives
import SceneBuilding
import Wire

/// Item groups (UIDynamicItemGroup) of a scene: several items that move as one rigid body.
///
/// A group is named like an item wherever a behavior takes items. Its members keep reporting
/// their own states in frames; while grouped, no behavior names them on their own, they are not
/// moved or removed on their own, and they belong to no other group.
extension SceneModel {
  func addGroup(_ spec: GroupSpec) throws(ProtocolError) {
    guard itemsByID[spec.id] == nil, groupsByID[spec.id] == nil else {
      throw ProtocolError(.invalidScene, "an item or group with id '\(spec.id)' already exists")
    }
    guard groups.count < Limits.maxGroupsPerScene else {
      throw ProtocolError(.outOfRange, "a scene holds at most \(Limits.maxGroupsPerScene) groups")
    }
    // An item some behavior holds is animated: the animator's bodies answer for every member
    // in O(the animated items), where a walk of every behavior's items would cost up to a
    // million steps (1 000 behaviors of 1 000 items) before a refusal.
    let animated = Set(animator.items.map(ObjectIdentifier.init))
    var members: [DynamicItem] = []
    for id in spec.items {
      if groupsByID[id] != nil {
        throw ProtocolError(
          .invalidScene, "group '\(spec.id)' names group '\(id)'; groups do not nest")
      }
      guard let member = itemsByID[id] else {
        throw ProtocolError(.unknownItem, "no item named '\(id)' in this scene")
      }
      if let other = groupOfItem[id] {
        throw ProtocolError(
          .invalidScene, "item '\(id)' is already in group '\(other.identifier)'")
      }
      if animated.contains(ObjectIdentifier(member)), let holder = firstHolder(of: member) {
        throw ProtocolError(
          .invalidScene,
          "item '\(id)' is held by behavior '\(holder)'; a grouped item moves only with its "
            + "group, so take it out of its behaviors first")
      }
      members.append(member)
    }
    try admitShapes(members.reduce(0) { $0 + $1.shapeCount })
    let group = try SceneBuilder.group(spec, members: members)
    groups.append(group)
    groupsByID[spec.id] = group
    for member in members { groupOfItem[member.identifier] = group }
    countID(spec.id, adding: true)
  }

  /// The first behavior added of those holding `item` (the hidden velocity carrier is none of
  /// them): only asked about an animated item, and it stops at the first holder found in order.
  private func firstHolder(of item: DynamicItem) -> String? {
    var first: SceneBehavior?
    for entry in behaviorsByID.values where entry.order < first?.order ?? .max {
      if Self.heldItems(of: entry.behavior).contains(where: { $0 === item }) { first = entry }
    }
    return first?.id
  }

  /// Removes a group: it leaves every behavior (attachments and snaps holding it are removed),
  /// and its members stay where the group left them, free to be named again.
  func removeGroup(_ id: String, session: String) throws(ProtocolError) {
    guard let group = groupsByID[id] else {
      throw ProtocolError(.unknownItem, "no group named '\(id)' in session '\(session)'")
    }
    detach(group, session: session)
    // Brings the animator up to date so that it lets go of the group's body; its items are
    // free for another group once nothing holds the group.
    _ = animator.items
    groups.removeAll { $0 === group }
    groupsByID[id] = nil
    countID(id, adding: false)
    for member in group.groupMembers { groupOfItem[member.identifier] = nil }
  }

  /// The groups as `get` and scene specs write them.
  var groupSpecs: [GroupSpec] {
    groups.map { GroupSpec(id: $0.identifier, items: $0.groupMembers.map(\.identifier)) }
  }
}
