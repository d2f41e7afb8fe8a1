/// A composite behavior (a UIDynamicBehavior with child behaviors): organizational only, as in
/// UIKit, where the animator flattens the tree. Its `children` are any behaviors, composites
/// included, at most `Limits.maxCompositeDepth` composites deep; every behavior of the tree
/// counts toward `Limits.maxBehaviorsPerScene`, and ids are unique across the whole tree. A
/// composite acts only through its children and its `action` rules.
public struct CompositeSpec: Equatable, Sendable {
  public var id: String?
  /// In order; later dynamic-item behaviors win, depth first, as in UIKit's behavior tree.
  public var children: [BehaviorSpec]
  /// Rules run after every step (`ActionRule`).
  public var action: [ActionRule]

  public init(id: String? = nil, children: [BehaviorSpec] = [], action: [ActionRule] = []) {
    self.id = id
    self.children = children
    self.action = action
  }
}

extension CompositeSpec {
  static let fields: [StaticString] = ["type", "id", "children", "action"]

  /// Reads a composite whose own level is `tree.depth` (already counted by the caller).
  init(_ fields: ObjectReader, tree: inout BehaviorTreeBudget) throws(ProtocolError) {
    try fields.rejectUnknownFields(Self.fields)
    guard tree.depth <= Limits.maxCompositeDepth else {
      throw ProtocolError(
        .outOfRange,
        "composite '\(fields.path)' is nested \(tree.depth) composites deep; composites may be "
          + "nested at most \(Limits.maxCompositeDepth) deep")
    }
    let id = try fields.name("id")
    let objects =
      try fields.objects(
        "children", maxCount: Limits.maxBehaviorsPerScene, owner: "a behavior") ?? []
    var children: [BehaviorSpec] = []
    children.reserveCapacity(objects.count)
    for object in objects { children.append(try BehaviorSpec(object, tree: &tree)) }
    self.init(id: id, children: children, action: try fields.actionRules() ?? [])
  }
}
