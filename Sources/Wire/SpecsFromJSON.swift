import JSON

/// Request parts a client reads from its user rather than builds (a scene file, `--param`
/// values), checked exactly as the daemon checks them inside a request, with the same error
/// messages: fields are named from `path`, as in `scene.items[0].size`.
extension SceneSpec {
  /// Reads a scene object: the checks `open` applies to its `scene`.
  public init(json: JSONValue, path: String = "scene") throws(ProtocolError) {
    self = try JSONParser().withRoot(Array(json.jsonText.utf8)) { root throws(ProtocolError) in
      try SceneSpec(ObjectReader(root, path: path, owner: "a scene"))
    }
  }
}

extension TransitionParams {
  /// Reads a `params` object: the checks `open` applies to its `params`. A name given twice
  /// keeps its first place and its last value, as in a request.
  public init(json: JSONValue, path: String = "params") throws(ProtocolError) {
    self = try JSONParser().withRoot(Array(json.jsonText.utf8)) { root throws(ProtocolError) in
      try TransitionParams(ObjectReader(root, path: path, owner: "the transition's params"))
    }
  }
}

extension BehaviorSpec {
  /// Reads a behavior object: the checks `add_behavior` applies to its `behavior`.
  public init(json: JSONValue, path: String = "behavior") throws(ProtocolError) {
    self = try JSONParser().withRoot(Array(json.jsonText.utf8)) { root throws(ProtocolError) in
      try BehaviorSpec(ObjectReader(root, path: path, owner: "a behavior"))
    }
  }
}

extension BehaviorUpdate {
  /// Reads the fields of an object (without `behavior`) as `set_behavior` reads them for a
  /// behavior of `type`.
  public init(json: JSONValue, for type: BehaviorType, path: String = "")
    throws(ProtocolError)
  {
    let fields = try JSONParser().withRoot(Array(json.jsonText.utf8)) {
      root throws(ProtocolError) in
      try BehaviorFields(
        ObjectReader(root, path: path, owner: "a behavior's fields"), excluding: [],
        what: "a set")
    }
    self = try fields.update(for: type)
  }
}
