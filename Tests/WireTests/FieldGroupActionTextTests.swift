import Primitives
import Testing
import Wire

private func written(_ write: (inout MessageEncoder) -> Void) -> String {
  var encoder = MessageEncoder()
  write(&encoder)
  return String(decoding: encoder.bytes.dropLast(), as: UTF8.self)
}

/// The exact text of what fields, groups and action rules add to replies and events.
@Suite("Fields, groups, actions: the daemon's text")
struct FieldGroupActionTextTests {
  @Test("the action event: seq and t after session, then behavior, name and item")
  func actionEvent() {
    #expect(
      written {
        $0.encode(
          Event.action(
            ActionEvent(
              session: "s", seq: 30, t: 0.5000001, behavior: "drop", name: "landed", item: "ball")))
      }
        == #"{"ev":"action","session":"s","seq":30,"t":0.5,"behavior":"drop","name":"landed","item":"ball"}"#
    )
    #expect(
      written {
        $0.encode(
          Event.action(ActionEvent(session: "s", seq: 1, t: 0, behavior: "b", name: "n", item: nil))
        )
      } == #"{"ev":"action","session":"s","seq":1,"t":0,"behavior":"b","name":"n","item":null}"#)
  }

  @Test("items_in_rect's reply and get's groups")
  func replies() {
    #expect(
      written { $0.encode(Reply(id: .number("2"), .itemsInRect(items: ["a", "b"]))) }
        == #"{"ok":true,"id":2,"items":["a","b"]}"#)
    #expect(
      written { $0.encode(Reply(id: nil, .itemsInRect(items: []))) } == #"{"ok":true,"items":[]}"#)
    let details = SessionDetails(groups: [GroupSpec(id: "g", items: ["a", "b"])])
    #expect(
      written { $0.encode(Reply(id: nil, .get(t: 0, running: false, items: [], details: details))) }
        == #"{"ok":true,"t":0,"running":false,"items":[],"groups":[{"id":"g","items":["a","b"]}]}"#)
    // No groups: no member.
    #expect(
      !written { $0.encode(Reply(id: nil, .get(t: 0, running: false, items: []))) }.contains(
        "groups"))
  }

  @Test("debug geometry: fields and groups after gravity, before contacts")
  func debugGeometry() {
    var g = DebugGeometry()
    g.fields = [
      DebugGeometry.Field(
        id: "f", kind: "spring", position: Point(x: 1.00049, y: 2), region: .radius(40.0004),
        strength: 2.5, items: ["a"],
        samples: [DebugGeometry.Sample(point: Point(x: 0, y: 0), force: Vector(dx: 0.0104, dy: -3))]
      )
    ]
    g.groups = [
      DebugGeometry.Group(
        id: "g", items: ["a", "b"], center: Point(x: 5, y: 6), angle: 0.1234567,
        size: Size(width: 20, height: 10.5))
    ]
    #expect(
      g.jsonText
        == #"{"boundaries":[],"attachments":[],"snaps":[],"pushes":[],"gravity":[],"#
        + #""fields":[{"id":"f","kind":"spring","position":[1,2],"region":{"radius":40},"#
        + #""strength":2.5,"items":["a"],"samples":[[0,0,0.01,-3]]}],"#
        + #""groups":[{"id":"g","items":["a","b"],"center":[5,6],"angle":0.123457,"size":[20,10.5]}],"#
        + #""contacts":[]}"#)
  }

  @Test("a debug event of a daemon without fields and groups reads as none")
  func olderDebug() throws {
    let message = try ServerMessageDecoder().decode(
      #"{"ev":"debug","session":"S","seq":1,"t":0,"boundaries":[],"attachments":[],"snaps":[],"#
        + #""pushes":[],"gravity":[],"contacts":[]}"#)
    #expect(message == .event(.debug(session: "S", seq: 1, t: 0, geometry: DebugGeometry())))
  }

  @Test("behaviors: a field's every settable field, a composite's children, every rule")
  func behaviorEntries() {
    let text = written {
      $0.encode(Reply(id: nil, .behaviors(Array(behaviorStates.suffix(2)))))
    }
    #expect(
      text
        == #"{"ok":true,"behaviors":[{"type":"field","id":"whirl","kind":"vortex","items":["box","pair"],"#
        + #""position":[160,284.125],"region":{"union":[{"radius":120.5},{"inverse":{"size":[10,20]}}]},"#
        + #""strength":-0.25,"falloff":2,"minimum_radius":0.001,"direction":[0,0],"smoothness":0,"#
        + #""animation_speed":1,"seed":9007199254740992},"#
        + #"{"type":"composite","id":"tree","children":[{"type":"gravity","id":"inner","items":["ball"],"#
        + #""direction":[0,1],"angle":1.570796,"magnitude":1,"action":[{"when":{"item":"ball","#
        + #""inside":[0,500,320,68.5]},"then":[{"emit":"landed"},{"remove_behavior":"inner"}]}]},"#
        + #"{"type":"composite","id":"empty","children":[]}],"action":[{"when":{"item":"box","#
        + #""speed_below":0.5},"then":[{"set":{"behavior":"whirl","items":["box"],"direction":[0.5,0],"#
        + #""position":[1.5,-2],"region":{"intersection":[{"infinite":true},{"radius":3}]},"#
        + #""strength":4.000001,"falloff":1,"minimum_radius":0.5,"smoothness":0.25,"#
        + #""animation_speed":10,"seed":42}}],"repeat":true},{"when":{"always":true},"#
        + #""then":[{"emit":"tick"}]}]}]}"#)
  }

  @Test("a newer daemon's members inside regions and rules are ignored")
  func lenientReplies() throws {
    let reply = try ServerMessageDecoder().decode(
      #"{"ok":true,"behaviors":[{"type":"field","id":"f","kind":"drag","#
        + #""region":{"radius":3,"feather":1},"action":[{"when":{"always":true,"jitter":1},"#
        + #""then":[{"emit":"x","colour":"red"}],"priority":2}]}]}"#,
      answering: BehaviorsRequest.self)
    #expect(
      reply.replyBody
        == .behaviors([
          .field(
            FieldSpec(
              id: "f", kind: .drag, region: .radius(3),
              action: [ActionRule(when: .always, then: [.emit("x")])]))
        ]))
  }
}
