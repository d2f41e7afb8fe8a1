import Primitives
import Testing
import Wire

private func line(_ write: (inout MessageEncoder) -> Void) -> [UInt8] {
  var encoder = MessageEncoder()
  write(&encoder)
  return Array(encoder.bytes.dropLast())  // without its \n
}

private func serverMessage(_ bytes: [UInt8], answering op: (any OpRequest.Type)? = nil) throws
  -> ServerMessage
{
  try ServerMessageDecoder().decode(bytes, answering: op)
}

private func serverMessage(_ text: String, answering op: (any OpRequest.Type)? = nil) throws
  -> ServerMessage
{
  try ServerMessageDecoder().decode(text, answering: op)
}

// Values at wire precision: 3 decimals, 6 for angles, angular velocities and `values`.
private let sized = [
  ItemState(
    id: "screen", center: Point(x: 160, y: 284.125), angle: -0.785398,
    velocity: Vector(dx: 0, dy: -1400.5), angularVelocity: 0.000001,
    size: Size(width: 320, height: 568)),
  ItemState(id: "b", center: Point(x: -1e5, y: 0.001), size: Size(width: 1, height: 2.5)),
]
/// With shapes, as `get` replies carry them (a rectangle writes none).
private let shaped =
  sized + [
    ItemState(
      id: "ball", center: Point(x: 50, y: 60), size: Size(width: 40, height: 40), shape: .ellipse),
    ItemState(
      id: "wedge", center: Point(x: 5, y: 6), size: Size(width: 20, height: 10),
      shape: .path([Point(x: -10, y: 5), Point(x: 10, y: 5), Point(x: 0.125, y: -5)])),
  ]
private let unsized = sized.map {
  ItemState(
    id: $0.id, center: $0.center, angle: $0.angle, velocity: $0.velocity,
    angularVelocity: $0.angularVelocity)
}

private var geometry: DebugGeometry {
  var g = DebugGeometry()
  g.boundaries = [
    .path(id: "floor", points: [Point(x: 0, y: 568), Point(x: 320, y: 568)]),
    .referenceBounds(Rect(x: 0, y: 0, width: 320, height: 568.5)),
  ]
  g.attachments = [
    DebugGeometry.Attachment(
      kind: "distance", item: "a", itemPoint: Point(x: 1, y: 2), to: nil,
      toPoint: Point(x: 3, y: 4), spring: true, length: 10.125),
    DebugGeometry.Attachment(
      kind: "pin", item: "a", itemPoint: .zero, to: "b", toPoint: Point(x: 5, y: 6), spring: false,
      length: 0),
    DebugGeometry.Attachment(
      kind: "sliding", item: "a", itemPoint: Point(x: 160, y: 764), to: nil,
      toPoint: Point(x: 160, y: 284), spring: false, length: 480, axis: Vector(dx: 0, dy: 1)),
  ]
  g.snaps = [DebugGeometry.Snap(item: "a", point: Point(x: 7, y: 8))]
  g.pushes = [
    DebugGeometry.Push(
      items: ["a", "b"], mode: "instantaneous", vector: Vector(dx: 2, dy: 0), active: false)
  ]
  g.gravity = [DebugGeometry.Gravity(items: ["a"], vector: Vector(dx: 0, dy: 1))]
  g.fields = [
    DebugGeometry.Field(
      id: "pull", kind: "radial_gravity", position: Point(x: 160, y: 284.5),
      region: .difference(.radius(100), .size(Size(width: 20, height: 10.125))), strength: -2.5,
      items: ["a", "g"],
      samples: [
        DebugGeometry.Sample(point: Point(x: 60, y: 284.5), force: Vector(dx: 2.5, dy: 0)),
        DebugGeometry.Sample(point: Point(x: 160, y: 184.5), force: Vector(dx: 0, dy: -0.001)),
      ]),
    DebugGeometry.Field(
      id: "wind", kind: "noise", position: .zero, region: .infinite, strength: 1, items: [],
      samples: []),
  ]
  g.groups = [
    DebugGeometry.Group(
      id: "g", items: ["b", "c"], center: Point(x: 10, y: 20.5), angle: -0.523599,
      size: Size(width: 40, height: 30))
  ]
  g.contacts = [
    DebugGeometry.Touch(item: "a", partner: .item("b"), point: Point(x: 9, y: 10)),
    DebugGeometry.Touch(item: "a", partner: .boundary("floor"), point: nil),
    DebugGeometry.Touch(item: "b", partner: .boundary(nil), point: Point(x: 0, y: 0.5)),
  ]
  return g
}

/// Every event case, several with optional fields both ways.
private let events: [Event] = [
  .frame(Frame(session: "s", seq: 1, t: 0.017, items: unsized)),
  .frame(
    Frame(
      session: "s", seq: UInt64(Int64.max) + 5, t: 12345.5, items: [], dropped: 3,
      droppedContacts: 2, values: [NamedValue("background_alpha", 0.5), NamedValue("x", -0.000001)])
  ),
  .contact(
    Contact(session: "s", phase: .began, item: "a", partner: .item("b"), point: Point(x: 1, y: 2))),
  .contact(Contact(session: "s", phase: .ended, item: "a", partner: .boundary("floor"))),
  .contact(Contact(session: "s", phase: .began, item: "a", partner: .boundary(nil), point: .zero)),
  .pause(session: "s", t: 0.95),
  .resume(session: "s", t: 1.383),
  .handoff(
    Handoff(
      session: "s", item: "screen", gestureVelocity: Vector(dx: 1234, dy: -1400),
      itemVelocity: Vector(dx: 0, dy: -1400), velocityError: 0.000123)),
  .handoff(
    Handoff(
      session: "s", item: "x", gestureVelocity: Vector(dx: 50000, dy: 0),
      itemVelocity: Vector(dx: 24000, dy: 0),
      constraints: [
        .rail(axis: Vector(dx: 0.707107, dy: -0.707107)), .anchored, .speedLimit(24000),
      ])),
  .handoff(
    Handoff(
      session: "s", item: "screen", gestureVelocity: .zero, itemVelocity: .zero,
      estimate: ReleaseEstimate(.pointerStopped, samples: 7, stillMilliseconds: 55.125))),
  .handoff(
    Handoff(
      session: "s", item: "screen", gestureVelocity: Vector(dx: 0, dy: -1e6),
      itemVelocity: Vector(dx: 0, dy: -24000), constraints: [.speedLimit(24000)],
      estimate: ReleaseEstimate(.limited, samples: 2))),
  .done(session: "s", outcome: "opened", values: []),
  .done(session: "s", outcome: "popped", values: [NamedValue("scale", 1.25)]),
  .debug(session: "s", seq: 7, t: 0.117, geometry: geometry),
  .debug(session: "s", seq: 8, t: 0, geometry: DebugGeometry()),
  .closed(session: "s", reason: "owner_left"),
  .shutdown(reason: "terminated"),
  .shutdown(reason: nil),
  .slow(session: "s", t: 2.5, frameMilliseconds: 21.125, budgetMilliseconds: 16.667),
  .onTime(session: "s", t: 3),
  .contactLimit(session: "s", t: 4.25, limit: 16384),
  .action(
    ActionEvent(session: "s", seq: 12, t: 0.2, behavior: "drop", name: "landed", item: "ball")),
  .action(ActionEvent(session: "s", seq: 1, t: 0.008, behavior: "b3", name: "tick", item: nil)),
]

/// Every reply body, with the op it answers.
private let bodies: [(any OpRequest.Type, ReplyBody)] = [
  (CloseRequest.self, .empty),
  (HelloRequest.self, .hello(version: "0.1.0", transitions: ["lock-screen", "wave-pop"])),
  (HelloRequest.self, .hello(protocol: 2, server: "other", version: "9", transitions: [])),
  (OpenRequest.self, .open(session: "L", items: sized)),
  (StepRequest.self, .step(t: 0.033, running: true)),
  (GetRequest.self, .get(t: 0.95, running: false, items: shaped)),
  (WatchRequest.self, .watch(t: 0.95, running: false, outcome: "opened", items: unsized)),
  (WatchRequest.self, .watch(t: 0, running: true, outcome: nil, items: [])),
  (TapRequest.self, .input(taken: true)),
  (SwipeRequest.self, .input(taken: false)),
  (ListRequest.self, .list(SessionPage([]))),
  (
    ListRequest.self,
    .list(
      SessionPage([
        SessionSummary(session: "L", transition: "lock-screen", clock: .manual, running: true),
        SessionSummary(
          session: "d", transition: nil, clock: .realtime, running: false, missedTicks: 0),
      ]))
  ),
  (
    ListRequest.self,
    .list(
      SessionPage(
        [SessionSummary(session: "L", transition: nil, clock: .manual, running: true)], next: 7))
  ),
  (AddBehaviorRequest.self, .addBehavior(behavior: "b1")),
  (DebugRequest.self, .debug(geometry)),
  (
    HelloRequest.self,
    .hello(version: "0.1.0", transitions: ["lock-screen", "wave-pop"], parameters: parameterTables)
  ),
  (BehaviorsRequest.self, .behaviors([])),
  (BehaviorsRequest.self, .behaviors(behaviorStates)),
  (ItemsInRectRequest.self, .itemsInRect(items: ["a", "b"])),
  (ItemsInRectRequest.self, .itemsInRect(items: [])),
  (
    GetRequest.self,
    .get(
      t: 1, running: true, items: sized,
      details: SessionDetails(groups: [GroupSpec(id: "g", items: ["screen", "b"])]))
  ),
  (AddGroupRequest.self, .empty),
]

@Suite("Server message decoding")
struct ServerMessageTests {
  @Test("every event kind is covered")
  func everyEventIsCovered() {
    #expect(Set(events.map(\.kind)) == Set(EventName.allCases))
  }

  @Test("decode(encode(event)) is the event", arguments: events.indices)
  func eventsRoundTrip(index: Int) throws {
    let event = events[index]
    let bytes = line { $0.encode(event) }
    #expect(try serverMessage(bytes) == .event(event), "\(String(decoding: bytes, as: UTF8.self))")
    #expect(ServerMessage.event(event).eventName == event.name)
  }

  @Test("decode(encode(reply)) is the reply, for the op it answers", arguments: bodies.indices)
  func repliesRoundTrip(index: Int) throws {
    let (op, body) = bodies[index]
    for id: RequestID? in [nil, .string("q-1"), .number("1e2"), .number("-7")] {
      let reply = Reply(id: id, body)
      let bytes = line { $0.encode(reply) }
      #expect(try serverMessage(bytes, answering: op) == .reply(reply))
    }
  }

  @Test("without the op, a reply's body is told by its fields", arguments: bodies.indices)
  func repliesWithoutTheOp(index: Int) throws {
    let body = bodies[index].1
    #expect(
      try serverMessage(line { $0.encode(Reply(id: nil, body)) }) == .reply(Reply(id: nil, body)))
  }

  @Test("a body is read as the op's reply: extra fields are ignored, a disabled debug is empty")
  func bodiesFollowTheOp() throws {
    let get = #"{"ok":true,"t":0.5,"running":true,"items":[]}"#
    #expect(
      try serverMessage(get, answering: StepRequest.self).replyBody == .step(t: 0.5, running: true))
    #expect(
      try serverMessage(get, answering: GetRequest.self).replyBody
        == .get(t: 0.5, running: true, items: []))
    #expect(try serverMessage(get, answering: TapRequest.self).replyBody == .empty)
    #expect(try serverMessage(#"{"ok":true}"#, answering: DebugRequest.self).replyBody == .empty)
  }

  @Test("error replies: known codes typed, unknown codes kept as they are")
  func errors() throws {
    for error in [
      ProtocolError(.unknownSession, "no session is named 'x'"),
      ProtocolError(.unknownField, "field '\u{1b}]0' is not defined \u{202e}"),
    ] {
      let reply = Reply(id: .number("3"), error: error)
      let message = try serverMessage(line { $0.encode(reply) }, answering: GetRequest.self)
      #expect(message == .reply(reply))
      #expect(message.isReply)
      #expect(message.error?.code == error.code.rawValue)
    }
    let newer = try serverMessage(
      #"{"ok":false,"id":"a","error":{"code":"too_hot","message":"later","field":"x"}}"#)
    #expect(newer == .unknownError(id: .string("a"), code: "too_hot", message: "later"))
    #expect(newer.isReply)
    #expect(newer.error?.message == "later")
    // A request that could not be read has no id to echo: null is read as none.
    let unread = try serverMessage(
      #"{"ok":false,"id":null,"error":{"code":"bad_json","message":"not JSON"}}"#)
    #expect(unread == .reply(Reply(id: nil, error: ProtocolError(.badJSON, "not JSON"))))
  }

  @Test("a newer daemon's extra fields, events and constraint kinds are tolerated")
  func newerDaemons() throws {
    let frame = try serverMessage(
      #"{"ev":"frame","session":"s","seq":2,"t":0.5,"items":[{"id":"a","center":[1,2],"angle":0,"#
        + #""velocity":[0,0],"angular_velocity":0,"spin":{"x":[1]}}],"new_field":[null,{}]}"#)
    #expect(
      frame
        == .event(
          .frame(
            Frame(
              session: "s", seq: 2, t: 0.5, items: [ItemState(id: "a", center: Point(x: 1, y: 2))]))
        ))
    let unknown = try serverMessage(#"{"ev":"sparkle","session":"s","level":3}"#)
    #expect(unknown.eventName == "sparkle")
    #expect(unknown.session == "s")
    #expect(!unknown.isReply)
    guard case .unknownEvent(_, let fields) = unknown else {
      Issue.record("not an unknown event: \(unknown)")
      return
    }
    #expect(fields["level"] == .number(3))
    let handoff = try serverMessage(
      #"{"ev":"handoff","session":"s","item":"a","gesture_velocity":[1,0],"item_velocity":[0,0],"#
        + #""constraints":[{"kind":"magnet","pull":2},{"kind":"anchored"}],"velocity_error":0}"#)
    guard case .event(.handoff(let h)) = handoff else {
      Issue.record("not a handoff: \(handoff)")
      return
    }
    #expect(h.constraints == [.anchored])
  }

  @Test(
    "lines that are not messages are errors naming what is wrong",
    arguments: [
      ("not json", ErrorCode.badJSON),
      ("[1]", .notAnObject),
      (#"{"op":"hello"}"#, .missingField),
      (#"{"ok":"yes"}"#, .wrongType),
      (#"{"ok":true,"session":"L"}"#, .missingField),
      (#"{"ev":"pause","session":"s"}"#, .missingField),
      (#"{"ev":"pause","session":"s","t":"soon"}"#, .wrongType),
      (#"{"ev":"frame","session":"s","seq":-1,"t":0,"items":[]}"#, .outOfRange),
      (#"{"ev":"contact","session":"s","phase":"touching","item":"a","with":"b"}"#, .outOfRange),
      (#"{"ev":"contact","session":"s","phase":"began","item":"a"}"#, .missingField),
      (#"{"ev":"pause","session":"s","t":1e999}"#, .invalidNumber),
    ])
  func malformed(text: String, code: ErrorCode) {
    do {
      let message = try serverMessage(text, answering: OpenRequest.self)
      Issue.record("decoded \(message)")
    } catch {
      #expect((error as? ProtocolError)?.code == code, "\(error)")
    }
  }

  @Test("the message head tells replies, events and frames apart without parsing")
  func heads() {
    func head(_ text: String) -> MessageHead { MessageHead(Array(text.utf8)) }
    #expect(head(#"{"ok":true,"id":1}"#).kind == .reply(ok: true))
    #expect(head(#"{"ok":false,"error":{}}"#).kind == .reply(ok: false))
    let frame = head(#"{"ev":"frame","session":"b12","seq":345,"t":0.1,"items":[]}"#)
    #expect(frame.kind == .event("frame"))
    #expect(frame.isEvent)
    #expect(frame.session == "b12")
    #expect(frame.seq == 345)
    #expect(frame.t == 0.1)
    let pause = head(#"{"ev":"pause","session":"b1","t":0.5}"#)
    #expect(pause.eventName == "pause")
    #expect(pause.session == "b1")
    #expect(pause.seq == nil)
    #expect(pause.t == nil)
    #expect(head(#"{"ev":"shutdown"}"#).session == nil)
    #expect(head(#"{"op":"hello","id":1}"#).kind == .other)
    #expect(head("").kind == .other)
    #expect(head(#"{"ev":"frame","session":"a\"b","seq":1}"#).session == nil)
    #expect(head(#"{"ev":"frame","session":"s","seq":1.5}"#).seq == nil)
    #expect(head(#"{"ev":"frame","session":"s","seq":1.5,"t":2}"#).t == nil)
  }

  @Test(
    "the message head reads a frame's t after seq, as a JSON number",
    arguments: [
      ("12", 12), ("0", 0), ("-0.25", -0.25), ("1.5e2", 150), ("2E-3", 0.002), (" 7.125 ", 7.125),
      ("0.017,", 0.017), ("01", nil), ("1.", nil), (".5", nil), ("+1", nil), ("1e", nil),
      ("-", nil), ("\"1\"", nil), ("1e999", nil), ("true", nil), ("", nil),
    ] as [(String, Double?)])
  func headTime(text: String, expected: Double?) {
    let line = #"{"ev":"frame","session":"s","seq":3,"t":"# + text + #","items":[]}"#
    let head = MessageHead(Array(line.utf8))
    #expect(head.seq == 3)
    #expect(head.t == expected, "\(line)")
  }

  @Test("the message head reads what the encoder writes")
  func headsOfEncodedEvents() {
    // What the encoder writes, the head reads.
    for event in events {
      let bytes = line { $0.encode(event) }
      let head = MessageHead(bytes)
      #expect(head.eventName == event.name)
      #expect(head.session == event.session)
      switch event {
      case .frame(let f):
        #expect(head.seq == f.seq)
        #expect(head.t == f.t)
      case .debug(_, let seq, let t, _):
        #expect(head.seq == seq)
        #expect(head.t == t)
      case .action(let a):
        #expect(head.seq == a.seq)
        #expect(head.t == a.t)
      default:
        #expect(head.seq == nil)
        #expect(head.t == nil)
      }
    }
  }
}
