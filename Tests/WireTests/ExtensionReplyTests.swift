import Primitives
import Testing
import Wire

/// `hello`'s parameter tables, one of each kind (values at the tables' 9 decimals).
let parameterTables = [
  ParameterTable(
    transition: "lock-screen",
    parameters: [
      ParameterDeclaration(
        name: "gravity", defaultValue: .number(4),
        kind: .number(min: 0.1, max: 20, unit: "× 1000 pt/s²"),
        source: "docs/TRANSITIONS.md"),
      ParameterDeclaration(
        name: "elasticity", defaultValue: .number(0.4), kind: .number(min: 0, max: 1, unit: ""),
        source: "haawa799"),
    ]),
  ParameterTable(
    transition: "wave-pop",
    parameters: [
      ParameterDeclaration(
        name: "complete_rule", defaultValue: .string("velocity"),
        kind: .choice(["velocity", "position"]), source: "AMWaveTransition"),
      ParameterDeclaration(
        name: "mirrored", defaultValue: .bool(false), kind: .bool, source: "a test"),
    ]),
  ParameterTable(transition: "snap", parameters: []),
]

/// A scene's behaviors as the `behaviors` reply carries them: every type, every field (values
/// at wire precision: 3 decimals for positions and lengths, 6 for the rest).
let behaviorStates: [BehaviorSpec] = [
  .gravity(
    GravitySpec(
      id: "b1", items: ["box"], direction: Vector(dx: 0, dy: 0.5), angle: 1.570796, magnitude: 0.5
    )),
  .collision(
    CollisionSpec(
      id: "walls", items: ["box", "ball"], mode: .boundaries, referenceBounds: true,
      insets: EdgeInsets(top: 1, left: 2, bottom: 3.5, right: -4),
      boundaries: [
        BoundarySpec(
          id: "shelf", shape: .segment(from: Point(x: 0, y: 200), to: Point(x: 320, y: 200))),
        BoundarySpec(
          id: "ledge", shape: .path([Point(x: 0, y: 1), Point(x: 2, y: 3), Point(x: 4, y: 5.125)])),
      ])),
  .attachment(
    AttachmentSpec(
      id: "rope", item: "ball", anchor: Point(x: 200, y: 50), offset: Vector(dx: 1, dy: -2),
      length: 80.125, damping: 0.3, frequency: 2, frictionTorque: 0)),
  .attachment(
    AttachmentSpec(
      id: "pin", kind: .pin, item: "ball", to: "tri", anchor: Point(x: 220, y: 100), length: 40,
      damping: 0, frequency: 0, range: FloatRange(minimum: -0.785398, maximum: 1.5),
      frictionTorque: 2.5)),
  .attachment(
    AttachmentSpec(
      id: "rail", kind: .sliding, item: "box", anchor: Point(x: 100, y: 100), length: 0,
      damping: 0, frequency: 0, axis: Vector(dx: 0, dy: 1),
      range: FloatRange(minimum: -10, maximum: 20.5), frictionTorque: 0)),
  .snap(SnapSpec(id: "snap", item: "tri", point: Point(x: 240, y: 300), damping: 0.5)),
  .push(
    PushSpec(
      id: "kick", items: ["ball"], mode: .instantaneous, direction: Vector(dx: 1, dy: 0), angle: 0,
      magnitude: 1, offset: Vector(dx: 2, dy: 3), active: false)),
  .dynamicItem(
    DynamicItemSpec(
      id: "props", items: ["tri"], elasticity: 0.5, friction: 0.25, density: 0.000001,
      resistance: 3, angularResistance: 4, allowsRotation: false, anchored: true, charge: -1)),
  .field(
    FieldSpec(
      id: "whirl", kind: .vortex, items: ["box", "pair"], position: Point(x: 160, y: 284.125),
      region: .union(.radius(120.5), .inverse(.size(Size(width: 10, height: 20)))),
      strength: -0.25, falloff: 2, minimumRadius: 0.001, direction: Vector(dx: 0, dy: 0),
      smoothness: 0, animationSpeed: 1, seed: 9_007_199_254_740_992)),
  .composite(
    CompositeSpec(
      id: "tree",
      children: [
        .gravity(
          GravitySpec(
            id: "inner", items: ["ball"], direction: Vector(dx: 0, dy: 1), angle: 1.570796,
            magnitude: 1,
            action: [
              ActionRule(
                when: .inside(item: "ball", rect: Rect(x: 0, y: 500, width: 320, height: 68.5)),
                then: [.emit("landed"), .removeBehavior("inner")])
            ])),
        .composite(CompositeSpec(id: "empty")),
      ],
      action: [
        ActionRule(
          when: .speedBelow(item: "box", speed: 0.5),
          then: [.set(behavior: "whirl", update: fieldUpdate)], repeats: true),
        ActionRule(when: .always, then: [.emit("tick")]),
      ])),
]

/// A `set_behavior` of a field with every field a field has, at wire precision.
let fieldUpdate: BehaviorUpdate = {
  var u = BehaviorUpdate()
  u.items = ["box"]
  u.position = Point(x: 1.5, y: -2)
  u.region = .intersection(.infinite, .radius(3))
  u.strength = 4.000001
  u.falloff = 1
  u.minimumRadius = 0.5
  u.direction = Vector(dx: 0.5, dy: 0)
  u.smoothness = 0.25
  u.animationSpeed = 10
  u.seed = 42
  return u
}()

private func encoded(_ body: ReplyBody, id: RequestID? = nil) -> String {
  var encoder = MessageEncoder()
  encoder.encode(Reply(id: id, body))
  return String(decoding: encoder.bytes.dropLast(), as: UTF8.self)
}

/// The two extension replies the inspector reads, exactly as written, and how a client reads
/// them from a daemon that differs from this one.
@Suite("Extension replies: hello's parameters, behaviors")
struct ExtensionReplyTests {
  @Test("behaviors are written as section 6 objects with every field, in a fixed order")
  func behaviorsText() {
    let text = encoded(
      .behaviors(Array(behaviorStates.prefix(4)) + [behaviorStates[5]]), id: .number("4"))
    #expect(
      text
        == #"{"ok":true,"id":4,"behaviors":["#
        + #"{"type":"gravity","id":"b1","items":["box"],"direction":[0,0.5],"angle":1.570796,"magnitude":0.5},"#
        + #"{"type":"collision","id":"walls","items":["box","ball"],"mode":"boundaries","reference_bounds":true,"#
        + #""insets":[1,2,3.5,-4],"boundaries":[{"id":"shelf","from":[0,200],"to":[320,200]},"#
        + #"{"id":"ledge","path":[[0,1],[2,3],[4,5.125]]}]},"#
        + #"{"type":"attachment","id":"rope","kind":"distance","item":"ball","offset":[1,-2],"anchor":[200,50],"#
        + #""length":80.125,"damping":0.3,"frequency":2,"friction_torque":0,"range":null},"#
        + #"{"type":"attachment","id":"pin","kind":"pin","item":"ball","to":"tri","anchor":[220,100],"#
        + #""length":40,"damping":0,"frequency":0,"friction_torque":2.5,"range":[-0.785398,1.5]},"#
        + #"{"type":"snap","id":"snap","item":"tri","point":[240,300],"damping":0.5}]}"#)
  }

  @Test("positions are written with 3 decimals, other numbers with 6")
  func behaviorDecimals() {
    let text = encoded(
      .behaviors([
        .attachment(
          AttachmentSpec(
            id: "a", kind: .sliding, item: "x", anchor: Point(x: 1.23456, y: 0), length: 2.0004,
            damping: 0.1234567, frequency: 0, axis: Vector(dx: 0.7071068, dy: 0.7071068),
            range: FloatRange(minimum: -1.00049, maximum: 0), frictionTorque: 0)),
        .gravity(
          GravitySpec(
            id: "g", items: [], direction: Vector(dx: 6.123e-17, dy: 1), angle: 1.5707963268,
            magnitude: 1)),
      ]))
    #expect(text.contains(#""axis":[0.707107,0.707107],"anchor":[1.235,0],"length":2,"#))
    #expect(text.contains(#""damping":0.123457,"#))
    #expect(text.contains(#""range":[-1,0]}"#))
    #expect(text.contains(#""direction":[0,1],"angle":1.570796,"magnitude":1}"#))
  }

  @Test("hello's parameters: an object keyed by transition, each a list in declared order")
  func parametersText() {
    let text = encoded(
      .hello(
        version: "0.1.0", transitions: ["lock-screen", "wave-pop", "snap"],
        parameters: parameterTables))
    #expect(
      text
        == #"{"ok":true,"protocol":1,"server":"dynd","version":"0.1.0","#
        + #""transitions":["lock-screen","wave-pop","snap"],"parameters":{"lock-screen":["#
        + #"{"name":"gravity","default":4,"min":0.1,"max":20,"unit":"× 1000 pt/s²","source":"docs/TRANSITIONS.md"},"#
        + #"{"name":"elasticity","default":0.4,"min":0,"max":1,"unit":"","source":"haawa799"}],"#
        + #""wave-pop":[{"name":"complete_rule","default":"velocity","choices":["velocity","position"],"#
        + #""source":"AMWaveTransition"},{"name":"mirrored","default":false,"source":"a test"}],"snap":[]}}"#
    )
    // Without tables (a client building a reply) the member is left out: the core reply.
    #expect(!encoded(.hello(version: "1", transitions: [])).contains("parameters"))
  }

  @Test("hello's tables are written once and again only when they change")
  func parametersCache() throws {
    let other = [ParameterTable(transition: "snap", parameters: [parameterTables[0].parameters[0]])]
    let first = encoded(.hello(version: "1", transitions: [], parameters: parameterTables))
    let changed = encoded(.hello(version: "1", transitions: [], parameters: other))
    let again = encoded(.hello(version: "1", transitions: [], parameters: parameterTables))
    #expect(first == again && first != changed)
    #expect(changed.contains(#""parameters":{"snap":[{"name":"gravity","default":4,"#))
    let decoder = ServerMessageDecoder()
    #expect(
      try decoder.decode(again, answering: HelloRequest.self).replyBody
        == .hello(version: "1", transitions: [], parameters: parameterTables))
  }

  @Test("get's bounds and params are written after the items and read back; older gets have none")
  func getDetails() throws {
    let details = SessionDetails(
      bounds: Rect(x: 0, y: 0, width: 320, height: 568),
      params: TransitionParams([
        TransitionParam(name: "gravity", value: .number(8)),
        TransitionParam(name: "complete_rule", value: .string("position")),
        TransitionParam(name: "mirrored", value: .bool(true)),
      ]))
    let text = encoded(.get(t: 0.5, running: false, items: [], details: details), id: .number("3"))
    #expect(
      text == #"{"ok":true,"id":3,"t":0.5,"running":false,"items":[],"bounds":[0,0,320,568],"#
        + #""params":{"gravity":8,"complete_rule":"position","mirrored":true}}"#)
    let decoder = ServerMessageDecoder()
    #expect(
      try decoder.decode(text, answering: GetRequest.self).replyBody
        == .get(t: 0.5, running: false, items: [], details: details))
    let older = try decoder.decode(
      #"{"ok":true,"t":0,"running":true,"items":[]}"#, answering: GetRequest.self)
    #expect(older.replyBody == .get(t: 0, running: true, items: []))
    #expect(throws: ProtocolError.self) {
      try decoder.decode(
        #"{"ok":true,"t":0,"running":true,"items":[],"params":{"a":[1]}}"#,
        answering: GetRequest.self)
    }
  }

  @Test("an older daemon's hello has no parameters; a newer one's unknown behavior type is skipped")
  func otherDaemons() throws {
    let older = try ServerMessageDecoder().decode(
      #"{"ok":true,"protocol":1,"server":"dynd","version":"0.0.9","transitions":["snap"]}"#,
      answering: HelloRequest.self)
    #expect(older.replyBody == .hello(version: "0.0.9", transitions: ["snap"], parameters: []))
    let newer = try ServerMessageDecoder().decode(
      #"{"ok":true,"behaviors":[{"type":"magnet","id":"f","strength":2},"#
        + #"{"type":"field","id":"g","kind":"wormhole","strength":2},"#
        + #"{"type":"snap","id":"s","item":"a","point":[1,2],"damping":0.5,"color":"red"}]}"#,
      answering: BehaviorsRequest.self)
    #expect(
      newer.replyBody
        == .behaviors([.snap(SnapSpec(id: "s", item: "a", point: Point(x: 1, y: 2), damping: 0.5))])
    )
  }

  @Test(
    "a malformed behavior or parameter is an error naming it",
    arguments: [
      (#"{"ok":true,"behaviors":[{"type":"snap","id":"s","point":[1,2]}]}"#, "behaviors[0].item"),
      (#"{"ok":true,"behaviors":[{"type":"gravity","items":"a"}]}"#, "behaviors[0].items"),
      (
        #"{"ok":true,"protocol":1,"server":"dynd","version":"1","transitions":[],"#
          + #""parameters":{"t":[{"name":"x","default":1,"min":0,"source":"s"}]}}"#,
        "parameters.t[0].max"
      ),
      (
        #"{"ok":true,"protocol":1,"server":"dynd","version":"1","transitions":[],"#
          + #""parameters":{"t":[{"name":"x","default":null,"source":"s"}]}}"#,
        "parameters.t[0].default"
      ),
    ])
  func malformed(text: String, path: String) {
    do {
      let message = try ServerMessageDecoder().decode(text)
      Issue.record("decoded \(message)")
    } catch {
      #expect(error.message.contains("'\(path)'"), "\(error)")
    }
  }
}
