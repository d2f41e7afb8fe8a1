import Glibc
import Primitives
import Testing
import Wire

private func behavior(_ body: String) throws(RejectedRequest) -> BehaviorSpec? {
  guard
    let spec =
      (try decoded(
        #"{"op":"add_behavior","session":"s","behavior":"# + body + "}"
      ).op.request as? AddBehaviorRequest)?.behavior
  else { return nil }
  return spec
}

/// Scene objects: items, each behavior type, boundaries and whole-scene checks.
@Suite("Scene objects")
struct SceneDecodingTests {
  @Test func gravityForms() throws {
    #expect(
      try behavior(#"{"type":"gravity","items":["a"],"direction":[0,-4]}"#)
        == .gravity(GravitySpec(items: ["a"], direction: Vector(dx: 0, dy: -4))))
    #expect(
      try behavior(#"{"type":"gravity","items":["a","b"],"angle":3.14,"magnitude":2}"#)
        == .gravity(GravitySpec(items: ["a", "b"], angle: 3.14, magnitude: 2)))
    #expect(
      try behavior(#"{"type":"gravity","items":[],"magnitude":0}"#)
        == .gravity(GravitySpec(items: [], magnitude: 0)))
  }

  @Test func collisionWithBoundaries() throws {
    let spec = try behavior(
      #"{"type":"collision","id":"c","items":["a"],"mode":"boundaries","insets":[0,0,-1,0],"#
        + #""boundaries":[{"id":"floor","from":[0,569],"to":[320,569]},"#
        + #"{"id":"cup","path":[[0,0],[0,10],[10,10],[10,0]]}]}"#)
    #expect(
      spec
        == .collision(
          CollisionSpec(
            id: "c", items: ["a"], mode: .boundaries,
            insets: EdgeInsets(top: 0, left: 0, bottom: -1, right: 0),
            boundaries: [
              BoundarySpec(
                id: "floor",
                shape: .segment(from: Point(x: 0, y: 569), to: Point(x: 320, y: 569))),
              BoundarySpec(
                id: "cup",
                shape: .path([
                  Point(x: 0, y: 0), Point(x: 0, y: 10), Point(x: 10, y: 10),
                  Point(x: 10, y: 0),
                ])),
            ])))
    #expect(spec?.type == .collision)
    #expect(spec?.id == "c")
  }

  @Test func attachmentKinds() throws {
    #expect(
      try behavior(
        #"{"type":"attachment","item":"a","anchor":[10,20],"offset":[41,0.5],"length":0,"#
          + #""damping":0.4,"frequency":1.5}"#)
        == .attachment(
          AttachmentSpec(
            item: "a", anchor: Point(x: 10, y: 20), offset: Vector(dx: 41, dy: 0.5),
            length: 0, damping: 0.4, frequency: 1.5)))
    #expect(
      try behavior(
        #"{"type":"attachment","item":"a","to":"b","offset":[25,0],"to_offset":[-25,0]}"#)
        == .attachment(
          AttachmentSpec(
            item: "a", to: "b", offset: Vector(dx: 25, dy: 0),
            toOffset: Vector(dx: -25, dy: 0))))
    #expect(
      try behavior(
        #"{"type":"attachment","kind":"sliding","item":"a","anchor":[0,0],"axis":[0,1],"#
          + #""range":[-50,50]}"#)
        == .attachment(
          AttachmentSpec(
            kind: .sliding, item: "a", anchor: Point(x: 0, y: 0),
            axis: Vector(dx: 0, dy: 1), range: FloatRange(minimum: -50, maximum: 50))))
    #expect(
      try behavior(#"{"type":"attachment","kind":"limit","item":"a","to":"b","length":100}"#)
        == .attachment(AttachmentSpec(kind: .limit, item: "a", to: "b", length: 100)))
    #expect(
      try behavior(#"{"type":"attachment","kind":"fixed","item":"a","to":"b","anchor":[5,5]}"#)
        == .attachment(
          AttachmentSpec(kind: .fixed, item: "a", to: "b", anchor: Point(x: 5, y: 5))))
    #expect(
      try behavior(
        #"{"type":"attachment","kind":"pin","item":"a","to":"b","anchor":[5,5],"#
          + #""range":[-0.5,0.5],"friction_torque":2}"#)
        == .attachment(
          AttachmentSpec(
            kind: .pin, item: "a", to: "b", anchor: Point(x: 5, y: 5),
            range: FloatRange(minimum: -0.5, maximum: 0.5), frictionTorque: 2)))
    // A field of another kind is unknown for this one.
    #expect(
      rejection(
        #"{"op":"add_behavior","session":"s","behavior":{"type":"attachment","kind":"fixed","#
          + #""item":"a","to":"b","anchor":[5,5],"length":3}}"#)
        == ProtocolError(
          .unknownField, "field 'behavior.length' is not defined for a 'fixed' attachment"))
  }

  @Test func snapPushAndDynamicItem() throws {
    #expect(
      try behavior(#"{"type":"snap","item":"label","point":[100,200],"damping":0.5}"#)
        == .snap(SnapSpec(item: "label", point: Point(x: 100, y: 200), damping: 0.5)))
    #expect(
      try behavior(
        #"{"type":"push","items":["menu"],"mode":"instantaneous","magnitude":-20,"angle":0,"#
          + #""offset":[0,5],"active":true}"#)
        == .push(
          PushSpec(
            items: ["menu"], mode: .instantaneous, angle: 0, magnitude: -20,
            offset: Vector(dx: 0, dy: 5), active: true)))
    #expect(
      try behavior(
        #"{"type":"dynamic_item","items":["tail"],"elasticity":0.4,"friction":0.2,"#
          + #""density":0.1,"resistance":0.1,"angular_resistance":0.1,"allows_rotation":false,"#
          + #""anchored":false,"charge":-1}"#)
        == .dynamicItem(
          DynamicItemSpec(
            items: ["tail"], elasticity: 0.4, friction: 0.2, density: 0.1, resistance: 0.1,
            angularResistance: 0.1, allowsRotation: false, anchored: false, charge: -1)))
  }

  @Test func convexPathsInBothWindingsAreAccepted() throws {
    for path in ["[[0,-10],[10,10],[-10,10]]", "[[0,-10],[-10,10],[10,10]]"] {
      let request = try decoded(
        #"{"op":"add_item","session":"s","item":{"id":"t","center":[0,0],"size":[20,20],"#
          + #""shape":"path","path":"# + path + "}}")
      guard let item = (request.op.request as? AddItemRequest)?.item,
        case .path(let points) = item.shape
      else {
        Issue.record("not a path item")
        continue
      }
      #expect(points.count == 3)
    }
  }

  @Test func regularPolygonsUpToTheVertexLimitAreAccepted() throws {
    // 64 vertices on a circle of radius 100: every edge is about 9.8 pt.
    let points = (0..<64).map { index -> String in
      let angle = Double(index) / 64 * 2 * Double.pi
      return "[\(100 * cos(angle)),\(100 * sin(angle))]"
    }
    let request = try decoded(
      #"{"op":"add_item","session":"s","item":{"id":"o","center":[0,0],"size":[200,200],"#
        + #""shape":"path","path":["# + points.joined(separator: ",") + "]}}")
    guard let item = (request.op.request as? AddItemRequest)?.item,
      case .path(let vertices) = item.shape
    else {
      Issue.record("not a path item")
      return
    }
    #expect(vertices.count == 64)
  }

  @Test func sceneChecksReferences() {
    let error = rejection(
      #"{"op":"open","scene":{"items":[{"id":"a","center":[0,0],"size":[1,1]}],"#
        + #""behaviors":[{"type":"attachment","item":"a","to":"b"}]}}"#)
    #expect(
      error
        == ProtocolError(
          .invalidScene, "behavior scene.behaviors[0] names item 'b', which is not in the scene"))
  }

  @Test func emptySceneDecodes() throws {
    #expect(
      try decoded(#"{"op":"open","scene":{}}"#).op
        == Op(OpenRequest(source: .scene(SceneSpec()))))
    #expect(
      try decoded(#"{"op":"open","scene":{"bounds":[10,20,320,568]}}"#).op
        == Op(
          OpenRequest(
            source: .scene(SceneSpec(bounds: Rect(x: 10, y: 20, width: 320, height: 568))))))
  }
}
