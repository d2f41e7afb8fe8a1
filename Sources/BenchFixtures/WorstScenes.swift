import Foundation

/// Valid scenes built to make one internal step as costly as the limits allow (issue 39): every
/// shape piled on one spot, groups of many-piece paths meeting, hubs inside a pile, attachment
/// webs, fields and behaviors over every item. Each is a scene as `open` takes it, under every
/// limit of PROTOCOL.md section 12 (4 096 shapes, 1 000 items, behaviors and groups, 32 768 items
/// named by behaviors, 8 192 field items). Shared by `dynbench worst-step`, which times their
/// internal steps, and the tests that hold the bounds by counting (`StepBoundTests`).
public enum WorstScenes {
  public struct Scene: Sendable {
    public let name: String
    public let title: String
    /// The `scene` object of an `open`, as JSON text.
    public let json: String
  }

  /// A regular 64-gon of radius 20 pt: 11 convex pieces (Box2D's polygons have at most 8
  /// vertices), the most pieces an item path makes.
  static let polygon64: String = {
    let points = (0..<64).map { k -> String in
      let a = 2 * Double.pi * Double(k) / 64
      return "[\(String(format: "%.3f", 20 * cos(a))),\(String(format: "%.3f", 20 * sin(a)))]"
    }
    return "[" + points.joined(separator: ",") + "]"
  }()

  /// Pieces of one `polygon64` item.
  public static let piecesPer64gon = 11

  static func box(_ id: String, _ x: Double, _ y: Double, side: Double = 40) -> String {
    #"{"id":"\#(id)","center":[\#(x),\#(y)],"size":[\#(side),\#(side)]}"#
  }

  static func gon(_ id: String, _ x: Double, _ y: Double) -> String {
    #"{"id":"\#(id)","center":[\#(x),\#(y)],"size":[40,40],"shape":"path","path":\#(polygon64)}"#
  }

  static func list(_ ids: [String]) -> String {
    "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
  }

  static func scene(items: [String], groups: [String] = [], behaviors: [String]) -> String {
    #"{"items":[\#(items.joined(separator: ","))],"groups":[\#(groups.joined(separator: ","))],"behaviors":[\#(behaviors.joined(separator: ","))]}"#
  }

  /// `n` ids with `prefix`.
  static func ids(_ prefix: String, _ n: Int) -> [String] { (0..<n).map { "\(prefix)\($0)" } }

  public static let all: [Scene] = [
    pile(), gonPile(mode: "everything"), gonPile(mode: "boundaries"), crossingGroups(),
    hubsInGroup(), passingThrough(), web(), fields(), behaviorsTimesItems(), impacts(),
    everything(),
  ]

  /// 1 000 boxes on one spot, falling and colliding: 500 000 overlapping pairs.
  static func pile() -> Scene {
    let ids = ids("i", 1000)
    return Scene(
      name: "pile", title: "1 000 boxes on one spot, gravity, collision",
      json: scene(
        items: ids.map { box($0, 160, 284) },
        behaviors: [
          #"{"type":"gravity","items":\#(list(ids))}"#,
          #"{"type":"collision","items":\#(list(ids)),"reference_bounds":true}"#,
        ]))
  }

  /// 372 64-gons on one spot (4 092 pieces, the most a session holds with the 4 bounds walls).
  static func gonPile(mode: String) -> Scene {
    let ids = ids("g", 372)
    return Scene(
      name: "gon-pile-\(mode)", title: "372 stacked 64-gons (4 092 pieces), collision mode \(mode)",
      json: scene(
        items: ids.map { gon($0, 160, 284) },
        behaviors: [
          #"{"type":"gravity","items":\#(list(ids))}"#,
          #"{"type":"collision","items":\#(list(ids)),"mode":"\#(mode)","reference_bounds":true}"#,
        ]))
  }

  /// Two groups of 186 64-gons each (2 046 pieces a body), overlapping, in one collision.
  static func crossingGroups() -> Scene {
    let a = ids("a", 186)
    let b = ids("b", 186)
    return Scene(
      name: "crossing-groups", title: "2 overlapping groups of 186 64-gons (2 046 pieces each)",
      json: scene(
        items: a.enumerated().map { gon($1, 150, 200 + Double($0 % 20)) }
          + b.enumerated().map { gon($1, 170, 210 + Double($0 % 20)) },
        groups: [#"{"id":"ga","items":\#(list(a))}"#, #"{"id":"gb","items":\#(list(b))}"#],
        behaviors: [
          #"{"type":"gravity","items":["ga","gb"]}"#,
          #"{"type":"collision","items":["ga","gb"],"reference_bounds":true}"#,
        ]))
  }

  /// A group of 300 stacked 64-gons (3 300 pieces, one body) with 600 boxes inside it, pulled
  /// into it by a spring each (issue 39's hubs retargeted onto a pile).
  static func hubsInGroup() -> Scene {
    let pile = ids("p", 300)
    let hubs = ids("h", 600)
    return Scene(
      name: "hubs-in-group", title: "600 boxes sprung into a group of 300 stacked 64-gons",
      json: scene(
        items: pile.map { gon($0, 160, 284) } + hubs.map { box($0, 160, 284, side: 10) },
        groups: [#"{"id":"pile","items":\#(list(pile))}"#],
        behaviors: [
          #"{"type":"collision","items":\#(list(["pile"] + hubs)),"reference_bounds":true}"#,
          #"{"type":"spring","items":\#(list(hubs)),"target":[160,284],"response":0.2,"damping_ratio":1}"#,
        ]))
  }

  /// 1 000 boxes on one spot under gravity, colliding with nothing (their pairs are met all the
  /// same).
  static func passingThrough() -> Scene {
    let ids = ids("i", 1000)
    return Scene(
      name: "passing-through", title: "1 000 boxes on one spot, gravity, no collision",
      json: scene(
        items: ids.map { box($0, 160, 284) },
        behaviors: [#"{"type":"gravity","items":\#(list(ids))}"#]))
  }

  /// 1 000 items on one spot, the first 500 each attached to the one before and to the first
  /// (499 + 499 springs, one hub body with 499 joints), under gravity and colliding.
  static func web() -> Scene {
    let ids = ids("w", 1000)
    let chain = (1..<500).map {
      #"{"type":"attachment","item":"w\#($0)","to":"w\#($0 - 1)","length":10,"frequency":4,"damping":0.5}"#
    }
    let spokes = (1..<500).map {
      #"{"type":"attachment","item":"w\#($0)","to":"w0","length":30,"frequency":4,"damping":0.5}"#
    }
    return Scene(
      name: "web", title: "1 000 items on one spot, 998 attachments (499 to one hub), collision",
      json: scene(
        items: ids.map { box($0, 160, 284, side: 10) },
        behaviors: [
          #"{"type":"gravity","items":\#(list(ids))}"#,
          #"{"type":"collision","items":\#(list(ids)),"reference_bounds":true}"#,
        ] + chain + spokes))
  }

  /// 8 noise and turbulence fields over 1 000 items each (8 000 field items).
  static func fields() -> Scene {
    let ids = ids("f", 1000)
    let fields = (0..<8).map {
      #"{"type":"field","kind":"\#($0 % 2 == 0 ? "noise" : "turbulence")","items":\#(list(ids)),"position":[160,284],"strength":2,"smoothness":0.2,"animation_speed":10,"seed":\#($0)}"#
    }
    return Scene(
      name: "fields", title: "8 noise and turbulence fields over 1 000 spaced items",
      json: scene(
        items: ids.enumerated().map {
          box($1, 8 + Double($0 % 40) * 8, 8 + Double($0 / 40) * 8, side: 4)
        },
        behaviors: fields))
  }

  /// 32 gravity behaviors, each over the same 1 000 items (32 000 forces a step).
  static func behaviorsTimesItems() -> Scene {
    let ids = ids("i", 1000)
    let all = list(ids)
    return Scene(
      name: "behaviors-x-items", title: "32 gravity behaviors × 1 000 spaced items",
      json: scene(
        items: ids.enumerated().map {
          box($1, 8 + Double($0 % 40) * 8, 8 + Double($0 / 40) * 8, side: 4)
        },
        behaviors: (0..<32).map { _ in #"{"type":"gravity","items":\#(all),"magnitude":0.001}"# }))
  }

  /// 1 000 boxes of 3 pt falling at gravity 1 000 (10⁶ pt/s²) onto the floor at once: a time of
  /// impact for each, which Box2D solves one after another, finding pairs after each.
  static func impacts() -> Scene {
    let ids = ids("t", 1000)
    return Scene(
      name: "impacts", title: "1 000 boxes of 3 pt hitting the floor at once, gravity 1 000",
      json: scene(
        items: ids.enumerated().map {
          box($1, 2 + Double($0 % 100) * 3.16, 500 + Double($0 / 100) * 4, side: 3)
        },
        behaviors: [
          #"{"type":"gravity","items":\#(list(ids)),"magnitude":1000}"#,
          #"{"type":"collision","items":\#(list(ids)),"reference_bounds":true}"#,
        ]))
  }

  /// Every bound at once: 300 64-gons and 700 boxes on one spot (4 000 shapes), 300 attachments,
  /// 22 gravity behaviors, a collision and 8 noise fields over all 1 000 items (31 600 items
  /// named, 8 000 field items).
  static func everything() -> Scene {
    let gons = ids("g", 300)
    let boxes = ids("b", 700)
    let all = list(gons + boxes)
    let rods = (0..<300).map {
      #"{"type":"attachment","item":"g\#($0)","to":"b\#($0)","length":5,"frequency":4,"damping":0.5}"#
    }
    let fields = (0..<8).map {
      #"{"type":"field","kind":"noise","items":\#(all),"position":[160,284],"smoothness":0.2,"seed":\#($0)}"#
    }
    return Scene(
      name: "everything",
      title: "every bound at once: 4 000 shapes on one spot, joints, forces, fields",
      json: scene(
        items: gons.map { gon($0, 160, 284) } + boxes.map { box($0, 160, 284, side: 10) },
        behaviors: (0..<22).map { _ in #"{"type":"gravity","items":\#(all)}"# }
          + [#"{"type":"collision","items":\#(all),"reference_bounds":true}"#] + fields + rods))
  }
}
