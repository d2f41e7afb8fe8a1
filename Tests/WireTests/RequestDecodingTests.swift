import Primitives
import Testing
import Wire

/// Every core op of protocol/PROTOCOL.md (“5. Ops”, the table marked core), decoded from a line
/// that uses its fields.
@Suite("Request decoding")
struct RequestDecodingTests {
  @Test func hello() throws {
    #expect(try decoded(#"{"op":"hello"}"#) == Request(id: nil, op: Op(HelloRequest())))
  }

  @Test func idIsKeptAsSent() throws {
    #expect(try decoded(#"{"op":"list","id":1e2}"#).id == .number("1e2"))
    #expect(try decoded(#"{"op":"list","id":7}"#).id == .number("7"))
    #expect(try decoded(#"{"op":"list","id":2.50}"#).id == .number("2.50"))
    #expect(try decoded(#"{"op":"list","id":-0.0}"#).id == .number("-0.0"))
    #expect(
      try decoded(#"{"op":"list","id":12345678901234567890}"#).id
        == .number("12345678901234567890"))
    #expect(try decoded(#"{"op":"list","id":"a\"b"}"#).id == .string("a\"b"))
    #expect(
      try decoded(#"{"id":"x","op":"list"}"#) == Request(id: .string("x"), op: Op(ListRequest()))
    )
  }

  /// An integer id beyond 64 bits is read as a double like every number, and echoed as sent.
  @Test func hugeIntegerIdIsKeptAsSent() throws {
    let huge = "123456789012345678901234567890"
    #expect(try decoded(#"{"op":"list","id":\#(huge)}"#).id == .number(huge))
    #expect(try decoded(#"{"id":-\#(huge),"op":"list"}"#).id == .number("-" + huge))
    #expect(try decoded(#"{"op":"list","id" : \#(huge) }"#).id == .number(huge))
    // The key as json-c decodes it, escapes included.
    #expect(try decoded(#"{"op":"list","\u0069d":\#(huge)}"#).id == .number(huge))
    // The last of duplicate ids wins, even when both round to the same double.
    #expect(
      try decoded(#"{"id":\#(huge),"op":"list","id":123456789012345678901234567891}"#).id
        == .number("123456789012345678901234567891"))
    // Other huge integers and nested "id" members do not stand in for it.
    #expect(
      try decoded(
        #"{"op":"open","transition":"snap","params":{"id":100000000000000000000000},"id":\#(huge)}"#
      ).id == .number(huge))
    #expect(
      try decoded(
        #"{"id":\#(huge),"op":"open","transition":"snap","params":{"id":100000000000000000000000}}"#
      ).id == .number(huge))
    // An error reply echoes it too.
    do {
      _ = try RequestDecoder().decode(#"{"op":"list","id":99999999999999999999999,"x":[1]}"#)
      Issue.record("decoded")
    } catch {
      #expect(error.id == .number("99999999999999999999999"))
      #expect(error.error.code == .unknownField)
    }
    // An id beyond the largest double is refused like 1e400, without an id to echo.
    let overflow = "1" + String(repeating: "0", count: 399)
    do {
      _ = try RequestDecoder().decode(#"{"op":"list","id":\#(overflow)}"#)
      Issue.record("decoded")
    } catch {
      #expect(error.id == nil)
      #expect(error.error == ProtocolError(.invalidNumber, "field 'id' is not a finite number"))
    }
  }

  /// `count` must be integral: `1000.0` and `1e3` are 1000, a huge integer is out of range.
  @Test func countTakesAnyIntegralNumber() throws {
    for count in ["1000", "1000.0", "1e3", "10000e-1"] {
      #expect(
        try decoded(#"{"op":"step","session":"s","count":\#(count)}"#).op
          == Op(StepRequest(session: "s", count: 1000)), "\(count)")
    }
    #expect(
      rejection(#"{"op":"step","session":"s","count":123456789012345678901234567890}"#)
        == ProtocolError(
          .outOfRange, "field 'count' must be between 1 and 100000 (got 1.2345678901234568e+29)"))
    #expect(
      rejection(#"{"op":"step","session":"s","count":1.5}"#)
        == ProtocolError(.outOfRange, "field 'count' must be a whole number (got 1.5)"))
    #expect(
      rejection(#"{"op":"tap","id":7,"session":"s","x":-100000000000000000000,"y":1}"#)
        == ProtocolError(
          .outOfRange, "field 'x' must be between -1000000 and 1000000 (got -1e+20)"))
  }

  @Test func errorsEchoTheIdOnceItIsValid() {
    do {
      _ = try RequestDecoder().decode(#"{"id":"r1","op":"tap","session":"s","x":1}"#)
      Issue.record("decoded")
    } catch {
      #expect(error.id == .string("r1"))
      #expect(error.error.code == .missingField)
    }
    do {
      _ = try RequestDecoder().decode(#"{"id":true,"op":"hello"}"#)
      Issue.record("decoded")
    } catch {
      #expect(error.id == nil)
    }
  }

  @Test func openTransitionWithDefaults() throws {
    let request = try decoded(#"{"op":"open","transition":"lock-screen"}"#)
    #expect(
      request.op
        == Op(OpenRequest(source: .transition(name: "lock-screen", params: TransitionParams()))))
    guard let open = request.op.request as? OpenRequest else { return }
    #expect(open.clock == .realtime)
    #expect(open.fps == 60)
    #expect(open.keep == false)
    #expect(open.session == nil)
  }

  @Test func openTransitionWithEverything() throws {
    let request = try decoded(
      #"{"op":"open","id":3,"transition":"wave-pop","session":"w","clock":"manual","fps":120,"#
        + #""keep":true,"params":{"rows":12,"complete_rule":"position","debug":false}}"#)
    let params = TransitionParams([
      TransitionParam(name: "rows", value: .number(12)),
      TransitionParam(name: "complete_rule", value: .string("position")),
      TransitionParam(name: "debug", value: .bool(false)),
    ])
    #expect(
      request
        == Request(
          id: .number("3"),
          op: Op(
            OpenRequest(
              source: .transition(name: "wave-pop", params: params), session: "w",
              clock: .manual, fps: 120, keep: true))))
    #expect(params["rows"] == .number(12))
    #expect(params["missing"] == nil)
  }

  @Test func openScene() throws {
    let request = try decoded(
      #"{"op":"open","session":"box","clock":"manual","scene":{"bounds":[320,568],"#
        + #""items":[{"id":"ball","center":[160,100],"size":[40,40],"shape":"ellipse"}],"#
        + #""behaviors":[{"type":"gravity","items":["ball"]},"#
        + #"{"type":"collision","id":"walls","items":["ball"],"reference_bounds":true}]}}"#)
    let scene = SceneSpec(
      bounds: Rect(x: 0, y: 0, width: 320, height: 568),
      items: [
        ItemSpec(
          id: "ball", center: Point(x: 160, y: 100), size: Size(width: 40, height: 40),
          shape: .ellipse)
      ],
      behaviors: [
        .gravity(GravitySpec(items: ["ball"])),
        .collision(CollisionSpec(id: "walls", items: ["ball"], referenceBounds: true)),
      ])
    #expect(
      request.op == Op(OpenRequest(source: .scene(scene), session: "box", clock: .manual)))
  }

  @Test func gesture() throws {
    let request = try decoded(
      #"{"op":"gesture","session":"s","phase":"ended","x":160,"y":300.5,"t":12.25,"vx":0,"#
        + #""vy":-850}"#)
    #expect(
      request.op
        == Op(
          GestureRequest(
            session: "s", phase: .ended, point: Point(x: 160, y: 300.5), t: 12.25,
            velocity: Vector(dx: 0, dy: -850))))
    let minimal = try decoded(#"{"op":"gesture","session":"s","phase":"began","x":1,"y":2}"#)
    #expect(
      minimal.op
        == Op(GestureRequest(session: "s", phase: .began, point: Point(x: 1, y: 2))))
    #expect(minimal.op.session == "s")
    #expect(minimal.op.name == "gesture")
  }

  /// `estimator` picks how the velocity of that request is estimated; `platform` when absent.
  @Test func gestureEstimator() throws {
    let base = #"{"op":"gesture","session":"s","phase":"ended","x":1,"y":2"#
    for estimator in VelocityEstimator.allCases {
      let request = try decoded(base + #","estimator":""# + estimator.rawValue + #""}"#)
      #expect(
        request.op
          == Op(
            GestureRequest(
              session: "s", phase: .ended, point: Point(x: 1, y: 2), estimator: estimator)))
    }
    #expect(VelocityEstimator.allCases.map(\.rawValue) == ["platform", "linear"])
    guard let absent = try decoded(base + "}").op.request as? GestureRequest else {
      Issue.record("not a gesture")
      return
    }
    #expect(absent.sample.estimator == .platform)
    #expect(
      rejection(base + #","estimator":"lsq2"}"#)
        == ProtocolError(
          .outOfRange, "field 'estimator' must be one of platform, linear (got 'lsq2')"))
    #expect(
      rejection(base + #","estimator":"Linear"}"#)?.code == .outOfRange, "words are exact")
    #expect(
      rejection(base + #","estimator":1}"#)
        == ProtocolError(.wrongType, "field 'estimator' must be a string, not a number"))
    #expect(rejection(base + #","estimator":null}"#)?.code == .wrongType)
    #expect(rejection(base + #","estimater":"linear"}"#)?.code == .unknownField)
    #expect(
      rejection(#"{"op":"tap","session":"s","x":1,"y":2,"estimator":"linear"}"#)?.code
        == .unknownField, "only gesture has it")
  }

  @Test func tapAndSwipe() throws {
    #expect(
      try decoded(#"{"op":"tap","session":"s","x":280,"y":528}"#).op
        == Op(TapRequest(session: "s", point: Point(x: 280, y: 528))))
    #expect(
      try decoded(#"{"op":"swipe","session":"m","direction":"right"}"#).op
        == Op(SwipeRequest(session: "m", direction: .right)))
    #expect(
      try decoded(#"{"op":"swipe","session":"m","direction":"up","x":1,"y":2,"vx":3,"vy":-4}"#).op
        == Op(
          SwipeRequest(
            session: "m", direction: .up, point: Point(x: 1, y: 2),
            velocity: Vector(dx: 3, dy: -4))))
  }

  @Test func step() throws {
    #expect(
      try decoded(#"{"op":"step","session":"s"}"#).op == Op(StepRequest(session: "s")))
    #expect(
      try decoded(#"{"op":"step","session":"s","dt":0.008,"count":120}"#).op
        == Op(StepRequest(session: "s", dt: 0.008, count: 120)))
    #expect(
      try decoded(#"{"op":"step","session":"s","dt":0.005,"count":1e5}"#).op
        == Op(StepRequest(session: "s", dt: 0.005, count: 100_000)))
  }

  @Test func sessionOps() throws {
    #expect(try decoded(#"{"op":"get","session":"s"}"#).op == Op(GetRequest(session: "s")))
    #expect(try decoded(#"{"op":"watch","session":"s"}"#).op == Op(WatchRequest(session: "s")))
    #expect(try decoded(#"{"op":"close","session":"s"}"#).op == Op(CloseRequest(session: "s")))
    #expect(try decoded(#"{"op":"list"}"#).op == Op(ListRequest()))
    #expect(
      try decoded(#"{"op":"list","from":5,"limit":2}"#).op
        == Op(ListRequest(from: 5, limit: 2)))
    #expect(
      try decoded(#"{"op":"remove_all_behaviors","session":"s"}"#).op
        == Op(RemoveAllBehaviorsRequest(session: "s")))
    #expect(
      try decoded(#"{"op":"get","session":"名前 ✓"}"#).op == Op(GetRequest(session: "名前 ✓")))
    #expect(
      try decoded(#"{"op":"behaviors","session":"s"}"#).op == Op(BehaviorsRequest(session: "s")))
  }

  /// `behaviors` (extension) takes `session` and nothing else, checked as every op's fields.
  @Test func behaviorsTakesOnlyASession() {
    #expect(
      rejection(#"{"op":"behaviors","session":"s","behavior":"b1"}"#)
        == ProtocolError(.unknownField, "field 'behavior' is not defined for op 'behaviors'"))
    #expect(
      rejection(#"{"op":"behaviors","id":1}"#)
        == ProtocolError(.missingField, "field 'session' is required for op 'behaviors'"))
    #expect(
      rejection(#"{"op":"behaviors","session":5}"#)
        == ProtocolError(.wrongType, "field 'session' must be a string, not a number"))
    #expect(rejection(#"{"op":"behavior","session":"s"}"#)?.message.contains("'behaviors'") == true)
  }

  @Test func itemOps() throws {
    #expect(
      try decoded(
        #"{"op":"add_item","session":"s","item":{"id":"tri","center":[10,20],"size":[30,30],"#
          + #""angle":0.5,"shape":"path","path":[[0,-10],[10,10],[-10,10]]}}"#
      ).op
        == Op(
          AddItemRequest(
            session: "s",
            item: ItemSpec(
              id: "tri", center: Point(x: 10, y: 20), size: Size(width: 30, height: 30),
              angle: 0.5,
              shape: .path([
                Point(x: 0, y: -10), Point(x: 10, y: 10), Point(x: -10, y: 10),
              ])))))
    #expect(
      try decoded(#"{"op":"remove_item","session":"s","item":"tri"}"#).op
        == Op(RemoveItemRequest(session: "s", item: "tri")))
    #expect(
      try decoded(#"{"op":"set_item","session":"s","item":"a","center":[1,2],"angle":3}"#).op
        == Op(
          SetItemRequest(session: "s", item: "a", center: Point(x: 1, y: 2), angle: 3)))
    #expect(
      try decoded(#"{"op":"set_item","session":"s","item":"a"}"#).op
        == Op(SetItemRequest(session: "s", item: "a")))
    #expect(
      try decoded(
        #"{"op":"add_velocity","session":"s","item":"a","velocity":[0,-500],"angular":1.5}"#
      ).op
        == Op(
          AddVelocityRequest(
            session: "s", item: "a", velocity: Vector(dx: 0, dy: -500), angular: 1.5)))
  }

  @Test func behaviorOps() throws {
    #expect(
      try decoded(
        #"{"op":"add_behavior","session":"s","behavior":{"type":"snap","id":"home","item":"a","#
          + #""point":[160,284]}}"#
      ).op
        == Op(
          AddBehaviorRequest(
            session: "s",
            behavior: .snap(SnapSpec(id: "home", item: "a", point: Point(x: 160, y: 284))))))
    #expect(
      try decoded(#"{"op":"remove_behavior","session":"s","behavior":"home"}"#).op
        == Op(RemoveBehaviorRequest(session: "s", behavior: "home")))
    var update = BehaviorUpdate()
    update.damping = 0.9
    update.point = Point(x: 1, y: 2)
    #expect(
      try decoded(
        #"{"op":"set_behavior","session":"s","behavior":"home","damping":0.9,"point":[1,2]}"#
      ).op == Op(SetBehaviorRequest(session: "s", behavior: "home", update: update)))
  }

  @Test func unknownFieldSuggestsTheNearestName() {
    let error = rejection(
      #"{"op":"set_behavior","session":"s","behavior":"b","elasticty":0.5}"#)
    #expect(
      error
        == ProtocolError(
          .unknownField,
          "field 'elasticty' is not defined for op 'set_behavior'; did you mean 'elasticity'?"))
    let nested = rejection(
      #"{"op":"add_behavior","session":"s","behavior":{"type":"dynamic_item","items":[],"#
        + #""elasticty":0.5}}"#)
    #expect(
      nested?.message
        == "field 'behavior.elasticty' is not defined for a 'dynamic_item' behavior; did you "
        + "mean 'elasticity'?")
  }

  @Test func messagesNameTheFieldByItsPath() {
    #expect(
      rejection(
        #"{"op":"open","scene":{"items":[{"id":"a","center":[0,0],"size":[1,1]},"#
          + #"{"id":"b","center":[0,0],"size":[1,0.5]}]}}"#)
        == ProtocolError(
          .outOfRange, "field 'scene.items[1].size[1]' must be between 1 and 100000 (got 0.5)"))
    #expect(
      rejection(#"{"op":"tap","session":"s","x":"1","y":2}"#)
        == ProtocolError(.wrongType, "field 'x' must be a number, not a string"))
    #expect(
      rejection(#"{"op":"tap","session":"s","x":1}"#)
        == ProtocolError(.missingField, "field 'y' is required for op 'tap'"))
    #expect(
      rejection(#"{"op":"gesture","session":"s","phase":"moved","x":1,"y":2}"#)
        == ProtocolError(
          .outOfRange, "field 'phase' must be one of began, changed, ended, cancelled (got 'moved')"
        ))
    #expect(
      rejection(#"{"op":"helo"}"#)
        == ProtocolError(.unknownOp, "no op is named 'helo'; did you mean 'hello'?"))
    #expect(
      rejection("[1]")
        == ProtocolError(.notAnObject, "a request must be a JSON object, not an array"))
    #expect(
      rejection(#"{"op":"tap","session":"s","x":1e999,"y":1}"#)
        == ProtocolError(.invalidNumber, "field 'x' is not a finite number (it overflows)"))
    #expect(
      rejection(String(repeating: "[", count: 70) + String(repeating: "]", count: 70))?.message
        .contains("nesting deeper than 64 levels") == true)
  }

  @Test func checksRunInTheDocumentedOrder() {
    // Unknown fields are reported before missing or wrong ones.
    #expect(rejection(#"{"op":"tap","x":"a","bogus":1}"#)?.code == .unknownField)
    // A bad op is reported before its fields.
    #expect(rejection(#"{"op":"nope","x":"a"}"#)?.code == .unknownOp)
    // Lexical faults come before everything.
    #expect(rejection(#"{"op":"nope","x":NaN}"#)?.code == .invalidNumber)
  }
}
