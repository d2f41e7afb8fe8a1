import Primitives
import Testing
import Wire

/// The behavior of an `add_behavior` line.
private func behavior(_ body: String) throws(RejectedRequest) -> BehaviorSpec? {
  guard
    let spec =
      (try decoded(
        #"{"op":"add_behavior","session":"s","behavior":"# + body + "}"
      ).op.request as? AddBehaviorRequest)?.behavior
  else { return nil }
  return spec
}

/// The error of an `add_behavior` line.
private func behaviorError(_ body: String) -> ProtocolError? {
  rejection(#"{"op":"add_behavior","session":"s","behavior":"# + body + "}")
}

/// The region of a field whose `region` is `json`.
private func region(_ json: String) throws(RejectedRequest) -> RegionSpec? {
  guard
    case .field(let field) = try behavior(#"{"type":"field","kind":"drag","region":"# + json + "}")
  else { return nil }
  return field.region
}

private func regionError(_ json: String) -> ProtocolError? {
  behaviorError(#"{"type":"field","kind":"drag","region":"# + json + "}")
}

/// A region of `depth` levels: inverses around a disc.
func nestedRegion(depth: Int) -> String {
  String(repeating: #"{"inverse":"#, count: depth - 1) + #"{"radius":1}"#
    + String(repeating: "}", count: depth - 1)
}

/// A region of exactly `nodes` objects, about log2(nodes) levels deep.
func regionOf(nodes: Int) -> String {
  switch nodes {
  case 1: return #"{"radius":1}"#
  case 2: return #"{"inverse":{"size":[1,2]}}"#
  default:
    let left = (nodes - 1) / 2
    return #"{"union":["# + regionOf(nodes: left) + "," + regionOf(nodes: nodes - 1 - left) + "]}"
  }
}

/// Field behaviors and their regions (UIFieldBehavior, UIRegion).
@Suite("Field behaviors and regions")
struct FieldDecodingTests {
  @Test("a field with every property, and one with only its kind")
  func fields() throws {
    #expect(
      try behavior(
        #"{"type":"field","id":"f","kind":"radial_gravity","items":["a","b"],"position":[160,284],"#
          + #""region":{"radius":100},"strength":-2.5,"falloff":2,"minimum_radius":0.5,"#
          + #""direction":[0,1],"smoothness":0.25,"animation_speed":3,"seed":42}"#)
        == .field(
          FieldSpec(
            id: "f", kind: .radialGravity, items: ["a", "b"], position: Point(x: 160, y: 284),
            region: .radius(100), strength: -2.5, falloff: 2, minimumRadius: 0.5,
            direction: Vector(dx: 0, dy: 1), smoothness: 0.25, animationSpeed: 3, seed: 42)))
    let drag = try behavior(#"{"type":"field","kind":"drag"}"#)
    #expect(drag == .field(FieldSpec(kind: .drag)))
    #expect(drag?.type == .field)
    #expect(drag?.itemIDs == [])
  }

  @Test("every kind word", arguments: FieldKindName.allCases)
  func kinds(kind: FieldKindName) throws {
    #expect(
      try behavior(#"{"type":"field","kind":""# + kind.rawValue + #"","items":["a"]}"#)
        == .field(FieldSpec(kind: kind, items: ["a"])))
  }

  @Test("a kind is required and must be one of the ten")
  func kindErrors() {
    #expect(
      behaviorError(#"{"type":"field","kind":"custom"}"#)
        == ProtocolError(
          .outOfRange,
          "field 'behavior.kind' must be one of linear_gravity, radial_gravity, drag, velocity, "
            + "noise, turbulence, spring, electric, magnetic, vortex (got 'custom')"))
    #expect(behaviorError(#"{"type":"field","items":[]}"#)?.code == .missingField)
    #expect(behaviorError(#"{"type":"field","kind":"drag","mode":"x"}"#)?.code == .unknownField)
  }

  @Test(
    "ranges of a field's numbers",
    arguments: [
      (#""strength":1000000"#, nil), (#""strength":-1000001"#, ErrorCode.outOfRange),
      (#""falloff":10"#, nil), (#""falloff":10.5"#, .outOfRange), (#""falloff":-0.1"#, .outOfRange),
      (#""minimum_radius":1000000"#, nil), (#""minimum_radius":1000001"#, .outOfRange),
      (#""minimum_radius":-1"#, .outOfRange),
      (#""direction":[1000000,-1000000]"#, nil), (#""direction":[0,1000001]"#, .outOfRange),
      (#""smoothness":1"#, nil), (#""smoothness":1.01"#, .outOfRange),
      (#""animation_speed":1000"#, nil), (#""animation_speed":-1"#, .outOfRange),
      (#""seed":0"#, nil), (#""seed":9007199254740992"#, nil),
      (#""seed":9007199254740994"#, .outOfRange), (#""seed":1.5"#, .outOfRange),
      (#""seed":-1"#, .outOfRange), (#""seed":"1""#, .wrongType),
      (#""position":[1e6,-1e6]"#, nil), (#""position":[1e7,0]"#, .outOfRange),
      (#""items":["a","a"]"#, .invalidScene),
    ] as [(String, ErrorCode?)])
  func ranges(field: String, code: ErrorCode?) {
    #expect(behaviorError(#"{"type":"field","kind":"noise","# + field + "}")?.code == code)
  }

  @Test("a seed reads back as the whole number sent")
  func seedIsExact() throws {
    guard
      case .field(let f) = try behavior(#"{"type":"field","kind":"noise","seed":9007199254740991}"#)
    else {
      Issue.record("not a field")
      return
    }
    #expect(f.seed == 9_007_199_254_740_991)
  }

  @Test(
    "every form of region",
    arguments: [
      (#"{"infinite":true}"#, RegionSpec.infinite),
      (#"{"radius":0}"#, .radius(0)),
      (#"{"radius":10000000}"#, .radius(1e7)),
      (#"{"size":[40,0.5]}"#, .size(Size(width: 40, height: 0.5))),
      (#"{"inverse":{"infinite":true}}"#, .inverse(.infinite)),
      (
        #"{"union":[{"radius":1},{"size":[2,3]}]}"#,
        .union(.radius(1), .size(Size(width: 2, height: 3)))
      ),
      (
        #"{"intersection":[{"radius":1},{"inverse":{"radius":0.5}}]}"#,
        .intersection(.radius(1), .inverse(.radius(0.5)))
      ),
      (#"{"difference":[{"radius":2},{"radius":1}]}"#, .difference(.radius(2), .radius(1))),
    ])
  func regionForms(json: String, expected: RegionSpec) throws {
    #expect(try region(json) == expected)
  }

  @Test(
    "a region has exactly one known key with a valid value",
    arguments: [
      ("{}", ErrorCode.missingField),
      (#"{"radius":1,"size":[1,2]}"#, .unknownField),
      (#"{"circle":1}"#, .unknownField),
      (#"{"infinite":false}"#, .outOfRange),
      (#"{"infinite":1}"#, .wrongType),
      (#"{"radius":-1}"#, .outOfRange),
      (#"{"radius":10000001}"#, .outOfRange),
      (#"{"radius":null}"#, .wrongType),
      (#"{"size":[1]}"#, .wrongType),
      (#"{"size":[-1,1]}"#, .outOfRange),
      (#"{"union":[{"radius":1}]}"#, .wrongType),
      (#"{"union":[{"radius":1},{"radius":1},{"radius":1}]}"#, .wrongType),
      (#"{"difference":{"radius":1}}"#, .wrongType),
      (#"{"inverse":[]}"#, .wrongType),
      (#"{"union":[{"radius":1},{}]}"#, .missingField),
      ("[]", .wrongType),
      ("true", .wrongType),
    ])
  func regionErrors(json: String, code: ErrorCode) {
    #expect(regionError(json)?.code == code, "\(String(describing: regionError(json)))")
  }

  @Test("two keys in a region name both")
  func twoKeys() {
    #expect(
      regionError(#"{"radius":1,"inverse":{"infinite":true}}"#)
        == ProtocolError(
          .unknownField,
          "field 'behavior.region.inverse' cannot be combined with 'radius' in a region; send one "
            + "of them"))
  }

  @Test("a region is at most 16 levels deep")
  func regionDepth() throws {
    let deepest = try region(nestedRegion(depth: Limits.maxRegionDepth))
    #expect(deepest?.depth == Limits.maxRegionDepth)
    let error = regionError(nestedRegion(depth: Limits.maxRegionDepth + 1))
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("nested 17 levels deep; a region may be at most 16") == true)
    // Through unions too: the second operand is the deep one.
    let union = #"{"union":[{"radius":1},"# + nestedRegion(depth: Limits.maxRegionDepth) + "]}"
    #expect(regionError(union)?.code == .outOfRange)
  }

  @Test("a region is made of at most 64 objects")
  func regionNodes() throws {
    let largest = try region(regionOf(nodes: Limits.maxRegionNodes))
    #expect(largest?.nodeCount == Limits.maxRegionNodes)
    #expect((largest?.depth ?? 99) <= Limits.maxRegionDepth)
    let error = regionError(regionOf(nodes: Limits.maxRegionNodes + 1))
    #expect(error?.code == .outOfRange)
    #expect(error?.message.contains("at most 64 region objects") == true)
  }

  @Test("a field's new set_behavior fields: read, and checked for the behavior's type")
  func updates() throws {
    let line =
      #"{"op":"set_behavior","session":"s","behavior":"f","position":[1,2],"#
      + #""region":{"size":[3,4]},"strength":5,"falloff":1,"minimum_radius":2,"smoothness":0.5,"#
      + #""animation_speed":6,"seed":7,"direction":[0,2000]}"#
    guard let set = try decoded(line).op.request as? SetBehaviorRequest else {
      Issue.record("not a set_behavior")
      return
    }
    #expect(
      set.fields.names == [
        "position", "region", "strength", "falloff", "minimum_radius", "smoothness",
        "animation_speed", "seed", "direction",
      ])
    let u = try set.fields.update(for: .field)
    #expect(u.position == Point(x: 1, y: 2))
    #expect(u.region == .size(Size(width: 3, height: 4)))
    #expect(
      [u.strength, u.falloff, u.minimumRadius, u.smoothness, u.animationSpeed] == [5, 1, 2, 0.5, 6])
    #expect(u.seed == 7)
    #expect(u.direction == Vector(dx: 0, dy: 2000))
    // A gravity has none of them; its direction is also bounded more tightly.
    #expect(throws: ProtocolError.self) { try set.fields.update(for: .gravity) }
    var direction = BehaviorUpdate()
    direction.direction = Vector(dx: 0, dy: 2000)
    #expect(throws: Never.self) { try BehaviorFields(direction).update(for: .field) }
    #expect(throws: ProtocolError.self) { try BehaviorFields(direction).update(for: .gravity) }
    for type in BehaviorType.allCases where type != .field {
      var strength = BehaviorUpdate()
      strength.strength = 1
      #expect(throws: ProtocolError.self, "\(type)") {
        try BehaviorFields(strength).update(for: type)
      }
    }
  }
}

/// The deepest request the grammar allows, against `Limits.maxNestingDepth`.
@Suite("Nesting")
struct NestingTests {
  /// A region `depth` levels deep through unions, ending in a size (two levels per union).
  private func unionChain(_ depth: Int) -> String {
    depth == 1 ? #"{"size":[1,1]}"# : #"{"union":[{"radius":1},"# + unionChain(depth - 1) + "]}"
  }

  /// A scene whose field, inside `Limits.maxCompositeDepth` composites, has a rule setting its
  /// own region `regionDepth` deep.
  private func deepest(regionDepth: Int) -> String {
    let field =
      #"{"type":"field","id":"f","kind":"drag","items":["a"],"#
      + #""action":[{"when":{"always":true},"#
      + #""then":[{"set":{"behavior":"f","region":"# + unionChain(regionDepth) + "}}]}]}"
    let depth = Limits.maxCompositeDepth
    return #"{"op":"open","scene":{"items":[{"id":"a","center":[0,0],"size":[1,1]}],"behaviors":["#
      + String(repeating: #"{"type":"composite","children":["#, count: depth) + field
      + String(repeating: "]}", count: depth) + "]}}"
  }

  /// The deepest nesting of arrays and objects in `text` (which has no brackets in strings).
  private func nesting(_ text: String) -> Int {
    var depth = 0
    var deepest = 0
    for character in text {
      if character == "[" || character == "{" { depth += 1 }
      if character == "]" || character == "}" { depth -= 1 }
      deepest = max(deepest, depth)
    }
    return deepest
  }

  @Test("the deepest valid request is 57 levels, within the limit, and decodes")
  func deepestRequest() throws {
    let line = deepest(regionDepth: Limits.maxRegionDepth)
    #expect(nesting(line) == 57)
    #expect(nesting(line) <= Limits.maxNestingDepth)
    #expect(throws: Never.self) { try decoded(line) }
    // One level more of region is refused by the region's limit, not by the JSON parser.
    let deeper = deepest(regionDepth: Limits.maxRegionDepth + 1)
    #expect(nesting(deeper) <= Limits.maxNestingDepth)
    #expect(rejection(deeper)?.code == .outOfRange)
  }

  @Test("the deepest behaviors reply is read back by a client's decoder")
  func deepestReply() throws {
    guard
      let open = try decoded(deepest(regionDepth: Limits.maxRegionDepth)).op.request
        as? OpenRequest,
      case .scene(let scene) = open.source
    else {
      Issue.record("not an open of a scene")
      return
    }
    var encoder = MessageEncoder()
    encoder.encode(Reply(id: nil, .behaviors(scene.behaviors)))
    let line = Array(encoder.bytes.dropLast())
    #expect(nesting(String(decoding: line, as: UTF8.self)) == 56)
    let read = try ServerMessageDecoder().decode(line, answering: BehaviorsRequest.self)
    #expect(read.replyBody == .behaviors(scene.behaviors))
  }
}
