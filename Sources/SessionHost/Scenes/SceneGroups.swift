import Dynamics
import Primitives
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
    // Which behavior holds each item, found once: a scene may hold 1 000 behaviors of 1 000
    // items each, and a group 1 000 items.
    var holders: [ObjectIdentifier: String] = [:]
    for entry in behaviorsByID.values.sorted(by: { $0.order > $1.order }) {
      for item in Self.heldItems(of: entry.behavior) { holders[ObjectIdentifier(item)] = entry.id }
    }
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
      if let holder = holders[ObjectIdentifier(member)] {
        throw ProtocolError(
          .invalidScene,
          "item '\(id)' is held by behavior '\(holder)'; a grouped item moves only with its "
            + "group, so take it out of its behaviors first")
      }
      members.append(member)
    }
    let group = try engine { try DynamicItem(group: spec.id, items: members) }
    try admitShapes(group.shapeCount)
    groups.append(group)
    groupsByID[spec.id] = group
    for member in members { groupOfItem[member.identifier] = group }
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
    for member in group.groupMembers { groupOfItem[member.identifier] = nil }
  }

  /// The groups as `get` and scene specs write them.
  var groupSpecs: [GroupSpec] {
    groups.map { GroupSpec(id: $0.identifier, items: $0.groupMembers.map(\.identifier)) }
  }
}
