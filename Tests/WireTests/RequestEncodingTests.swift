import Glibc
import JSON
import Primitives
import Testing
import Wire

/// `request` encoded by `RequestEncoder` and decoded again.
private func roundTrip(_ request: Request) throws(RejectedRequest) -> Request {
  try RequestDecoder().decode(request.encodedLine)
}

private func line(_ op: Op, id: RequestID? = nil) -> String {
  Request(id: id, op: op).encodedLine
}

private let items = ["a", "b"]
private let box = ItemSpec(
  id: "a", center: Point(x: 160, y: 100.25), size: Size(width: 80, height: 40.5))
private let ball = ItemSpec(
  id: "b", center: Point(x: -10.125, y: 1e5), size: Size(width: 20, height: 20), angle: -0.785398,
  shape: .ellipse)
private let hexagon = ItemSpec(
  id: "hex", center: Point(x: 50, y: 50), size: Size(width: 40, height: 40), angle: 0.1,
  shape: .path([
    Point(x: 20, y: 0), Point(x: 10, y: 17.32), Point(x: -10, y: 17.32), Point(x: -20, y: 0),
    Point(x: -10, y: -17.32), Point(x: 10, y: -17.32),
  ]))

/// Every field of a field behavior, naming an item of the scenes below.
private let pullUpdate: BehaviorUpdate = {
  var u = fieldUpdate
  u.items = ["a"]
  return u
}()

/// Every kind of behavior, with every optional field present in one and absent in another.
private let behaviors: [BehaviorSpec] = [
  .gravity(GravitySpec(items: items)),
  .gravity(GravitySpec(id: "g", items: items, direction: Vector(dx: 0.5, dy: -1))),
  .gravity(GravitySpec(items: [], angle: 1.5707963267948966, magnitude: 2.5)),
  .collision(CollisionSpec(items: items)),
  .collision(
    CollisionSpec(
      id: "walls", items: items, mode: .boundaries, referenceBounds: false,
      boundaries: [
        BoundarySpec(
          id: "floor", shape: .segment(from: Point(x: 0, y: 568), to: Point(x: 320, y: 568))),
        BoundarySpec(
          id: "cup",
          shape: .path([Point(x: 0, y: 0), Point(x: 10, y: 100), Point(x: 90, y: 100.5)])),
      ])),
  .collision(
    CollisionSpec(
      items: ["a"], mode: .items, insets: EdgeInsets(top: 10, left: -5, bottom: 0.25, right: 3))),
  .attachment(AttachmentSpec(item: "a", anchor: Point(x: 160, y: 0))),
  .attachment(
    AttachmentSpec(
      id: "spring", item: "a", to: "b", offset: Vector(dx: 1, dy: 2),
      toOffset: Vector(dx: -3, dy: 4),
      length: 120, damping: 0.3, frequency: 2, frictionTorque: 0.5)),
  .attachment(
    AttachmentSpec(
      kind: .sliding, item: "a", to: "b", anchor: Point(x: 10, y: 10), axis: Vector(dx: 0, dy: 1),
      range: FloatRange(minimum: -50, maximum: 50.5), frictionTorque: 1)),
  .attachment(AttachmentSpec(kind: .limit, item: "a", to: "b", length: 200)),
  .attachment(AttachmentSpec(kind: .fixed, item: "a", to: "b", anchor: Point(x: 5, y: 5))),
  .attachment(
    AttachmentSpec(
      kind: .pin, item: "a", to: "b", anchor: Point(x: 5, y: 5),
      range: FloatRange(minimum: -0.5, maximum: 0.75))),
  .snap(SnapSpec(item: "a", point: Point(x: 100, y: 200))),
  .snap(SnapSpec(id: "home", item: "b", point: Point(x: 0.1, y: 0.2), damping: 0.7)),
  .push(PushSpec(items: items, mode: .instantaneous)),
  .push(
    PushSpec(
      id: "kick", items: ["a"], mode: .continuous, direction: Vector(dx: 2, dy: 0),
      offset: Vector(dx: 0, dy: -10), active: false)),
  .push(PushSpec(items: ["b"], mode: .instantaneous, angle: -3, magnitude: -0.001)),
  .dynamicItem(DynamicItemSpec(items: items)),
  .dynamicItem(
    DynamicItemSpec(
      id: "material", items: items, elasticity: 0.4, friction: 0.3, density: 2.5, resistance: 1,
      angularResistance: 0.25, allowsRotation: false, anchored: true, charge: -1)),
  .field(FieldSpec(kind: .drag)),
  .field(
    FieldSpec(
      id: "pull", kind: .radialGravity, items: items, position: Point(x: 160.5, y: -1e6),
      region: .difference(
        .union(.radius(0), .size(Size(width: 1e7, height: 0.125))),
        .intersection(.inverse(.infinite), .radius(1.0 / 3))),
      strength: -1e6, falloff: 10, minimumRadius: 1e-9, direction: Vector(dx: 0.1, dy: -0.2),
      smoothness: 1, animationSpeed: 1000, seed: 9_007_199_254_740_992)),
  .field(FieldSpec(kind: .noise, region: .infinite, seed: 0)),
  .composite(CompositeSpec()),
  .composite(
    CompositeSpec(
      id: "tree",
      children: [
        .gravity(
          GravitySpec(items: ["a"], action: [ActionRule(when: .always, then: [.emit("g")])])),
        .composite(
          CompositeSpec(id: "inner", children: [.snap(SnapSpec(item: "b", point: .zero))])),
      ],
      action: [
        ActionRule(
          when: .inside(item: "a", rect: Rect(x: -1, y: 0.5, width: 0, height: 2e6)),
          then: [.emit("in"), .removeBehavior("tree")], repeats: true),
        ActionRule(
          when: .outside(item: "b", rect: Rect(x: 1, y: 2, width: 3, height: 4)),
          then: [.set(behavior: "pull", update: pullUpdate)]),
        ActionRule(when: .speedBelow(item: "a", speed: 0), then: [.emit("stopped")]),
        ActionRule(when: .speedAbove(item: "b", speed: 0.001), then: [.emit("moving")]),
      ])),
  .push(
    PushSpec(
      items: ["a"], mode: .instantaneous,
      action: [ActionRule(when: .always, then: [.removeBehavior("b2")], repeats: true)])),
]

private var update: BehaviorUpdate {
  var u = BehaviorUpdate()
  u.items = ["a"]
  u.direction = Vector(dx: 0, dy: 2)
  u.mode = .everything
  u.referenceBounds = true
  u.boundaries = []
  u.anchor = Point(x: 1, y: 2)
  u.length = 30
  u.damping = 0.5
  u.frequency = 3
  u.frictionTorque = 0.1
  u.range = FloatRange(minimum: -1, maximum: 1)
  u.point = Point(x: 3, y: 4)
  u.active = true
  u.offset = Vector(dx: 5, dy: 6)
  u.itemProperties.elasticity = 1
  u.itemProperties.friction = 0
  u.itemProperties.density = 0.001
  u.itemProperties.resistance = 7
  u.itemProperties.angularResistance = 8
  u.itemProperties.allowsRotation = true
  u.itemProperties.anchored = false
  u.itemProperties.charge = 9
  return u
}

/// A broad set of requests: every op, optional fields present and absent, params, scenes.
private let requests: [Request] = {
  var ops: [Op] = [
    Op(HelloRequest()), Op(ListRequest()), Op(ListRequest(from: 12, limit: 3)),
    Op(OpenRequest(source: .transition(name: "lock-screen", params: .init()))),
    Op(
      OpenRequest(
        source: .transition(
          name: "wave-pop",
          params: TransitionParams([
            TransitionParam(name: "rows", value: .number(12)),
            TransitionParam(name: "gravity", value: .number(1.0 / 3)),
            TransitionParam(name: "bounce", value: .bool(false)),
            TransitionParam(name: "complete_rule", value: .string("position")),
          ])),
        session: "pop", clock: .manual, fps: 59.94, keep: true)),
    Op(OpenRequest(source: .scene(SceneSpec()), session: "empty", fps: 120)),
    Op(
      OpenRequest(
        source: .scene(
          SceneSpec(
            bounds: Rect(x: 0, y: 0, width: 320, height: 568), items: [box, ball, hexagon],
            behaviors: behaviors)), clock: .manual)),
    Op(
      OpenRequest(
        source: .scene(SceneSpec(bounds: Rect(x: -10, y: 20.5, width: 300, height: 500))))),
    Op(GestureRequest(session: "L", phase: .began, point: Point(x: 160, y: 500))),
    Op(
      GestureRequest(
        session: "L", phase: .ended, point: Point(x: 160.000000001, y: 380),
        t: 0.016666666666666666, velocity: Vector(dx: 1234.5, dy: -1400), estimator: .linear)),
    Op(GestureRequest(session: "L", phase: .changed, point: .zero, t: 1.7e9)),
    Op(GestureRequest(session: "L", phase: .cancelled, point: Point(x: -1e6, y: 1e6))),
    Op(TapRequest(session: "L", point: Point(x: 300, y: 550))),
    Op(SwipeRequest(session: "L", direction: .up)),
    Op(
      SwipeRequest(
        session: "L", direction: .left, point: Point(x: 160, y: 400),
        velocity: Vector(dx: -900, dy: 0.5))),
    Op(StepRequest(session: "L")),
    Op(StepRequest(session: "L", dt: 1.0 / 120, count: 600)),
    Op(StepRequest(session: "L", count: 100_000)),
    Op(GetRequest(session: "L")), Op(WatchRequest(session: "L")), Op(CloseRequest(session: "L")),
    Op(DebugRequest(session: "L", enable: true)), Op(DebugRequest(session: "L", enable: false)),
    Op(AddItemRequest(session: "m", item: box)), Op(AddItemRequest(session: "m", item: hexagon)),
    Op(RemoveItemRequest(session: "m", item: "a")),
    Op(RemoveBehaviorRequest(session: "m", behavior: "g")),
    Op(RemoveAllBehaviorsRequest(session: "m")),
    Op(BehaviorsRequest(session: "m")),
    Op(SetBehaviorRequest(session: "m", behavior: "g", update: update)),
    Op(SetItemRequest(session: "m", item: "a")),
    Op(
      SetItemRequest(session: "m", item: "a", center: Point(x: 1.5, y: 2.5), angle: 3.14159)),
    Op(AddVelocityRequest(session: "m", item: "a", velocity: Vector(dx: 10, dy: -20))),
    Op(AddVelocityRequest(session: "m", item: "a", angular: -2.5)),
    Op(AddGroupRequest(session: "m", group: GroupSpec(id: "pair", items: ["a", "b"]))),
    Op(RemoveGroupRequest(session: "m", group: "pair")),
    Op(ItemsInRectRequest(session: "m", rect: Rect(x: -5, y: 0, width: 0, height: 100.5))),
    Op(ItemsInRectRequest(session: "m", rect: Rect(x: 0, y: 0, width: 10, height: 10))),
    Op(SetBoundsRequest(session: "m", bounds: Rect(x: 0, y: 0, width: 320, height: 568))),
    Op(SetBoundsRequest(session: "m", bounds: Rect(x: -10, y: 20, width: 1, height: 1e5))),
    Op(DefineRequest(document: #"{"transition":"card","scene":{"items":[]}}"#)),
    Op(
      OpenRequest(
        source: .scene(
          SceneSpec(
            items: [box, ball, hexagon],
            groups: [
              GroupSpec(id: "pair", items: ["a", "b"]), GroupSpec(id: "solo", items: ["hex"]),
            ],
            behaviors: [.gravity(GravitySpec(items: ["pair", "solo"]))])))),
    Op(SetBehaviorRequest(session: "m", behavior: "pull", update: fieldUpdate)),
  ]
  ops += behaviors.map { Op(AddBehaviorRequest(session: "m", behavior: $0)) }
  var update = BehaviorUpdate()
  update.angle = 0.25
  update.magnitude = 3
  update.insets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
  update.boundaries = [
    BoundarySpec(id: "floor", shape: .segment(from: Point(x: 0, y: 10), to: Point(x: 10, y: 10)))
  ]
  ops.append(Op(SetBehaviorRequest(session: "m", behavior: "c", update: update)))
  var rules = BehaviorUpdate()
  rules.action = []
  ops.append(Op(SetBehaviorRequest(session: "m", behavior: "c", update: rules)))
  rules.action = [ActionRule(when: .always, then: [.emit("x")], repeats: true)]
  ops.append(Op(SetBehaviorRequest(session: "m", behavior: "c", update: rules)))
  let ids: [RequestID?] = [nil, .string("q-1"), .number("7"), .number("1e2"), .number("2.50")]
  return ops.enumerated().map { Request(id: ids[$0.offset % ids.count], op: $0.element) }
}()

@Suite("Request encoding")
struct RequestEncodingTests {
  @Test("every op is covered")
  func everyOpIsCovered() {
    let covered = Set(requests.map { ObjectIdentifier($0.op.kind) })
    #expect(covered == Set(Op.registry.map { ObjectIdentifier($0) }))
  }

  @Test("decode(encode(request)) is the request", arguments: requests.indices)
  func roundTripsThroughTheDecoder(index: Int) throws {
    let request = requests[index]
    #expect(try roundTrip(request) == request, "\(request.encodedLine)")
  }

  @Test("the line is the op, the id, then the fields; defaults are left out")
  func goldenLines() {
    #expect(line(Op(HelloRequest()), id: .number("1")) == #"{"op":"hello","id":1}"#)
    #expect(
      line(Op(GetRequest(session: "bench")), id: .string("q"))
        == #"{"op":"get","id":"q","session":"bench"}"#)
    #expect(
      line(
        Op(
          OpenRequest(
            source: .transition(
              name: "lock-screen",
              params: TransitionParams([TransitionParam(name: "gravity", value: .number(1.5))])),
            session: "p", clock: .manual)))
        == #"{"op":"open","session":"p","transition":"lock-screen","params":{"gravity":1.5},"clock":"manual"}"#
    )
    #expect(
      line(Op(OpenRequest(source: .transition(name: "t", params: .init()), fps: 60, keep: true)))
        == #"{"op":"open","transition":"t","keep":true}"#)
    #expect(line(Op(DebugRequest(session: "s", enable: true))) == #"{"op":"debug","session":"s"}"#)
    #expect(
      line(Op(BehaviorsRequest(session: "s")), id: .number("4"))
        == #"{"op":"behaviors","id":4,"session":"s"}"#)
    #expect(line(Op(StepRequest(session: "s", count: 1))) == #"{"op":"step","session":"s"}"#)
    #expect(
      line(Op(StepRequest(session: "s", dt: 0.016666667, count: 60)))
        == #"{"op":"step","session":"s","dt":0.016666667,"count":60}"#)
    #expect(
      line(
        Op(
          GestureRequest(
            session: "s", phase: .ended, point: Point(x: 160, y: 380), t: 0.2,
            velocity: Vector(dx: 0, dy: -1400))))
        == #"{"op":"gesture","session":"s","phase":"ended","x":160,"y":380,"t":0.2,"vx":0,"vy":-1400}"#
    )
    #expect(
      line(
        Op(
          AddItemRequest(
            session: "m",
            item: ItemSpec(id: "a", center: Point(x: 1, y: 2), size: Size(width: 3, height: 4)))))
        == #"{"op":"add_item","session":"m","item":{"id":"a","center":[1,2],"size":[3,4]}}"#)
    #expect(
      line(
        Op(
          OpenRequest(source: .scene(SceneSpec(bounds: Rect(x: 0, y: 0, width: 320, height: 568)))))
      )
        == #"{"op":"open","scene":{"bounds":[320,568]}}"#)
    #expect(
      line(Op(AddGroupRequest(session: "m", group: GroupSpec(id: "g", items: ["a", "b"]))))
        == #"{"op":"add_group","session":"m","group":{"id":"g","items":["a","b"]}}"#)
    #expect(
      line(Op(RemoveGroupRequest(session: "m", group: "g")))
        == #"{"op":"remove_group","session":"m","group":"g"}"#)
    #expect(
      line(Op(ItemsInRectRequest(session: "m", rect: Rect(x: 0, y: 0, width: 10, height: 20))))
        == #"{"op":"items_in_rect","session":"m","rect":[0,0,10,20]}"#)
    #expect(
      line(Op(SetBoundsRequest(session: "m", bounds: Rect(x: 0, y: 0, width: 320, height: 568))))
        == #"{"op":"set_bounds","session":"m","bounds":[320,568]}"#)
    #expect(
      line(
        Op(
          AddBehaviorRequest(
            session: "m",
            behavior: .composite(
              CompositeSpec(
                id: "c",
                children: [
                  .field(
                    FieldSpec(
                      kind: .vortex, items: ["a"], region: .inverse(.radius(5)), strength: -1,
                      seed: 3))
                ],
                action: [
                  ActionRule(
                    when: .speedAbove(item: "a", speed: 100),
                    then: [.set(behavior: "c", update: update), .emit("fast")])
                ])))))
        == #"{"op":"add_behavior","session":"m","behavior":{"type":"composite","id":"c","#
        + #""children":[{"type":"field","kind":"vortex","items":["a"],"region":{"inverse":"#
        + #"{"radius":5}},"strength":-1,"seed":3}],"action":[{"when":{"item":"a","#
        + #""speed_above":100},"then":[{"set":{"behavior":"c","magnitude":2}},{"emit":"fast"}]}]}}"#
    )
    var cleared = BehaviorUpdate()
    cleared.action = []
    #expect(
      line(Op(SetBehaviorRequest(session: "m", behavior: "c", update: cleared)))
        == #"{"op":"set_behavior","session":"m","behavior":"c","action":[]}"#)
  }

  /// The update of the golden composite above.
  private var update: BehaviorUpdate {
    var u = BehaviorUpdate()
    u.magnitude = 2
    return u
  }

  @Test(
    "numbers are the shortest text that reads back as the same double",
    arguments: [
      (160.0, "160"), (-0.0, "0"), (0.1, "0.1"), (1.0 / 3, "0.3333333333333333"),
      (0.016666666666666666, "0.016666666666666666"), (1e-5, "0.00001"), (-2.5e-9, "-0.0000000025"),
      (1e-10, "1e-10"), (123456.789, "123456.789"), (1e15, "1000000000000000"),
      (1e16, "1e+16"), (-1.5e300, "-1.5e+300"), (4503599627370497, "4503599627370497"),
      (Double.infinity, "0"), (Double.nan, "0"),
    ])
  func numbers(value: Double, expected: String) {
    let text = line(Op(TapRequest(session: "s", point: Point(x: value, y: 0))))
    #expect(text == #"{"op":"tap","session":"s","x":"# + expected + #","y":0}"#)
  }

  @Test("random doubles read back exactly")
  func randomNumbersRoundTrip() throws {
    var generator = SplitMix64(seed: 7)
    for _ in 0..<2_000 {
      let magnitude = Double.random(in: -12...6, using: &generator)
      let value = Double.random(in: -1...1, using: &generator) * pow(10, magnitude)
      let request = Request(
        id: nil, op: Op(TapRequest(session: "s", point: Point(x: value, y: -value))))
      #expect(try roundTrip(request) == request, "\(request.encodedLine)")
    }
  }

  @Test("names with quotes, controls and non-ASCII are escaped and read back")
  func stringsRoundTrip() throws {
    let request = Request(
      id: .string("a \"quoted\" \\ id\u{1}"),
      op: Op(
        OpenRequest(
          source: .transition(
            name: "ünïcödé-☃",
            params: TransitionParams([TransitionParam(name: "mode", value: .string("fast/slow"))])),
          session: "s p a c e")))
    #expect(try roundTrip(request) == request)
  }

  @Test("a scene and params read from JSON get the daemon's checks and messages")
  func specsFromJSON() throws {
    let parser = JSONParser()
    let scene = try SceneSpec(
      json: parser.parse(#"{"items":[{"id":"a","center":[1,2],"size":[3,4]}]}"#))
    #expect(
      scene.items == [ItemSpec(id: "a", center: Point(x: 1, y: 2), size: Size(width: 3, height: 4))]
    )
    #expect(
      throws: ProtocolError(
        .outOfRange, "field 'scene.items[0].size[0]' must be between 1 and 100000 (got 0)")
    ) {
      try SceneSpec(json: parser.parse(#"{"items":[{"id":"a","center":[1,2],"size":[0,4]}]}"#))
    }
    #expect(
      throws: ProtocolError(
        .wrongType, "field 'scene' must be an object, not an array of 1 elements")
    ) {
      try SceneSpec(json: parser.parse("[1]"))
    }
    let params = try TransitionParams(
      json: .object([
        JSONMember(name: "a", value: .number(1)), JSONMember(name: "b", value: .bool(true)),
        JSONMember(name: "a", value: .string("x")),
      ]))
    #expect(
      params.entries == [
        TransitionParam(name: "a", value: .string("x")),
        TransitionParam(name: "b", value: .bool(true)),
      ])
    #expect(
      throws: ProtocolError(
        .wrongType, "field 'params.x' must be a number, a boolean or a string, not null")
    ) {
      try TransitionParams(json: .object([JSONMember(name: "x", value: .null)]))
    }
  }

  @Test("an op name misspelt gets the closest one from the op table")
  func misspeltOp() {
    #expect(
      rejection(#"{"op":"add_behaviour"}"#)?.message
        == "no op is named 'add_behaviour'; did you mean 'add_behavior'?")
    #expect(rejection(#"{"op":"helo"}"#)?.message == "no op is named 'helo'; did you mean 'hello'?")
  }
}
