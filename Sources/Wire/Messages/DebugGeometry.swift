import Primitives

/// A session's behaviors as geometry, DynamicXray-style: the body of the `debug` reply and
/// event (protocol/PROTOCOL.md, “debug”). Every point is in reference coordinates.
public struct DebugGeometry: Equatable, Sendable {
  public var boundaries: [Boundary] = []
  public var attachments: [Attachment] = []
  public var snaps: [Snap] = []
  public var pushes: [Push] = []
  public var gravity: [Gravity] = []
  /// Field behaviors, each with the force it would apply at grid points (extension).
  public var fields: [Field] = []
  /// Item groups, each as the frame that encloses its members (extension).
  public var groups: [Group] = []
  /// The touching pairs now.
  public var contacts: [Touch] = []
  /// Entries left out to keep the message within `Limits.maxDebugBytes` (written as
  /// `left_out` only when not 0): contacts that did not fit, or, when the behaviors' geometry
  /// alone would not, every behavior and contact.
  public var leftOut = 0

  public init() {}

  /// A collision boundary: a polyline `{id, points}` (a segment has two points), or the
  /// reference bounds of a collision behavior after insets, `{id: null, rect}`.
  public enum Boundary: Equatable, Sendable {
    case path(id: String, points: [Point])
    case referenceBounds(Rect)
  }

  /// `{kind, item, item_point, to, to_point, spring, length}`, and `axis` for a sliding one:
  /// `to` is the other item, or nil for an anchor; `spring` is true when the attachment has a
  /// frequency; `axis` is the direction of the rail the item runs on, through `to_point`.
  public struct Attachment: Equatable, Sendable {
    public var kind: String
    public var item: String
    public var itemPoint: Point
    public var to: String?
    public var toPoint: Point
    public var spring: Bool
    public var length: Double
    public var axis: Vector?
    public init(
      kind: String, item: String, itemPoint: Point, to: String?, toPoint: Point, spring: Bool,
      length: Double, axis: Vector? = nil
    ) {
      self.kind = kind
      self.item = item
      self.itemPoint = itemPoint
      self.to = to
      self.toPoint = toPoint
      self.spring = spring
      self.length = length
      self.axis = axis
    }
  }

  /// `{item, point}`.
  public struct Snap: Equatable, Sendable {
    public var item: String
    public var point: Point
    public init(item: String, point: Point) {
      self.item = item
      self.point = point
    }
  }

  /// `{items, mode, vector, active}`.
  public struct Push: Equatable, Sendable {
    public var items: [String]
    public var mode: String
    public var vector: Vector
    public var active: Bool
    public init(items: [String], mode: String, vector: Vector, active: Bool) {
      self.items = items
      self.mode = mode
      self.vector = vector
      self.active = active
    }
  }

  /// `{items, vector}`, the vector in UIKit units (magnitude 1 = 1000 pt/s²).
  public struct Gravity: Equatable, Sendable {
    public var items: [String]
    public var vector: Vector
    public init(items: [String], vector: Vector) {
      self.items = items
      self.vector = vector
    }
  }

  /// `{id, kind, position, region, strength, items, samples}`: a field behavior, its region
  /// around `position`, and `samples`, the force (UIKit Newtons) the field applies to a still
  /// probe of mass 1 and charge 1 at points the daemon picks, each written `[x, y, fx, fy]`.
  public struct Field: Equatable, Sendable {
    public var id: String
    /// The field's `kind` word (`FieldKindName`).
    public var kind: String
    public var position: Point
    public var region: RegionSpec
    public var strength: Double
    public var items: [String]
    public var samples: [Sample]
    public init(
      id: String, kind: String, position: Point, region: RegionSpec, strength: Double,
      items: [String], samples: [Sample]
    ) {
      self.id = id
      self.kind = kind
      self.position = position
      self.region = region
      self.strength = strength
      self.items = items
      self.samples = samples
    }
  }

  /// One sample of a field: the force on a still probe at `point`.
  public struct Sample: Equatable, Sendable {
    public var point: Point
    public var force: Vector
    public init(point: Point, force: Vector) {
      self.point = point
      self.force = force
    }
  }

  /// `{id, items, center, angle, size}`: an item group as one rigid body, its members' enclosing
  /// frame when it was made, now at `center` turned by `angle`.
  public struct Group: Equatable, Sendable {
    public var id: String
    public var items: [String]
    public var center: Point
    public var angle: Double
    public var size: Size
    public init(id: String, items: [String], center: Point, angle: Double, size: Size) {
      self.id = id
      self.items = items
      self.center = center
      self.angle = angle
      self.size = size
    }
  }

  /// `{item, with | boundary, point}`.
  public struct Touch: Equatable, Sendable {
    public var item: String
    public var partner: ContactPartner
    public var point: Point?
    public init(item: String, partner: ContactPartner, point: Point?) {
      self.item = item
      self.partner = partner
      self.point = point
    }
  }
}

extension DebugGeometry {
  /// The geometry as the JSON object the daemon writes for it (the `debug` reply's member).
  public var jsonText: String {
    var encoder = MessageEncoder(capacity: 1024)
    encoder.value(.object(replyFields))
    return String(decoding: encoder.bytes, as: UTF8.self)
  }

  /// The members as written on the wire, in the protocol's order.
  var replyFields: [ReplyField] {
    [
      ReplyField("boundaries", .array(boundaries.map(\.value))),
      ReplyField("attachments", .array(attachments.map(\.value))),
      ReplyField("snaps", .array(snaps.map(\.value))),
      ReplyField("pushes", .array(pushes.map(\.value))),
      ReplyField("gravity", .array(gravity.map(\.value))),
      ReplyField("fields", .array(fields.map(\.value))),
      ReplyField("groups", .array(groups.map(\.value))),
      ReplyField("contacts", .array(contacts.map(\.value))),
    ] + (leftOut > 0 ? [.integer("left_out", leftOut)] : [])
  }
}

private func n(_ v: Double) -> ReplyValue { .number(v, decimals: WireProtocol.linearDecimals) }
private func pair(_ p: Point) -> ReplyValue { .array([n(p.x), n(p.y)]) }
private func pair(_ v: Vector) -> ReplyValue { .array([n(v.dx), n(v.dy)]) }
/// A direction, with the 6 decimals of directions and angles.
private func unit(_ v: Vector) -> ReplyValue {
  .array([
    .number(v.dx, decimals: WireProtocol.angularDecimals),
    .number(v.dy, decimals: WireProtocol.angularDecimals),
  ])
}

extension DebugGeometry.Boundary {
  fileprivate var value: ReplyValue {
    switch self {
    case .path(let id, let points):
      return .object([.string("id", id), ReplyField("points", .array(points.map(pair)))])
    case .referenceBounds(let r):
      return .object([
        ReplyField("id", .null),
        ReplyField("rect", .array([n(r.minX), n(r.minY), n(r.size.width), n(r.size.height)])),
      ])
    }
  }
}

extension DebugGeometry.Attachment {
  fileprivate var value: ReplyValue {
    .object(
      [
        .string("kind", kind), .string("item", item), ReplyField("item_point", pair(itemPoint)),
        ReplyField("to", to.map { .string($0) } ?? .null), ReplyField("to_point", pair(toPoint)),
        .bool("spring", spring), .number("length", length),
      ] + (axis.map { [ReplyField("axis", unit($0))] } ?? []))
  }
}

extension DebugGeometry.Snap {
  fileprivate var value: ReplyValue {
    .object([.string("item", item), ReplyField("point", pair(point))])
  }
}

extension DebugGeometry.Push {
  fileprivate var value: ReplyValue {
    .object([
      .strings("items", items), .string("mode", mode), ReplyField("vector", pair(vector)),
      .bool("active", active),
    ])
  }
}

extension DebugGeometry.Gravity {
  fileprivate var value: ReplyValue {
    .object([.strings("items", items), ReplyField("vector", pair(vector))])
  }
}

extension DebugGeometry.Field {
  fileprivate var value: ReplyValue {
    .object([
      .string("id", id), .string("kind", kind), ReplyField("position", pair(position)),
      ReplyField("region", region.replyValue), .number("strength", strength),
      .strings("items", items),
      ReplyField(
        "samples",
        .array(
          samples.map { .array([n($0.point.x), n($0.point.y), n($0.force.dx), n($0.force.dy)]) })),
    ])
  }
}

extension DebugGeometry.Group {
  fileprivate var value: ReplyValue {
    .object([
      .string("id", id), .strings("items", items), ReplyField("center", pair(center)),
      .number("angle", angle, decimals: WireProtocol.angularDecimals),
      ReplyField("size", .array([n(size.width), n(size.height)])),
    ])
  }
}

extension DebugGeometry.Touch {
  fileprivate var value: ReplyValue {
    var fields: [ReplyField] = [.string("item", item)]
    switch partner {
    case .item(let other): fields.append(.string("with", other))
    case .boundary(let id): fields.append(ReplyField("boundary", id.map { .string($0) } ?? .null))
    }
    if let point { fields.append(ReplyField("point", pair(point))) }
    return .object(fields)
  }
}
