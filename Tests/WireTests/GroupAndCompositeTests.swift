import Primitives
import Testing
import Wire

/// The scene of an `open` line whose `scene` is `body`.
func openedScene(_ body: String) throws(RejectedRequest) -> SceneSpec? {
  guard let open = try decoded(#"{"op":"open","scene":"# + body + "}").op.request as? OpenRequest,
    case .scene(let scene) = open.source
  else { return nil }
  return scene
}

func sceneError(_ body: String) -> ProtocolError? {
  rejection(#"{"op":"open","scene":"# + body + "}")
}

private let items =
  #""items":[{"id":"a","center":[0,0],"size":[10,10]},{"id":"b","center":[20,0],"size":[10,10]},"#
  + #"{"id":"c","center":[40,0],"size":[10,10]}]"#

/// A composite `depth` composites deep, the innermost holding a gravity on `a`.
private func nestedComposite(depth: Int) -> String {
  String(repeating: #"{"type":"composite","children":["#, count: depth)
    + #"{"type":"gravity","items":["a"]}"# + String(repeating: "]}", count: depth)
}

/// Item groups in scenes and `add_group`; composite behaviors and their trees.
@Suite("Groups and composites")
struct GroupAndCompositeTests {
  @Test("a scene's groups, named by behaviors in place of items")
  func groups() throws {
    let scene = try openedScene(
      "{" + items + #","groups":[{"id":"pair","items":["a","b"]}],"#
        + #""behaviors":[{"type":"gravity","items":["pair","c"]},{"type":"snap","item":"pair","#
        + #""point":[1,2]},{"type":"field","kind":"drag","items":["pair"]}]}"#)
    #expect(scene?.groups == [GroupSpec(id: "pair", items: ["a", "b"])])
    #expect(scene?.behaviors.map(\.itemIDs) == [["pair", "c"], ["pair"], ["pair"]])
  }

  @Test(
    "a scene's groups break no rule",
    arguments: [
      (#"[{"id":"g","items":["a"]},{"id":"g","items":["b"]}]"#, "group id 'g' appears twice"),
      (#"[{"id":"a","items":["b"]}]"#, "group id 'a' is also an item id"),
      (#"[{"id":"g","items":["a","z"]}]"#, "group 'g' names item 'z', which is not in the scene"),
      (
        #"[{"id":"g","items":["a"]},{"id":"h","items":["g"]}]"#,
        "group 'h' names group 'g'; a group cannot contain a group"
      ),
      (
        #"[{"id":"g","items":["a","b"]},{"id":"h","items":["c","b"]}]"#,
        "item 'b' is in groups 'g' and 'h'; an item may be in one group only"
      ),
      (#"[{"id":"g","items":[]}]"#, "group 'g' has no items; a group needs at least one"),
      (#"[{"id":"g","items":["a","a"]}]"#, "item id 'a' appears twice in 'scene.groups[0].items'"),
    ])
  func groupRules(groups: String, message: String) {
    let error = sceneError("{" + items + #","groups":"# + groups + "}")
    #expect(error?.code == .invalidScene)
    #expect(error?.message.contains(message) == true, "\(String(describing: error))")
  }

  @Test("a group object: fields and their types")
  func groupFields() {
    #expect(sceneError("{" + items + #","groups":[{"id":"g"}]}"#)?.code == .missingField)
    #expect(
      sceneError("{" + items + #","groups":[{"id":"g","items":["a"],"x":1}]}"#)?.code
        == .unknownField)
    #expect(sceneError("{" + items + #","groups":[{"id":"g","items":"a"}]}"#)?.code == .wrongType)
    #expect(
      sceneError("{" + items + #","behaviors":[{"type":"gravity","items":["pair"]}]}"#)
        == ProtocolError(
          .invalidScene, "behavior scene.behaviors[0] names item 'pair', which is not in the scene")
    )
  }

  @Test("at most 1000 groups in a scene")
  func groupCount() {
    let member = #"{"id":"g","items":["a"]}"#
    let many = Array(repeating: member, count: Limits.maxGroupsPerScene + 1)
    let error = sceneError("{" + items + #","groups":["# + many.joined(separator: ",") + "]}")
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("must have 0 to 1000 elements") == true)
  }

  @Test("add_group and remove_group")
  func groupOps() throws {
    #expect(
      try decoded(#"{"op":"add_group","session":"s","group":{"id":"g","items":["a","b"]}}"#).op
        == Op(AddGroupRequest(session: "s", group: GroupSpec(id: "g", items: ["a", "b"]))))
    #expect(
      try decoded(#"{"op":"remove_group","session":"s","group":"g"}"#).op
        == Op(RemoveGroupRequest(session: "s", group: "g")))
    #expect(
      rejection(#"{"op":"add_group","session":"s","group":{"id":"g","items":[]}}"#)?.code
        == .invalidScene)
    #expect(rejection(#"{"op":"add_group","session":"s","group":"g"}"#)?.code == .wrongType)
    #expect(rejection(#"{"op":"add_group","session":"s"}"#)?.code == .missingField)
    #expect(rejection(#"{"op":"remove_group","session":"s"}"#)?.code == .missingField)
    #expect(
      rejection(#"{"op":"remove_group","session":"s","group":"g","x":1}"#)?.code == .unknownField)
  }

  @Test("items_in_rect and set_bounds")
  func rectOps() throws {
    #expect(
      try decoded(#"{"op":"items_in_rect","session":"s","rect":[-10,0,0,2000000]}"#).op
        == Op(ItemsInRectRequest(session: "s", rect: Rect(x: -10, y: 0, width: 0, height: 2e6))))
    #expect(
      try decoded(#"{"op":"set_bounds","session":"s","bounds":[320,568]}"#).op
        == Op(SetBoundsRequest(session: "s", bounds: Rect(x: 0, y: 0, width: 320, height: 568))))
    #expect(
      try decoded(#"{"op":"set_bounds","session":"s","bounds":[1,2,3,4]}"#).op
        == Op(SetBoundsRequest(session: "s", bounds: Rect(x: 1, y: 2, width: 3, height: 4))))
    for (line, code) in [
      (#"{"op":"items_in_rect","session":"s","rect":[0,0,10]}"#, ErrorCode.wrongType),
      (#"{"op":"items_in_rect","session":"s","rect":[10,10]}"#, .wrongType),
      (#"{"op":"items_in_rect","session":"s","rect":[0,0,-1,1]}"#, .outOfRange),
      (#"{"op":"items_in_rect","session":"s","rect":[0,0,1,2000001]}"#, .outOfRange),
      (#"{"op":"items_in_rect","session":"s"}"#, .missingField),
      (#"{"op":"set_bounds","session":"s","bounds":[0,568]}"#, .outOfRange),
      (#"{"op":"set_bounds","session":"s","bounds":[1,2,3]}"#, .wrongType),
      (#"{"op":"set_bounds","session":"s"}"#, .missingField),
      (#"{"op":"set_bounds","bounds":[1,1]}"#, .missingField),
    ] {
      #expect(rejection(line)?.code == code, "\(line)")
    }
  }

  @Test("a composite holds any behaviors; allSpecs lists the tree depth first")
  func composites() throws {
    let spec = try #require(
      try openedScene(
        "{" + items + #","behaviors":[{"type":"composite","id":"c","children":["#
          + #"{"type":"gravity","id":"g","items":["a"]},"#
          + #"{"type":"composite","id":"inner","children":[{"type":"snap","id":"s","item":"b","#
          + #""point":[0,0]}]},{"type":"push","id":"p","items":["c"],"mode":"continuous"}]},"#
          + #"{"type":"composite"}]}"#))
    let tree = spec.behaviors[0]
    #expect(tree.type == .composite)
    #expect(tree.itemIDs == [])
    #expect(tree.allSpecs.map(\.id) == ["c", "g", "inner", "s", "p"])
    #expect(spec.behaviors[1] == .composite(CompositeSpec()))
    #expect(spec.behaviors[1].allSpecs.count == 1)
  }

  @Test("composites are nested at most 8 deep")
  func compositeDepth() throws {
    let deepest = try behavior(nestedComposite(depth: Limits.maxCompositeDepth))
    #expect(deepest?.allSpecs.count == Limits.maxCompositeDepth + 1)
    let error = rejection(
      #"{"op":"add_behavior","session":"s","behavior":"#
        + nestedComposite(depth: Limits.maxCompositeDepth + 1) + "}")
    #expect(error?.code == .outOfRange)
    #expect(
      error?.message.contains("is nested 9 composites deep; composites may be nested at most 8")
        == true)
  }

  @Test("ids are unique across the whole tree")
  func treeIDs() {
    let duplicate =
      #"{"type":"composite","id":"c","children":[{"type":"composite","children":["#
      + #"{"type":"gravity","id":"c","items":[]}]}]}"#
    #expect(
      rejection(#"{"op":"add_behavior","session":"s","behavior":"# + duplicate + "}")
        == ProtocolError(.invalidScene, "behavior id 'c' appears twice in 'behavior'"))
    let acrossTrees =
      "{" + items + #","behaviors":[{"type":"gravity","id":"g","items":[]},"#
      + #"{"type":"composite","children":[{"type":"snap","id":"g","item":"a","point":[0,0]}]}]}"#
    #expect(
      sceneError(acrossTrees)
        == ProtocolError(.invalidScene, "behavior id 'g' appears twice in 'scene.behaviors'"))
  }

  @Test("children name items of the scene, and are found by their path")
  func childReferences() {
    let body =
      "{" + items + #","behaviors":[{"type":"composite","children":[{"type":"gravity","#
      + #""items":["a"]},{"type":"composite","children":[{"type":"snap","item":"zz","point":[0,0]}]}]}]}"#
    #expect(
      sceneError(body)
        == ProtocolError(
          .invalidScene,
          "behavior scene.behaviors[0].children[1].children[0] names item 'zz', which is not in "
            + "the scene"))
  }

  @Test("every behavior of the trees counts toward the scene's 1000")
  func treeCount() {
    let gravity = #"{"type":"gravity","items":[]}"#
    func scene(children: Int, topLevel: Int) -> String {
      let composite =
        #"{"type":"composite","children":["#
        + Array(repeating: gravity, count: children).joined(separator: ",") + "]}"
      return #"{"behaviors":["#
        + ([composite] + Array(repeating: gravity, count: topLevel)).joined(separator: ",") + "]}"
    }
    #expect(sceneError(scene(children: 998, topLevel: 1)) == nil)
    let error = sceneError(scene(children: 998, topLevel: 2))
    #expect(error?.code == .outOfRange)
    #expect(error?.message.hasPrefix("behavior 'scene.behaviors[2]' is one too many") == true)
    #expect(sceneError(scene(children: 1000, topLevel: 0))?.code == .outOfRange)
  }

  @Test("a composite defines type, id, children and action only")
  func compositeFields() {
    #expect(
      rejection(
        #"{"op":"add_behavior","session":"s","behavior":{"type":"composite","items":[]}}"#)?
        .code == .unknownField)
    #expect(
      rejection(
        #"{"op":"add_behavior","session":"s","behavior":{"type":"composite","children":{}}}"#)?
        .code == .wrongType)
  }
}

private func behavior(_ body: String) throws(RejectedRequest) -> BehaviorSpec? {
  guard
    let spec =
      (try decoded(
        #"{"op":"add_behavior","session":"s","behavior":"# + body + "}"
      ).op.request as? AddBehaviorRequest)?.behavior
  else { return nil }
  return spec
}
