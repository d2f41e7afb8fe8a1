/// An item group (UIDynamicItemGroup): `{"id": "g", "items": ["a", "b"]}`, several items moved
/// as one rigid body. Behaviors name the group's id wherever they take item ids; the members
/// still report their own states in frames.
///
/// Checks (`invalid_scene`): at least one member, no member twice. In a scene, also: group ids
/// are distinct and distinct from item ids, members are items of the scene (a group never names
/// a group), and an item is in at most one group (at most `Limits.maxGroupsPerScene` groups).
public struct GroupSpec: Equatable, Sendable {
  public var id: String
  public var items: [String]

  public init(id: String, items: [String]) {
    self.id = id
    self.items = items
  }
}

extension GroupSpec {
  static let fields: [StaticString] = ["id", "items"]

  init(_ fields: ObjectReader) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    id = try fields.requiredName("id")
    items = try fields.requiredNames("items", maxCount: Limits.maxItemsPerScene)
    guard !items.isEmpty else {
      throw ProtocolError(
        .invalidScene, "group '\(quoted(id))' has no items; a group needs at least one")
    }
    try checkDistinct(items, path: fields.fieldPath("items"), what: "item id")
  }
}
