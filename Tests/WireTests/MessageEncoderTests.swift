import JSON
import Primitives
import Testing
import Wire

private func number(_ value: Double, decimals: Int = 3) -> String {
  var encoder = MessageEncoder()
  encoder.reply(id: nil, [.number("n", value, decimals: decimals)])
  let line = text(encoder)
  // {"ok":true,"n":<number>}\n
  return String(line.dropFirst(#"{"ok":true,"n":"#.count).dropLast(2))
}

/// Golden lines for replies and events.
@Suite("Message encoding")
struct MessageEncoderTests {
  @Test(arguments: [
    (160.0, "160"), (12.5, "12.5"), (0.1 + 0.2, "0.3"), (-0.0, "0"), (-0.0004, "0"),
    (0.0004, "0"), (1.0 / 3, "0.333"), (-2.0 / 3, "-0.667"), (123456.789, "123456.789"),
    (-7.0001, "-7"), (1e-7, "0"), (999.9996, "1000"), (-1.5, "-1.5"), (0.01, "0.01"),
    (1_000_000, "1000000"), (0.0015, "0.002"), (1e30, "1e+30"), (-1e30, "-1e+30"),
  ])
  func positionsHaveAtMostThreeDecimals(value: Double, expected: String) {
    #expect(number(value) == expected)
  }

  @Test(arguments: [
    (Double.pi, "3.141593"), (-Double.pi / 2, "-1.570796"), (1e-7, "0"), (0.5, "0.5"),
    (-0.0000004, "0"), (2e-6, "0.000002"),
  ])
  func anglesHaveAtMostSixDecimals(value: Double, expected: String) {
    #expect(number(value, decimals: 6) == expected)
  }

  @Test("DEL, C1 controls and bidi formatting characters in a string are escaped; others are not")
  func terminalHostileCharactersAreEscaped() {
    var encoder = MessageEncoder()
    encoder.errorReply(
      id: nil,
      ProtocolError(
        .unknownField,
        "a\u{7F}b\u{85}c\u{9F}d\u{202E}e\u{2066}f\u{200F}g\u{061C}h é→€😀 \u{A0}\u{2028}"))
    let text = String(decoding: encoder.bytes, as: UTF8.self)
    #expect(
      text.contains(
        #"a\u007fb\u0085c\u009fd\u202ee\u2066f\u200fg\u061ch é→€😀 \#u{A0}\#u{2028}"#),
      "\(text)")
  }

  @Test func nonFiniteNumbersAreWrittenAsZeroAndCounted() {
    var encoder = MessageEncoder()
    encoder.frame(
      session: "s", seq: 1, t: .nan,
      items: [
        ItemState(
          id: "a", center: Point(x: .infinity, y: -.infinity), angle: .nan,
          velocity: Vector(dx: .nan, dy: 1), angularVelocity: .infinity)
      ])
    #expect(
      text(encoder)
        == #"{"ev":"frame","session":"s","seq":1,"t":0,"items":[{"id":"a","center":[0,0],"#
        + #""angle":0,"velocity":[0,1],"angular_velocity":0}]}"# + "\n")
    #expect(encoder.nonFiniteCount == 6)
  }

  @Test func stringsAreEscaped() {
    var encoder = MessageEncoder()
    encoder.errorReply(
      id: .string("q\"\\"), ProtocolError(.badJSON, "a\u{1}b\nc\t\u{1F}é😀/\u{7F}"))
    #expect(
      text(encoder)
        == #"{"ok":false,"id":"q\"\\","error":{"code":"bad_json","#
        + #""message":"a\u0001b\u000ac\u0009\u001fé😀/\u007f"}}"# + "\n")
  }

  @Test func replyEchoesTheIdExactly() throws {
    var encoder = MessageEncoder()
    for (line, expected) in [
      (#"{"op":"hello","id":1e2}"#, #"{"ok":true,"id":1e2}"#),
      (#"{"op":"hello","id":2.50}"#, #"{"ok":true,"id":2.50}"#),
      (#"{"op":"hello","id":-3}"#, #"{"ok":true,"id":-3}"#),
      (#"{"op":"hello","id":"7"}"#, #"{"ok":true,"id":"7"}"#),
      (#"{"op":"hello"}"#, #"{"ok":true}"#),
    ] {
      encoder.removeAll()
      encoder.reply(id: try decoded(line).id)
      #expect(text(encoder) == expected + "\n")
    }
  }

  @Test func errorReplyForARejectedLine() {
    var encoder = MessageEncoder()
    do {
      _ = try RequestDecoder().decode(#"{"op":"tap","id":9,"session":"s","x":1}"#)
    } catch {
      encoder.errorReply(error)
    }
    #expect(
      text(encoder)
        == #"{"ok":false,"id":9,"error":{"code":"missing_field","#
        + #""message":"field 'y' is required for op 'tap'"}}"# + "\n")
  }

  @Test func typedReplies() {
    var encoder = MessageEncoder()
    let ball = ItemState(
      id: "ball", center: Point(x: 160, y: 100.25), angle: 0.1,
      velocity: Vector(dx: 0, dy: -12.5), angularVelocity: -0.25,
      size: Size(width: 40, height: 40))
    encoder.helloReply(id: .number("1"), version: "0.1.0", transitions: ["lock-screen", "snap"])
    encoder.openReply(id: nil, session: "s1", items: [ball])
    encoder.stepReply(id: .string("st"), t: 1.0 / 60, running: true)
    encoder.getReply(id: nil, t: 2, running: false, items: [])
    encoder.watchReply(id: nil, t: 0.5, running: true, outcome: nil, items: [ball])
    encoder.listReply(
      id: nil,
      page: SessionPage([
        SessionSummary(
          session: "a", transition: "lock-screen", clock: .realtime, running: true,
          missedTicks: 3),
        SessionSummary(session: "b", transition: nil, clock: .manual, running: false),
      ]))
    encoder.listReply(
      id: nil,
      page: SessionPage(
        [SessionSummary(session: "c", transition: nil, clock: .manual, running: false)], next: 9))
    encoder.addBehaviorReply(id: .number("4"), behavior: "b1")
    let expected = [
      #"{"ok":true,"id":1,"protocol":1,"server":"dynd","version":"0.1.0","#
        + #""transitions":["lock-screen","snap"]}"#,
      #"{"ok":true,"session":"s1","items":[{"id":"ball","center":[160,100.25],"angle":0.1,"#
        + #""velocity":[0,-12.5],"angular_velocity":-0.25,"size":[40,40]}]}"#,
      #"{"ok":true,"id":"st","t":0.016667,"running":true}"#,
      #"{"ok":true,"t":2,"running":false,"items":[]}"#,
      #"{"ok":true,"items":[{"id":"ball","center":[160,100.25],"angle":0.1,"#
        + #""velocity":[0,-12.5],"angular_velocity":-0.25}],"t":0.5,"running":true,"outcome":null}"#,
      #"{"ok":true,"sessions":[{"session":"a","transition":"lock-screen","clock":"realtime","#
        + #""running":true,"missed_ticks":3},{"session":"b","transition":null,"clock":"manual","running":false}]}"#,
      #"{"ok":true,"sessions":[{"session":"c","transition":null,"clock":"manual","running":false}],"next":9}"#,
      #"{"ok":true,"id":4,"behavior":"b1"}"#,
    ]
    #expect(text(encoder) == expected.map { $0 + "\n" }.joined())
  }

  /// `get` writes an item's shape as `open`'s item spec takes it, nothing for a rectangle;
  /// `open` and `watch` replies and frames write none.
  @Test func getRepliesCarryShapes() {
    var encoder = MessageEncoder()
    let box = ItemState(id: "box", center: Point(x: 1, y: 2), size: Size(width: 3, height: 4))
    var ball = box
    ball.id = "ball"
    ball.shape = .ellipse
    var wedge = box
    wedge.id = "wedge"
    wedge.shape = .path([Point(x: -1.5, y: 2), Point(x: 1.5, y: 2), Point(x: 0.0004, y: -2)])
    encoder.getReply(id: nil, t: 0, running: false, items: [box, ball, wedge])
    encoder.openReply(id: nil, session: "s", items: [ball])
    encoder.watchReply(id: nil, t: 0, running: false, outcome: nil, items: [wedge])
    encoder.frame(session: "s", seq: 1, t: 0, items: [ball])
    let state = #""center":[1,2],"angle":0,"velocity":[0,0],"angular_velocity":0"#
    let expected = [
      #"{"ok":true,"t":0,"running":false,"items":[{"id":"box","# + state + #","size":[3,4]},"#
        + #"{"id":"ball","# + state + #","size":[3,4],"shape":"ellipse"},"#
        + #"{"id":"wedge","# + state + #","size":[3,4],"shape":"path","#
        + #""path":[[-1.5,2],[1.5,2],[0,-2]]}]}"#,
      #"{"ok":true,"session":"s","items":[{"id":"ball","# + state + #","size":[3,4]}]}"#,
      #"{"ok":true,"items":[{"id":"wedge","# + state + #"}],"t":0,"running":false,"#
        + #""outcome":null}"#,
      #"{"ev":"frame","session":"s","seq":1,"t":0,"items":[{"id":"ball","# + state + "}]}",
    ]
    #expect(text(encoder) == expected.map { $0 + "\n" }.joined())
  }

  @Test func genericReplyFields() {
    var encoder = MessageEncoder()
    encoder.reply(
      id: nil,
      [
        ReplyField("nothing", .null), .integer("n", -42), .strings("names", []),
        ReplyField("nested", .object([.bool("deep", true)])),
        ReplyField("list", .array([ReplyValue.integer(1), ReplyValue.string("x")])),
      ])
    #expect(
      text(encoder)
        == #"{"ok":true,"nothing":null,"n":-42,"names":[],"nested":{"deep":true},"list":[1,"x"]}"#
        + "\n")
  }

  @Test func events() {
    var encoder = MessageEncoder()
    let screen = ItemState(
      id: "screen", center: Point(x: 160, y: 284.0004), angle: -0.0,
      velocity: Vector(dx: 0, dy: 1234.5678), angularVelocity: 0)
    encoder.frame(
      session: "ls", seq: 12, t: 0.2, items: [screen], dropped: 3,
      values: [NamedValue("background_alpha", 0.5)])
    encoder.frame(session: "ls", seq: 13, t: 0.216_666, items: [ItemState]())
    encoder.contact(
      session: "ls", phase: .began, item: "screen", partner: .boundary("floor"),
      point: Point(x: 10, y: 569))
    encoder.contact(session: "ls", phase: .ended, item: "screen", partner: .boundary(nil))
    encoder.contact(
      session: "ls", phase: .began, item: "a", partner: .item("b"), point: Point(x: 1, y: 2))
    encoder.pause(session: "ls", t: 1.5)
    encoder.resume(session: "ls", t: 2)
    encoder.handoff(
      session: "ls", item: "screen", gestureVelocity: Vector(dx: 0, dy: -850),
      itemVelocity: Vector(dx: 0, dy: -849.9999), velocityError: 0.0001)
    encoder.handoff(
      session: "ls", item: "screen", gestureVelocity: Vector(dx: 30000, dy: -40000),
      itemVelocity: Vector(dx: 0, dy: -24000),
      constraints: [.rail(axis: Vector(dx: 0, dy: 1)), .speedLimit(24000)],
      velocityError: 0.0000004)
    encoder.handoff(
      session: "ls", item: "screen", gestureVelocity: .zero, itemVelocity: .zero,
      estimate: ReleaseEstimate(.pointerStopped, samples: 7, stillMilliseconds: 55.00149))
    encoder.handoff(
      session: "ls", item: "screen", gestureVelocity: .zero, itemVelocity: .zero,
      estimate: ReleaseEstimate(.tooFewSamples, samples: 1))
    encoder.done(session: "menu", outcome: "opened", values: [NamedValue("background_alpha", 0.5)])
    encoder.done(session: "ls", outcome: "closed")
    encoder.shutdown()
    encoder.shutdown(reason: "SIGTERM")
    let expected = [
      #"{"ev":"frame","session":"ls","seq":12,"t":0.2,"items":[{"id":"screen","#
        + #""center":[160,284],"angle":0,"velocity":[0,1234.568],"angular_velocity":0}],"#
        + #""dropped":3,"values":{"background_alpha":0.5}}"#,
      #"{"ev":"frame","session":"ls","seq":13,"t":0.216666,"items":[]}"#,
      #"{"ev":"contact","session":"ls","phase":"began","item":"screen","boundary":"floor","#
        + #""point":[10,569]}"#,
      #"{"ev":"contact","session":"ls","phase":"ended","item":"screen","boundary":null}"#,
      #"{"ev":"contact","session":"ls","phase":"began","item":"a","with":"b","point":[1,2]}"#,
      #"{"ev":"pause","session":"ls","t":1.5}"#,
      #"{"ev":"resume","session":"ls","t":2}"#,
      #"{"ev":"handoff","session":"ls","item":"screen","gesture_velocity":[0,-850],"#
        + #""item_velocity":[0,-850],"velocity_error":0.0001}"#,
      #"{"ev":"handoff","session":"ls","item":"screen","gesture_velocity":[30000,-40000],"#
        + #""item_velocity":[0,-24000],"constraints":[{"kind":"rail","axis":[0,1]},"#
        + #"{"kind":"speed_limit","max_speed":24000}],"velocity_error":0}"#,
      #"{"ev":"handoff","session":"ls","item":"screen","gesture_velocity":[0,0],"#
        + #""item_velocity":[0,0],"velocity_error":0,"#
        + #""estimate":{"reason":"pointer_stopped","samples":7,"still_ms":55.001}}"#,
      #"{"ev":"handoff","session":"ls","item":"screen","gesture_velocity":[0,0],"#
        + #""item_velocity":[0,0],"velocity_error":0,"#
        + #""estimate":{"reason":"too_few_samples","samples":1}}"#,
      #"{"ev":"done","session":"menu","outcome":"opened","values":{"background_alpha":0.5}}"#,
      #"{"ev":"done","session":"ls","outcome":"closed"}"#,
      #"{"ev":"shutdown"}"#,
      #"{"ev":"shutdown","reason":"SIGTERM"}"#,
    ]
    #expect(text(encoder) == expected.map { $0 + "\n" }.joined())
    #expect(encoder.nonFiniteCount == 0)
  }

  @Test func frameFromALazySequenceMatchesTheArrayForm() {
    let centers = [Point(x: 1.25, y: -2), Point(x: 300, y: 400.125)]
    let states = centers.enumerated().map { ItemState(id: "i\($0.offset)", center: $0.element) }
    var fromArray = MessageEncoder()
    fromArray.frame(session: "s", seq: 5, t: 0.5, items: states, dropped: 1)
    var fromSequence = MessageEncoder()
    fromSequence.frame(
      session: "s", seq: 5, t: 0.5,
      items: centers.enumerated().lazy.map { ItemState(id: "i\($0.offset)", center: $0.element) },
      dropped: 1)
    #expect(fromSequence.bytes == fromArray.bytes)
    #expect(
      text(fromArray)
        == #"{"ev":"frame","session":"s","seq":5,"t":0.5,"items":[{"id":"i0","center":[1.25,-2],"#
        + #""angle":0,"velocity":[0,0],"angular_velocity":0},{"id":"i1","center":[300,400.125],"#
        + #""angle":0,"velocity":[0,0],"angular_velocity":0}],"dropped":1}"# + "\n")
  }

  /// Whatever the numbers and names, every line is one valid JSON object.
  @Test func randomFramesAreValidJSONLines() throws {
    var generator = SplitMix64(seed: 7)
    let specials: [Double] = [.nan, .infinity, -.infinity, -0.0, 1e300, -1e-300, 0.0005]
    let parser = JSONParser()
    var encoder = MessageEncoder()
    for round in 0..<300 {
      func random() -> Double {
        if Int.random(in: 0..<8, using: &generator) == 0 {
          return specials.randomElement(using: &generator)!
        }
        return Double.random(in: -1e7...1e7, using: &generator)
          / Double(Int.random(in: 1...1_000_000, using: &generator))
      }
      let name =
        String(
          decoding: (0..<Int.random(in: 1...12, using: &generator)).map { _ in
            UInt8.random(in: 0...0x7F, using: &generator)
          }, as: UTF8.self) + "é"
      let items = (0..<Int.random(in: 0...5, using: &generator)).map { _ in
        ItemState(
          id: name, center: Point(x: random(), y: random()), angle: random(),
          velocity: Vector(dx: random(), dy: random()), angularVelocity: random())
      }
      encoder.removeAll()
      encoder.frame(session: name, seq: UInt64(round), t: random(), items: items)
      let line = encoder.bytes
      #expect(line.last == UInt8(ascii: "\n"))
      #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
      let value = try parser.parse(Array(line.dropLast()))
      #expect(value["session"]?.string == name)
      #expect(value["items"]?[0]?["id"]?.string == items.first?.id)
    }
  }

  /// The buffer is reused: once it has grown to a frame's size, encoding more frames of that size
  /// does not grow it again.
  @Test func bufferKeepsItsCapacity() {
    var encoder = MessageEncoder(capacity: 64)
    let items = (0..<32).map { index in
      ItemState(
        id: "item-\(index)", center: Point(x: 123.456, y: -654.321), angle: 1.234567,
        velocity: Vector(dx: -1000.5, dy: 999.25), angularVelocity: -3.14159)
    }
    encoder.frame(session: "s", seq: 1, t: 0, items: items)
    let size = encoder.bytes.count
    encoder.removeAll()
    let capacity = encoder.bytes.capacity
    #expect(capacity >= size)
    for seq in 2...100 {
      encoder.removeAll()
      encoder.frame(session: "s", seq: UInt64(seq), t: Double(seq) / 60, items: items)
    }
    #expect(encoder.bytes.capacity == capacity)
  }
}
